// API keys in PostgreSQL, shared by every service process. Issuing and verifying are
// auth/key-verification.ts's, as for the SQLite adapter; this adapter reads and writes the rows.
//
// A key this process has verified is kept in memory, so the API's hot path reads nothing from
// the database for it. A revocation or a plan change made anywhere writes a key_events row;
// every process reads new events every `pollMs` (1 s by default) and drops what they name. So a
// key revoked in one process is refused there at once and by every other process within one
// poll interval of the revocation's commit (plus a query's time).
//
// Two orders of events make that hold. An event's id is taken before its transaction commits,
// so a poll cannot ask for "ids after the last one seen": it asks instead for every event written
// by a transaction that the previous poll could not yet see (transaction id at or above that
// poll's snapshot xmin) and skips the ones already handled. And a key read from the database
// while a poll dropped keys is answered but not kept, since its row may predate what was dropped.
import type pg from "pg";
import { type KeyRows, LastUseWrites, type StoredKey, keyHmac, newKey, verifyKey } from "../../auth/key-verification";
import { type ApiKeys, KeyLimitError, type KeySummary, MAX_ACTIVE_KEYS, type VerifiedKey } from "../../auth/ports";
import { checkStorable, hasNul } from "../../auth/text-values";
import type { MaybePromise } from "../../db/maybe-promise";
import { inTransaction } from "./transaction";

/** Verified keys kept in memory; far more than one deployment's live keys. */
const KEY_CACHE_SIZE = 10_000;

export class PgKeys implements ApiKeys {
  private readonly cache = new Map<string, StoredKey>();
  private readonly lastUse = new LastUseWrites();
  private readonly rows: KeyRows;
  /** The previous poll's snapshot xmin: every transaction it could not see has an id at or above it. */
  private pollXmin = "0";
  /** The events at or above pollXmin already handled, so the next poll skips them. */
  private handled = new Set<string>();
  /** Counts drops from the cache, so a lookup that raced one is not kept. */
  private drops = 0;
  private poller: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly pepper: Buffer,
    private readonly now: () => Date = () => new Date(),
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.rows = {
      pepper,
      cached: (keyId) => this.cache.get(keyId),
      load: (keyId) => this.load(keyId),
      used: (keyId) => this.touch(keyId),
    };
  }

  /** Starts polling for other processes' revocations and plan changes, every `pollMs`. */
  async start(pollMs = 1000): Promise<void> {
    // Events this snapshot sees came before anything this process caches; the rest have
    // transaction ids at or above its xmin.
    const { rows } = await this.pool.query<{ xmin: string }>("SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin");
    this.pollXmin = rows[0].xmin;
    this.poller = setInterval(() => void this.poll(), pollMs);
    this.poller.unref();
  }

  stop(): void {
    clearInterval(this.poller);
  }

  /** Reads the events committed since the last poll and drops the keys they name. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      // One statement, so the xmin and the events come from the same snapshot.
      const { rows } = await this.pool.query<{ xmin: string; id: string | null; key_id: string | null; account_id: string | null }>(
        `WITH s AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
         SELECT s.xmin::text, e.id::text, e.key_id, e.account_id FROM s LEFT JOIN key_events e ON e.xid >= $1::xid8 ORDER BY e.id`,
        [this.pollXmin],
      );
      const handled = new Set<string>();
      for (const e of rows) {
        if (e.id === null) continue;
        handled.add(e.id);
        if (this.handled.has(e.id)) continue;
        if (e.key_id) this.dropKey(e.key_id);
        else this.dropAccount(e.account_id!);
      }
      this.handled = handled;
      this.pollXmin = rows[0].xmin;
    } catch (err) {
      this.onError(err);
    } finally {
      this.polling = false;
    }
  }

  createKey(accountId: string, name: string, environment: "live" | "test" = "live"): Promise<{ raw: string; summary: KeySummary }> {
    try {
      checkStorable(name, "A key name");
    } catch (err) {
      return Promise.reject(err);
    }
    return inTransaction(this.pool, async (client) => {
      // The account row's lock makes count-and-insert one step across processes.
      await client.query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE", [accountId]);
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL",
        [accountId],
      );
      if (rows[0].n >= MAX_ACTIVE_KEYS) throw new KeyLimitError();
      const created = newKey(name, environment, this.now());
      const s = created.summary;
      await client.query(
        `INSERT INTO api_keys (key_id, account_id, name, environment, hash, last_chars, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [s.key_id, accountId, name, environment, keyHmac(this.pepper, created.raw), s.last_chars, s.created_at],
      );
      return created;
    });
  }

  async listKeys(accountId: string): Promise<KeySummary[]> {
    if (hasNul(accountId)) return [];
    const { rows } = await this.pool.query<KeySummary>(
      `SELECT key_id, name, environment, last_chars, created_at, last_used_at, revoked_at
       FROM api_keys WHERE account_id = $1 ORDER BY created_at, key_id`,
      [accountId],
    );
    return rows;
  }

  async revokeKey(accountId: string, keyId: string): Promise<boolean> {
    if (hasNul(keyId) || hasNul(accountId)) return false; // no key has one (auth/text-values.ts)
    const { rowCount } = await this.pool.query(
      `WITH revoked AS (
         UPDATE api_keys SET revoked_at = $3 WHERE key_id = $1 AND account_id = $2 AND revoked_at IS NULL RETURNING key_id, account_id
       )
       INSERT INTO key_events (key_id, account_id) SELECT key_id, account_id FROM revoked`,
      [keyId, accountId, this.now().toISOString()],
    );
    this.dropKey(keyId);
    return rowCount === 1;
  }

  verify(rawKey: string): MaybePromise<VerifiedKey | null> {
    return verifyKey(rawKey, this.rows);
  }

  /** A key's row from the database, kept unless a poll dropped keys meanwhile (its row may predate what was dropped). */
  private async load(keyId: string): Promise<StoredKey | undefined> {
    const drops = this.drops;
    const { rows } = await this.pool.query<{ account_id: string; plan: string; hash: Buffer; revoked_at: string | null }>(
      `SELECT k.account_id, a.plan, k.hash, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_id = $1`,
      [keyId],
    );
    const r = rows[0];
    if (!r) return undefined;
    const row: StoredKey = { accountId: r.account_id, plan: r.plan, hash: r.hash, revoked: r.revoked_at !== null };
    if (this.cache.size >= KEY_CACHE_SIZE) this.cache.clear();
    if (this.drops === drops) this.cache.set(keyId, row);
    return row;
  }

  private dropKey(keyId: string): void {
    this.drops++;
    this.cache.delete(keyId);
  }

  /** Forgets the cached keys of an account (its plan changed). */
  dropAccount(accountId: string): void {
    this.drops++;
    for (const [keyId, row] of this.cache) if (row.accountId === accountId) this.cache.delete(keyId);
  }

  private touch(keyId: string): void {
    const nowMs = this.now().getTime();
    if (!this.lastUse.due(keyId, nowMs)) return;
    this.pool.query("UPDATE api_keys SET last_used_at = $1 WHERE key_id = $2", [new Date(nowMs).toISOString(), keyId]).catch(this.onError);
  }
}
