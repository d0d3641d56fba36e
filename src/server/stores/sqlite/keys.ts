// API keys in the SQLite accounts database, for one service process. Issuing and verifying are
// auth/key-verification.ts's; this adapter reads and writes the rows, and keeps verified rows
// in the connection's key cache (key-cache.ts) so the API's hot path reads nothing for them.
import type Database from "better-sqlite3";
import { type KeyRows, LastUseWrites, type StoredKey, keyHmac, newKey, verifyKey } from "../../auth/key-verification";
import { type ApiKeys, KeyLimitError, type KeySummary, MAX_ACTIVE_KEYS, type VerifiedKey } from "../../auth/ports";
import { checkStorable } from "../../auth/text-values";
import { type KeyCache, keyCacheOf } from "./key-cache";

export class KeyStore implements ApiKeys {
  private readonly lastUse = new LastUseWrites();
  private readonly stmts;
  private readonly cache: KeyCache;
  private readonly now: () => Date;
  private readonly nowMs: () => number;
  private readonly rows: KeyRows;

  constructor(
    private readonly db: Database.Database,
    pepper: Buffer,
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
    const cache = this.cache;
    const keyById = this.stmts.keyById;
    this.rows = {
      pepper,
      cached: (keyId) => cache.get(keyId),
      load: (keyId) => {
        const r = keyById.get(keyId) as { account_id: string; hash: Buffer; revoked_at: string | null; plan: string } | undefined;
        if (!r) return undefined;
        const row: StoredKey = { accountId: r.account_id, plan: r.plan, hash: r.hash, revoked: r.revoked_at !== null };
        cache.set(keyId, row);
        return row;
      },
      used: (keyId) => this.touch(keyId),
    };
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
    this.db
      .prepare(
        `INSERT INTO api_keys (key_id, account_id, name, environment, hash, last_chars, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(summary.key_id, accountId, name, environment, keyHmac(this.rows.pepper, raw), summary.last_chars, summary.created_at);
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

  /** The account behind a raw key, or null for anything else (malformed, unknown, revoked); always synchronous here. */
  verify(rawKey: string): VerifiedKey | null {
    return verifyKey(rawKey, this.rows) as VerifiedKey | null;
  }

  private touch(keyId: string): void {
    // Milliseconds first: a Date is made only when last_used_at is written (once a minute).
    const nowMs = this.nowMs();
    if (this.lastUse.due(keyId, nowMs)) this.stmts.touch.run(new Date(nowMs).toISOString(), keyId);
  }
}
