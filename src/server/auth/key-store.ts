// Issuing and verifying API keys. Only an HMAC-SHA256 of a key (with a server-side pepper) is
// stored; the raw key exists once, in the answer to `createKey`. Verification looks the key up
// by its public id and compares hashes in constant time, so timing reveals nothing about the
// secret part.
import crypto from "node:crypto";
import { checkStorable } from "./text-values";
import type Database from "better-sqlite3";
import { KEY_ID_LENGTH, SECRET_LENGTH, formatKey, keyIdAt, parseKey } from "../../contract/api-key-format";
import { AccountStore } from "./account-store";
import { type KeyCache, type KeyRow, type VerifiedKey, keyCacheOf } from "./key-cache";
import { randomBase62 } from "./random-id";
import type { ApiKeys } from "./stores";

export interface KeySummary {
  key_id: string;
  name: string;
  environment: string;
  last_chars: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** How often `last_used_at` is written for one key: often enough to be useful, rarely enough
 *  that a busy key doesn't turn every read into a database write. */
const LAST_USED_RESOLUTION_MS = 60_000;

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

/**
 * SHA-256 of a key as a 32-character string, one character per byte. Why a string: a Buffer
 * per request (an ArrayBuffer allocated, then swept) cost more than the hash itself under load.
 */
export function sha256Bytes(rawKey: string): string {
  return crypto.hash("sha256", rawKey, "binary"); // "binary" is Node's name for latin1
}

/** Constant-time equality of two digests from sha256Bytes: every character is compared. */
export function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** What is stored of a key: its HMAC-SHA256 with the server's pepper. */
export function keyHmac(pepper: Buffer, rawKey: string): Buffer {
  return crypto.createHmac("sha256", pepper).update(rawKey, "utf8").digest();
}

/** A new raw key for an account and what is listed of it (the raw key itself is never stored). */
export function newKey(name: string, environment: "live" | "test", now: Date): { raw: string; summary: KeySummary } {
  const keyId = randomBase62(KEY_ID_LENGTH);
  const raw = formatKey(environment, keyId, randomBase62(SECRET_LENGTH));
  const summary: KeySummary = {
    key_id: keyId,
    name,
    environment,
    last_chars: raw.slice(-4),
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  return { raw, summary };
}

export class KeyStore implements ApiKeys {
  /** The accounts these keys belong to (the same table for the API, the account pages and the admin command). */
  readonly accounts: AccountStore;
  private readonly lastUsedWritten = new Map<string, number>();
  private readonly stmts;
  private readonly cache: KeyCache;
  private readonly now: () => Date;
  private readonly nowMs: () => number;

  constructor(
    private readonly db: Database.Database,
    private readonly pepper: Buffer,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
    this.nowMs = now ? () => now().getTime() : Date.now;
    this.stmts = {
      keyById: db.prepare(
        `SELECT k.account_id, k.hash, k.revoked_at, a.plan FROM api_keys k
         JOIN accounts a ON a.id = k.account_id WHERE k.key_id = ?`,
      ),
      touch: db.prepare("UPDATE api_keys SET last_used_at = ? WHERE key_id = ?"),
    };
    this.cache = keyCacheOf(db);
    this.accounts = new AccountStore(db, this.now);
  }

  hash(rawKey: string): Buffer {
    return keyHmac(this.pepper, rawKey);
  }

  /** Creates a key and returns the raw key: the only time it exists outside the caller's hands.
   *  Throws KeyLimitError when the account already holds MAX_ACTIVE_KEYS active keys. */
  createKey(accountId: string, name: string, environment: "live" | "test" = "live") {
    checkStorable(name, "A key name");
    // Count and insert in one immediate transaction, so two concurrent creations (the web and
    // the admin command) cannot both pass the check.
    return this.db
      .transaction(() => {
        const active = this.db
          .prepare("SELECT count(*) FROM api_keys WHERE account_id = ? AND revoked_at IS NULL")
          .pluck()
          .get(accountId) as number;
        if (active >= MAX_ACTIVE_KEYS) throw new KeyLimitError();
        return this.insertKey(accountId, name, environment);
      })
      .immediate();
  }

  private insertKey(accountId: string, name: string, environment: "live" | "test") {
    const { raw, summary } = newKey(name, environment, this.now());
    const keyId = summary.key_id;
    this.db
      .prepare(
        `INSERT INTO api_keys (key_id, account_id, name, environment, hash, last_chars, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(keyId, accountId, name, environment, this.hash(raw), summary.last_chars, summary.created_at);
    return { raw, summary };
  }

  listKeys(accountId: string): KeySummary[] {
    return this.db
      .prepare(
        `SELECT key_id, name, environment, last_chars, created_at, last_used_at, revoked_at
         FROM api_keys WHERE account_id = ? ORDER BY created_at, key_id`,
      )
      .all(accountId) as KeySummary[];
  }

  /** Revokes one of the account's keys; false when the account has no such key. */
  revokeKey(accountId: string, keyId: string): boolean {
    const res = this.db
      .prepare("UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND account_id = ? AND revoked_at IS NULL")
      .run(this.now().toISOString(), keyId, accountId);
    this.cache.delete(keyId);
    return res.changes === 1;
  }

  /** The account behind a raw key, or null for anything else (malformed, unknown, revoked). */
  verify(rawKey: string): VerifiedKey | null {
    const seen = this.recognise(rawKey);
    if (seen) return seen;
    const parsed = parseKey(rawKey);
    if (!parsed) return null;
    const row = this.keyRow(parsed.keyId);
    // Hash even when the id is unknown, so unknown and wrong keys cost the same time.
    const presented = this.hash(rawKey);
    const stored = row?.hash ?? Buffer.alloc(presented.length);
    const equal = crypto.timingSafeEqual(presented, stored);
    if (!row || !equal || row.revoked_at) return null;
    const key: VerifiedKey = Object.freeze({ keyId: parsed.keyId, accountId: row.account_id, plan: row.plan });
    row.recognised = { digest: sha256Bytes(rawKey), key };
    this.touch(parsed.keyId);
    return key;
  }

  /**
   * A key this process has verified before, recognised by a plain SHA-256 of the whole key (a
   * third of an HMAC's cost, kept in memory only). An equal digest means the very key that
   * passed every check, so its shape and checksum are not checked again; anything else
   * (including ids not in the cache) takes the full path.
   */
  private recognise(rawKey: string): VerifiedKey | null {
    const keyId = keyIdAt(rawKey);
    const row = keyId === null ? undefined : this.cache.get(keyId);
    if (!row?.recognised || row.revoked_at) return null;
    if (!sameDigest(sha256Bytes(rawKey), row.recognised.digest)) return null;
    this.touch(row.recognised.key.keyId);
    return row.recognised.key;
  }

  private keyRow(keyId: string): KeyRow | undefined {
    let row = this.cache.get(keyId);
    if (!row) {
      row = this.stmts.keyById.get(keyId) as KeyRow | undefined;
      if (row) this.cache.set(keyId, row);
    }
    return row;
  }

  private touch(keyId: string): void {
    // Milliseconds first: a Date is made only when last_used_at is written (once a minute).
    const nowMs = this.nowMs();
    const last = this.lastUsedWritten.get(keyId) ?? 0;
    if (nowMs - last < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWritten.set(keyId, nowMs);
    this.stmts.touch.run(new Date(nowMs).toISOString(), keyId);
  }
}
