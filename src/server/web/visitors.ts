// Who is visiting: the session cookie and the log-in session behind it, the pre-session cookie
// of the sign-up and log-in forms, and the CSRF tokens bound to either. Cookies are read and
// written by @fastify/cookie; they are HttpOnly (no script reads them), SameSite=Lax (not sent
// on cross-site POSTs), Path=/, and Secure with `__Host-` names when users reach the service
// over HTTPS. Their values are opaque base64url tokens, never user text.
import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type Account, type Accounts, SESSION_MAX_MS, type Sessions, type WebSession } from "../auth/ports";
import { type CsrfGuard, preSessionBinding, sessionBinding } from "./csrf";
import { formText } from "./form-fields";

/** A signed-in visitor, as the pages see one. */
export interface Visitor {
  session: WebSession;
  account: Account;
  /** The session's CSRF token, for the page's forms. */
  csrf: string;
}

/** Cookie names: `__Host-` (Secure, host-only, Path=/ enforced by browsers) when served over HTTPS. */
export function cookieNames(secure: boolean) {
  const prefix = secure ? "__Host-" : "";
  return { session: `${prefix}pi_session`, preSession: `${prefix}pi_presession` };
}

const PRE_SESSION_MAX_SECONDS = 2 * 60 * 60;
const NONCE = /^[A-Za-z0-9_-]{22,64}$/;

export class Visitors {
  private readonly names;

  constructor(
    private readonly sessions: Sessions,
    private readonly accounts: Accounts,
    private readonly csrf: CsrfGuard,
    private readonly secure: boolean,
  ) {
    this.names = cookieNames(secure);
  }

  private cookie(reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
    reply.setCookie(name, value, { path: "/", httpOnly: true, sameSite: "lax", secure: this.secure, maxAge: maxAgeSeconds });
  }

  /** The signed-in visitor, or null (no cookie, unknown, expired or logged out). */
  async find(req: FastifyRequest): Promise<Visitor | null> {
    const session = await this.sessions.find(req.cookies[this.names.session]);
    const account = session && (await this.accounts.findById(session.accountId));
    if (!session || !account) return null;
    return { session, account, csrf: this.csrf.token(sessionBinding(session.id)) };
  }

  /** A new session for the account (a new id at every log-in), in place of the pre-session cookie. */
  async signIn(reply: FastifyReply, accountId: string): Promise<WebSession> {
    const session = await this.sessions.create(accountId);
    this.cookie(reply, this.names.session, session.id, SESSION_MAX_MS / 1000);
    this.cookie(reply, this.names.preSession, "", 0);
    return session;
  }

  /** Ends the visitor's session, if any, and clears its cookie. */
  async signOut(reply: FastifyReply, visitor?: Visitor | null): Promise<void> {
    if (visitor) await this.sessions.end(visitor.session.id);
    this.cookie(reply, this.names.session, "", 0);
  }

  /**
   * The CSRF token for the sign-up and log-in forms, which are posted before there is a
   * session: bound to a random pre-session cookie, set here if the visitor has none.
   */
  formToken(req: FastifyRequest, reply: FastifyReply): string {
    let nonce = req.cookies[this.names.preSession];
    if (!nonce || !NONCE.test(nonce)) {
      nonce = crypto.randomBytes(18).toString("base64url");
      this.cookie(reply, this.names.preSession, nonce, PRE_SESSION_MAX_SECONDS);
    }
    return this.csrf.token(preSessionBinding(nonce));
  }

  /** True when a sign-up or log-in POST carries the token of its pre-session cookie. */
  checkFormToken(req: FastifyRequest): boolean {
    const nonce = req.cookies[this.names.preSession];
    return this.csrf.check(req, nonce ? preSessionBinding(nonce) : undefined, formText(req.body, "csrf"));
  }

  /** True when a signed-in visitor's POST carries their session's token. */
  checkSessionToken(req: FastifyRequest, visitor: Visitor): boolean {
    return this.csrf.check(req, sessionBinding(visitor.session.id), formText(req.body, "csrf"));
  }
}

/** The pages a log-in may return to; anything else goes to the keys page (no open redirect). */
const RETURN_PATHS = new Set(["/account", "/account/usage"]);
export function safeNext(next: unknown): string | undefined {
  return typeof next === "string" && RETURN_PATHS.has(next) ? next : undefined;
}
