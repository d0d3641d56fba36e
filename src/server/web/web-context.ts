// What the web routes share: the stores, the CSRF guard, the limiters, and the cookie and
// session plumbing every route needs.
import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Account, AccountStore } from "../auth/account-store";
import type { KeyStore } from "../auth/key-store";
import type { UsageReport } from "../credits/credit-ledger";
import type { AuthLimiters } from "./attempt-limiter";
import { cookieNames, parseCookies, serializeCookie } from "./cookies";
import { type CsrfGuard, preSessionBinding, sessionBinding } from "./csrf";
import { SESSION_MAX_MS, type SessionStore, type WebSession } from "./sessions";

/** What the usage page reads: CreditLedger.usage (the same instance that charges calls). */
export interface UsageSource {
  usage(accountId: string, recentLimit?: number): UsageReport;
}

export interface WebContext {
  keys: KeyStore;
  accounts: AccountStore;
  sessions: SessionStore;
  csrf: CsrfGuard;
  limiters: AuthLimiters;
  ledger: UsageSource;
  secureCookies: boolean;
}

/** A signed-in visitor, as the account routes see one. */
export interface Visitor {
  session: WebSession;
  account: Account;
  csrf: string;
}

export type FormBody = Record<string, unknown>;

/** A text field of a form body (forms send strings; anything else counts as empty). */
export function text(body: unknown, name: string): string {
  const v = (body as FormBody | undefined)?.[name];
  return typeof v === "string" ? v : "";
}

export function sessionCookie(ctx: WebContext, req: FastifyRequest): string | undefined {
  return parseCookies(req.headers.cookie).get(cookieNames(ctx.secureCookies).session);
}

/** The signed-in visitor, or undefined (no cookie, unknown, expired or logged out). */
export function visitor(ctx: WebContext, req: FastifyRequest): Visitor | undefined {
  const session = ctx.sessions.find(sessionCookie(ctx, req));
  if (!session) return undefined;
  const account = ctx.accounts.findById(session.accountId);
  if (!account) return undefined;
  return { session, account, csrf: ctx.csrf.token(sessionBinding(session.id)) };
}

/** Fastify appends each set-cookie header rather than replacing the previous one. */
function appendCookie(reply: FastifyReply, cookie: string): void {
  reply.header("set-cookie", cookie);
}

export function startSession(ctx: WebContext, reply: FastifyReply, accountId: string): WebSession {
  const session = ctx.sessions.create(accountId);
  const names = cookieNames(ctx.secureCookies);
  appendCookie(reply, serializeCookie(names.session, session.id, { secure: ctx.secureCookies, maxAgeSeconds: SESSION_MAX_MS / 1000 }));
  appendCookie(reply, serializeCookie(names.preSession, "", { secure: ctx.secureCookies, maxAgeSeconds: 0 }));
  return session;
}

export function clearSessionCookie(ctx: WebContext, reply: FastifyReply): void {
  appendCookie(reply, serializeCookie(cookieNames(ctx.secureCookies).session, "", { secure: ctx.secureCookies, maxAgeSeconds: 0 }));
}

/**
 * The CSRF token for the sign-up and log-in forms, which are posted before there is a
 * session: bound to a random pre-session cookie, set here if the visitor has none.
 */
export function preSessionToken(ctx: WebContext, req: FastifyRequest, reply: FastifyReply): string {
  const name = cookieNames(ctx.secureCookies).preSession;
  let nonce = parseCookies(req.headers.cookie).get(name);
  if (!nonce || !/^[A-Za-z0-9_-]{22,64}$/.test(nonce)) {
    nonce = crypto.randomBytes(18).toString("base64url");
    appendCookie(reply, serializeCookie(name, nonce, { secure: ctx.secureCookies, maxAgeSeconds: 2 * 60 * 60 }));
  }
  return ctx.csrf.token(preSessionBinding(nonce));
}

/** True when a sign-up or log-in POST carries the token of its pre-session cookie. */
export function checkPreSessionCsrf(ctx: WebContext, req: FastifyRequest): boolean {
  const nonce = parseCookies(req.headers.cookie).get(cookieNames(ctx.secureCookies).preSession);
  return ctx.csrf.check(req, nonce ? preSessionBinding(nonce) : undefined, text(req.body, "csrf"));
}

export function checkSessionCsrf(ctx: WebContext, req: FastifyRequest, v: Visitor): boolean {
  return ctx.csrf.check(req, sessionBinding(v.session.id), text(req.body, "csrf"));
}

/** The pages a log-in may return to; anything else goes to the keys page (no open redirect). */
const RETURN_PATHS = new Set(["/account", "/account/usage"]);
export function safeNext(next: unknown): string | undefined {
  return typeof next === "string" && RETURN_PATHS.has(next) ? next : undefined;
}
