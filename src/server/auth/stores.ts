// What the service needs from its store of accounts, API keys, log-in sessions and attempt
// counts, whichever database holds them: SQLite in one process (account-store.ts, key-store.ts,
// sessions.ts, attempt-limiter.ts) or PostgreSQL shared by several (src/server/postgres/).
// Methods answer synchronously or with a promise (db/maybe-promise.ts); both implementations
// pass the same tests (test/server/stores/).
import type { MaybePromise } from "../db/maybe-promise";
import type { Account } from "./account-store";
import type { VerifiedKey } from "./key-cache";
import type { KeySummary } from "./key-store";
import type { WebSession } from "./sessions";

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

export interface ApiKeys {
  readonly accounts: Accounts;
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

export interface Sessions {
  /** A fresh session (a new id at every log-in). */
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

/** Attempts per key (an IP address, an email) in fixed windows: the sign-up and log-in limits. */
export interface AttemptCounter {
  readonly limit: number;
  readonly windowMs: number;
  /** Seconds until the key may try again; 0 when it may try now. */
  retryAfter(key: string): MaybePromise<number>;
  record(key: string): MaybePromise<void>;
  reset(key: string): MaybePromise<void>;
}

/** The limits of the sign-up and log-in forms. */
export interface AuthLimits {
  /** Sign-ups from one IP address. */
  signUpPerIp: AttemptCounter;
  /** Sign-up attempts for one email. */
  signUpPerEmail: AttemptCounter;
  /** Log-in attempts from one IP address. */
  logInPerIp: AttemptCounter;
  /** Failed log-ins for one email (a success clears them). */
  logInFailuresPerEmail: AttemptCounter;
}
