// The model and ports of accounts, API keys, log-in sessions and attempt counts: the types the
// service works with and what it needs from a store of them, whichever database holds them.
// The adapters (stores/sqlite/, one process; stores/postgres/, several) implement these and
// pass the same tests (test/server/stores/); the web pages, routes and admin command import
// only this module. Methods answer synchronously or with a promise (db/maybe-promise.ts).
import crypto from "node:crypto";
import type { MaybePromise } from "../db/maybe-promise";
import { planOf } from "./plans";

// ---- Accounts ----

export interface Account {
  id: string;
  email: string;
  plan: string;
  created_at: string;
}

/** Thrown by `create` and `createWithPassword` when the email (any case) has an account. */
export class EmailTakenError extends Error {
  constructor() {
    super("An account with this email already exists.");
    this.name = "EmailTakenError";
  }
}

/** Throws for a plan id that names no plan (auth/plans.ts). */
export function checkPlan(plan: string): void {
  planOf(plan);
}

export interface Accounts {
  /** A new account without a password; throws EmailTakenError when the email (any case) has one. */
  create(email: string, plan?: string): MaybePromise<Account>;
  /** A new account with its password, all or nothing; EmailTakenError when the email has one. */
  createWithPassword(email: string, passwordHash: string): MaybePromise<Account>;
  /** By email, compared without case. */
  findByEmail(email: string): MaybePromise<Account | undefined>;
  findById(accountId: string): MaybePromise<Account | undefined>;
  /** Moves an account to another plan (throws on an unknown plan); its keys answer with the new limits. */
  setPlan(accountId: string, plan: string): MaybePromise<void>;
  passwordHash(accountId: string): MaybePromise<string | undefined>;
  setPassword(accountId: string, passwordHash: string): MaybePromise<void>;
}

// ---- API keys ----

/** What is listed of a key (never the key itself). */
export interface KeySummary {
  key_id: string;
  name: string;
  environment: string;
  last_chars: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** What a verified key answers with: the account it belongs to and that account's plan. */
export interface VerifiedKey {
  keyId: string;
  accountId: string;
  /** The account's plan id (see auth/plans.ts). */
  plan: string;
}

/** Active (unrevoked) keys one account may hold: plenty for one key per workbook or
 *  integration, few enough that a leaked session cannot mint keys without end. */
export const MAX_ACTIVE_KEYS = 10;

/** Thrown by `createKey` when the account already holds MAX_ACTIVE_KEYS active keys. */
export class KeyLimitError extends Error {
  constructor(readonly limit = MAX_ACTIVE_KEYS) {
    super(`This account already has ${limit} active keys, the most allowed. Revoke one it no longer needs, then create the new key.`);
    this.name = "KeyLimitError";
  }
}

export interface ApiKeys {
  /**
   * Creates a key and returns the raw key, the only time it exists outside the caller's hands;
   * only its HMAC (with the pepper) is stored. Throws KeyLimitError at MAX_ACTIVE_KEYS active keys.
   */
  createKey(accountId: string, name: string, environment?: "live" | "test"): MaybePromise<{ raw: string; summary: KeySummary }>;
  listKeys(accountId: string): MaybePromise<KeySummary[]>;
  /** Revokes one of the account's keys; false when the account has no such active key. */
  revokeKey(accountId: string, keyId: string): MaybePromise<boolean>;
  /** The account behind a raw key, or null for anything else (malformed, unknown, revoked). */
  verify(rawKey: string): MaybePromise<VerifiedKey | null>;
}

// ---- Log-in sessions ----
// The session id (256 random bits) lives only in the visitor's cookie; a store keeps its
// SHA-256, so neither a copy of the database nor a log line can log anyone in. A session ends at
// the first of: log out, SESSION_IDLE_MS without a request, SESSION_MAX_MS after log-in.

export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/** A created key waits this long for its one display. */
export const REVEAL_MS = 5 * 60 * 1000;
/** last_seen_at is written at most this often per session. */
export const TOUCH_MS = 60 * 1000;

export interface WebSession {
  /** The raw id from the cookie; CSRF tokens and key reveals are derived from it. */
  id: string;
  accountId: string;
  expiresAt: string;
}

/** What is stored of a session id: its SHA-256. */
export const sessionDigest = (id: string) => crypto.hash("sha256", id, "buffer") as Buffer;

export interface Sessions {
  /** A fresh session (a new id at every log-in, so a planted id is never promoted). */
  create(accountId: string): MaybePromise<WebSession>;
  /** The live session behind a cookie value, or undefined (an expired one is deleted). */
  find(id: string | undefined): MaybePromise<WebSession | undefined>;
  end(id: string): MaybePromise<void>;
  /** Logs the account out everywhere; how many sessions ended. */
  endAll(accountId: string): MaybePromise<number>;
  /** Keeps a just-created key for its one display, sealed with the session id. */
  holdReveal(session: WebSession, keyId: string, rawKey: string): MaybePromise<void>;
  /** The held key, once: reading it clears it. */
  takeReveal(session: WebSession): MaybePromise<{ keyId: string; rawKey: string } | undefined>;
}

// ---- Sign-up and log-in attempt counts ----

/** Attempts per key (an IP address, an email) in fixed windows: the sign-up and log-in limits. */
export interface AttemptCounter {
  readonly limit: number;
  readonly windowMs: number;
  /** Seconds until the key may try again; 0 when it may try now. */
  retryAfter(key: string): MaybePromise<number>;
  record(key: string): MaybePromise<void>;
  reset(key: string): MaybePromise<void>;
}

const minutes = (m: number) => m * 60_000;

/** The limits of the sign-up and log-in forms: attempts per window. */
export const AUTH_LIMITS = {
  /** Sign-ups from one IP address: 10 an hour. */
  signUpPerIp: { limit: 10, windowMs: minutes(60) },
  /** Sign-up attempts for one email: 5 an hour. */
  signUpPerEmail: { limit: 5, windowMs: minutes(60) },
  /** Log-in attempts from one IP address: 30 in 15 minutes. */
  logInPerIp: { limit: 30, windowMs: minutes(15) },
  /** Failed log-ins for one email: 10 in 15 minutes (a success clears them). */
  logInFailuresPerEmail: { limit: 10, windowMs: minutes(15) },
} as const;

/** The counters of the sign-up and log-in forms, one per entry of AUTH_LIMITS. */
export type AuthLimits = Record<keyof typeof AUTH_LIMITS, AttemptCounter>;

/** Everything the account pages and the API's key check need, from one store. */
export interface AccountPorts {
  accounts: Accounts;
  keys: ApiKeys;
  sessions: Sessions;
  authLimits: AuthLimits;
}
