// Issuing and verifying API keys, the same for every store. Only an HMAC-SHA256 of a key (with a
// server-side pepper) is stored; the raw key exists once, in the answer that creates it.
// Verification finds the key's row by its public id and compares hashes in constant time, so
// timing reveals nothing about the secret part; a revoked key is refused like an unknown one.
// A store supplies only where rows come from (its cache, its database) and how it notes a use.
import crypto from "node:crypto";
import { KEY_ID_LENGTH, SECRET_LENGTH, formatKey, keyIdAt, parseKey } from "../../contract/api-key-format";
import { type MaybePromise, andThen } from "../db/maybe-promise";
import type { KeySummary, VerifiedKey } from "./ports";
import { randomBase62 } from "./random-id";

/** A key's stored row, as verification reads it. */
export interface StoredKey {
  accountId: string;
  /** The account's plan id. */
  plan: string;
  /** HMAC-SHA256 of the raw key with the pepper. */
  hash: Buffer;
  revoked: boolean;
  /** Set once this process has matched the key against `hash`: SHA-256 of that raw key. */
  recognised?: { digest: string; key: VerifiedKey };
}

/** Where a store's key rows come from. */
export interface KeyRows {
  /** The pepper the stored hashes were made with. */
  readonly pepper: Buffer;
  /** The row this process holds in memory for a key id, if any (no database read). */
  cached(keyId: string): StoredKey | undefined;
  /** The row in the database, or undefined for an unknown id (a store may keep it in memory). */
  load(keyId: string): MaybePromise<StoredKey | undefined>;
  /** Told of every key that passes, to note its last use. */
  used(keyId: string): void;
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

/**
 * The account behind a raw key, or null for anything else (malformed, unknown, wrong secret,
 * revoked). A key this process verified before is recognised by a plain SHA-256 of the whole key
 * (a third of an HMAC's cost, kept in memory only): an equal digest means the very key that
 * passed every check. Anything else takes the full path, synchronously when the store answers
 * synchronously.
 */
export function verifyKey(rawKey: string, rows: KeyRows): MaybePromise<VerifiedKey | null> {
  const keyId = keyIdAt(rawKey);
  const cached = keyId === null ? undefined : rows.cached(keyId);
  if (cached?.recognised && !cached.revoked && sameDigest(sha256Bytes(rawKey), cached.recognised.digest)) {
    rows.used(cached.recognised.key.keyId);
    return cached.recognised.key;
  }
  const parsed = parseKey(rawKey);
  if (!parsed) return null;
  const row = cached && keyId === parsed.keyId ? cached : rows.load(parsed.keyId);
  return andThen(row, (r) => checkKey(rawKey, parsed.keyId, r, rows));
}

function checkKey(rawKey: string, keyId: string, row: StoredKey | undefined, rows: KeyRows): VerifiedKey | null {
  // Hash even when the id is unknown, so unknown and wrong keys cost the same time.
  const presented = keyHmac(rows.pepper, rawKey);
  const stored = row?.hash.length === presented.length ? row.hash : Buffer.alloc(presented.length);
  const equal = crypto.timingSafeEqual(presented, stored);
  if (!row || !equal || row.revoked) return null;
  const key: VerifiedKey = Object.freeze({ keyId, accountId: row.accountId, plan: row.plan });
  row.recognised = { digest: sha256Bytes(rawKey), key };
  rows.used(keyId);
  return key;
}

/** How often `last_used_at` is written for one key: often enough to be useful, rarely enough
 *  that a busy key doesn't turn every read into a database write. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Which uses of a key are due to be written: the first, then one per LAST_USED_RESOLUTION_MS. */
export class LastUseWrites {
  private readonly written = new Map<string, number>();

  /** True when this use should be written (and counts it as written). */
  due(keyId: string, nowMs: number): boolean {
    if (nowMs - (this.written.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return false;
    this.written.set(keyId, nowMs);
    return true;
  }
}
