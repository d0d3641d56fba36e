// Sign-up, log-in and log-out.
//
// Log-in answers an unknown email, an account without a password and a wrong password with
// the same words, the same status and (a real scrypt run every time) about the same time.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { logInPage, signUpPage } from "./auth-pages";
import { EmailTakenError } from "../auth/account-store";
import { hashPassword, passwordProblem, PASSWORD_MAX, verifyPassword } from "./passwords";
import {
  type WebContext, checkPreSessionCsrf, checkSessionCsrf, clearSessionCookie, preSessionToken, safeNext,
  startSession, text, visitor,
} from "./web-context";
import { messagePage } from "./message-page";

type FormErrors = { email?: string; password?: string; form?: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const WRONG_CREDENTIALS = "Email or password is incorrect.";
export const FORM_EXPIRED = "This form expired or did not come from this site. Please try again.";

function tooMany(reply: FastifyReply, seconds: number, what: string): string {
  reply.code(429).header("Retry-After", String(seconds));
  const minutes = Math.ceil(seconds / 60);
  return `Too many ${what}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

function emailProblem(email: string): string | undefined {
  if (!email) return "Enter your email address.";
  if (email.length > 254 || !EMAIL.test(email)) return "Enter an email address like name@example.com.";
  return undefined;
}

export function registerAuthRoutes(app: FastifyInstance, ctx: WebContext): void {
  const html = (reply: FastifyReply, body: string) => reply.type("text/html; charset=utf-8").send(body);

  app.get("/account/signup", (req, reply) => {
    if (visitor(ctx, req)) return reply.redirect("/account", 303);
    return html(reply, signUpPage({ csrf: preSessionToken(ctx, req, reply) }));
  });

  app.post("/account/signup", async (req, reply) => {
    const email = text(req.body, "email").trim();
    const password = text(req.body, "password");
    const again = (errors: FormErrors, status?: number) =>
      html(status ? reply.code(status) : reply, signUpPage({ csrf: preSessionToken(ctx, req, reply), email, errors }));
    if (!checkPreSessionCsrf(ctx, req)) return again({ form: FORM_EXPIRED }, 403);
    const emailKey = email.toLowerCase();
    const wait = Math.max(ctx.limiters.signUpPerIp.retryAfter(req.ip), ctx.limiters.signUpPerEmail.retryAfter(emailKey));
    if (wait > 0) return again({ form: tooMany(reply, wait, "sign-up attempts") });
    ctx.limiters.signUpPerIp.record(req.ip);
    if (emailKey) ctx.limiters.signUpPerEmail.record(emailKey);

    const errors = { email: emailProblem(email), password: passwordProblem(password, email) };
    if (!errors.email && ctx.accounts.findByEmail(email)) {
      errors.email = "An account with this email already exists. Log in instead.";
    }
    if (errors.email || errors.password) return again(errors, 400);
    try {
      const account = ctx.accounts.createWithPassword(email, await hashPassword(password));
      startSession(ctx, reply, account.id);
    } catch (err) {
      if (!(err instanceof EmailTakenError)) throw err;
      return again({ email: "An account with this email already exists. Log in instead." }, 400);
    }
    req.log.info({ event: "account_created" }, "account created");
    return reply.redirect("/account", 303);
  });

  app.get("/account/login", (req: FastifyRequest<{ Querystring: { next?: string; bye?: string } }>, reply) => {
    if (visitor(ctx, req)) return reply.redirect(safeNext(req.query.next) ?? "/account", 303);
    const notice = req.query.bye === "1" ? "You have logged out." : undefined;
    return html(reply, logInPage({ csrf: preSessionToken(ctx, req, reply), next: safeNext(req.query.next), notice }));
  });

  app.post("/account/login", async (req, reply) => {
    const email = text(req.body, "email").trim();
    const password = text(req.body, "password");
    const next = safeNext(text(req.body, "next"));
    const again = (errors: FormErrors, status?: number) =>
      html(status ? reply.code(status) : reply, logInPage({ csrf: preSessionToken(ctx, req, reply), email, errors, next }));
    if (!checkPreSessionCsrf(ctx, req)) return again({ form: FORM_EXPIRED }, 403);
    const emailKey = email.toLowerCase();
    const wait = Math.max(ctx.limiters.logInPerIp.retryAfter(req.ip), ctx.limiters.logInFailuresPerEmail.retryAfter(emailKey));
    if (wait > 0) return again({ form: tooMany(reply, wait, "log-in attempts") });
    ctx.limiters.logInPerIp.record(req.ip);
    if (!email || !password) {
      return again({ email: email ? undefined : "Enter your email address.", password: password ? undefined : "Enter your password." }, 400);
    }
    const account = email.length <= 254 ? ctx.accounts.findByEmail(email) : undefined;
    const stored = account ? ctx.accounts.passwordHash(account.id) : undefined;
    const ok = password.length <= PASSWORD_MAX * 4 && (await verifyPassword(password, stored));
    if (!ok || !account) {
      ctx.limiters.logInFailuresPerEmail.record(emailKey);
      return again({ form: WRONG_CREDENTIALS }, 401);
    }
    ctx.limiters.logInFailuresPerEmail.reset(emailKey);
    startSession(ctx, reply, account.id);
    return reply.redirect(next ?? "/account", 303);
  });

  app.post("/account/logout", (req, reply) => {
    const v = visitor(ctx, req);
    if (!v) {
      clearSessionCookie(ctx, reply);
      return reply.redirect("/account/login", 303);
    }
    if (!checkSessionCsrf(ctx, req, v)) {
      return html(reply.code(403), messagePage("Form expired", FORM_EXPIRED, { email: v.account.email, csrf: v.csrf }));
    }
    ctx.sessions.end(v.session.id);
    clearSessionCookie(ctx, reply);
    return reply.redirect("/account/login?bye=1", 303);
  });
}
