// Sign-up, log-in and log-out.
//
// Log-in answers an unknown email, an account without a password and a wrong password with
// the same words, the same status and (a real scrypt run every time) about the same time.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from "fastify";
import { type Accounts, EmailTakenError } from "../auth/ports";
import { logInPage, signUpPage } from "./auth-pages";
import { formText } from "./form-fields";
import { sendPage } from "./layout";
import { messagePage } from "./message-page";
import { hashPassword, passwordProblem, PASSWORD_MAX, verifyPassword } from "./passwords";
import { safeNext } from "./visitors";

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

export const authRoutes: FastifyPluginCallback<{ accounts: Accounts }> = (app, { accounts }, done) => {
  const { visitors, authLimiters: limiters } = app;

  app.get("/account/signup", (req, reply) => {
    if (req.visitor) return reply.redirect("/account", 303);
    return sendPage(reply, signUpPage({ csrf: visitors.formToken(req, reply) }));
  });

  app.post("/account/signup", async (req, reply) => {
    const email = formText(req.body, "email").trim();
    const password = formText(req.body, "password");
    const again = (errors: FormErrors, status?: number) =>
      sendPage(status ? reply.code(status) : reply, signUpPage({ csrf: visitors.formToken(req, reply), email, errors }));
    if (!visitors.checkFormToken(req)) return again({ form: FORM_EXPIRED }, 403);
    const emailKey = email.toLowerCase();
    const wait = Math.max(await limiters.signUpPerIp.retryAfter(req.ip), await limiters.signUpPerEmail.retryAfter(emailKey));
    if (wait > 0) return again({ form: tooMany(reply, wait, "sign-up attempts") });
    await limiters.signUpPerIp.record(req.ip);
    if (emailKey) await limiters.signUpPerEmail.record(emailKey);

    const errors = { email: emailProblem(email), password: passwordProblem(password, email) };
    if (!errors.email && (await accounts.findByEmail(email))) {
      errors.email = "An account with this email already exists. Log in instead.";
    }
    if (errors.email || errors.password) return again(errors, 400);
    try {
      const account = await accounts.createWithPassword(email, await hashPassword(password));
      await visitors.signIn(reply, account.id);
    } catch (err) {
      if (!(err instanceof EmailTakenError)) throw err;
      return again({ email: "An account with this email already exists. Log in instead." }, 400);
    }
    req.log.info({ event: "account_created" }, "account created");
    return reply.redirect("/account", 303);
  });

  app.get("/account/login", (req: FastifyRequest<{ Querystring: { next?: string; bye?: string } }>, reply) => {
    if (req.visitor) return reply.redirect(safeNext(req.query.next) ?? "/account", 303);
    const notice = req.query.bye === "1" ? "You have logged out." : undefined;
    return sendPage(reply, logInPage({ csrf: visitors.formToken(req, reply), next: safeNext(req.query.next), notice }));
  });

  app.post("/account/login", async (req, reply) => {
    const email = formText(req.body, "email").trim();
    const password = formText(req.body, "password");
    const next = safeNext(formText(req.body, "next"));
    const again = (errors: FormErrors, status?: number) =>
      sendPage(status ? reply.code(status) : reply, logInPage({ csrf: visitors.formToken(req, reply), email, errors, next }));
    if (!visitors.checkFormToken(req)) return again({ form: FORM_EXPIRED }, 403);
    const emailKey = email.toLowerCase();
    const wait = Math.max(await limiters.logInPerIp.retryAfter(req.ip), await limiters.logInFailuresPerEmail.retryAfter(emailKey));
    if (wait > 0) return again({ form: tooMany(reply, wait, "log-in attempts") });
    await limiters.logInPerIp.record(req.ip);
    if (!email || !password) {
      return again(
        { email: email ? undefined : "Enter your email address.", password: password ? undefined : "Enter your password." },
        400,
      );
    }
    const account = email.length <= 254 ? await accounts.findByEmail(email) : undefined;
    const stored = account ? await accounts.passwordHash(account.id) : undefined;
    const ok = password.length <= PASSWORD_MAX * 4 && (await verifyPassword(password, stored));
    if (!ok || !account) {
      await limiters.logInFailuresPerEmail.record(emailKey);
      return again({ form: WRONG_CREDENTIALS }, 401);
    }
    await limiters.logInFailuresPerEmail.reset(emailKey);
    await visitors.signIn(reply, account.id);
    return reply.redirect(next ?? "/account", 303);
  });

  app.post("/account/logout", async (req, reply) => {
    const v = req.visitor;
    if (!v) {
      await visitors.signOut(reply);
      return reply.redirect("/account/login", 303);
    }
    if (!visitors.checkSessionToken(req, v)) {
      return sendPage(reply.code(403), messagePage("Form expired", FORM_EXPIRED, { email: v.account.email, csrf: v.csrf }));
    }
    await visitors.signOut(reply, v);
    return reply.redirect("/account/login?bye=1", 303);
  });
  done();
};
