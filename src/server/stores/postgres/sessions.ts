// Log-in sessions in PostgreSQL, by the rules of auth/ports.ts (only a SHA-256 of a session id is
// stored; a session ends at log-out, when idle too long or too old; a new key waits sealed for
// its one display), so a visitor stays logged in whichever process answers.
import crypto from "node:crypto";
import type pg from "pg";
import { openSealed, seal } from "../../auth/key-reveal";
import { REVEAL_MS, SESSION_IDLE_MS, SESSION_MAX_MS, type Sessions, TOUCH_MS, type WebSession, sessionDigest } from "../../auth/ports";

export class PgSessions implements Sessions {
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(accountId: string): Promise<WebSession> {
    const now = this.now();
    const id = crypto.randomBytes(32).toString("base64url");
    const expiresAt = new Date(now.getTime() + SESSION_MAX_MS).toISOString();
    await this.pool.query("DELETE FROM web_sessions WHERE expires_at <= $1 OR last_seen_at <= $2", [
      now.toISOString(),
      new Date(now.getTime() - SESSION_IDLE_MS).toISOString(),
    ]);
    await this.pool.query(
      "INSERT INTO web_sessions (id_hash, account_id, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $3, $4)",
      [sessionDigest(id), accountId, now.toISOString(), expiresAt],
    );
    return { id, accountId, expiresAt };
  }

  async find(id: string | undefined): Promise<WebSession | undefined> {
    if (!id || id.length > 100) return undefined;
    const key = sessionDigest(id);
    const { rows } = await this.pool.query<{ account_id: string; last_seen_at: string; expires_at: string }>(
      "SELECT account_id, last_seen_at, expires_at FROM web_sessions WHERE id_hash = $1",
      [key],
    );
    const row = rows[0];
    if (!row) return undefined;
    const now = this.now().getTime();
    const lastSeen = Date.parse(row.last_seen_at);
    if (Date.parse(row.expires_at) <= now || lastSeen + SESSION_IDLE_MS <= now) {
      await this.pool.query("DELETE FROM web_sessions WHERE id_hash = $1", [key]);
      return undefined;
    }
    if (now - lastSeen >= TOUCH_MS) {
      await this.pool.query("UPDATE web_sessions SET last_seen_at = $1 WHERE id_hash = $2", [new Date(now).toISOString(), key]);
    }
    return { id, accountId: row.account_id, expiresAt: row.expires_at };
  }

  async end(id: string): Promise<void> {
    await this.pool.query("DELETE FROM web_sessions WHERE id_hash = $1", [sessionDigest(id)]);
  }

  async endAll(accountId: string): Promise<number> {
    return (await this.pool.query("DELETE FROM web_sessions WHERE account_id = $1", [accountId])).rowCount ?? 0;
  }

  async holdReveal(session: WebSession, keyId: string, rawKey: string): Promise<void> {
    const expires = new Date(this.now().getTime() + REVEAL_MS).toISOString();
    await this.pool.query("UPDATE web_sessions SET reveal_key_id = $1, reveal_sealed = $2, reveal_expires_at = $3 WHERE id_hash = $4", [
      keyId,
      seal(session.id, keyId, rawKey),
      expires,
      sessionDigest(session.id),
    ]);
  }

  async takeReveal(session: WebSession): Promise<{ keyId: string; rawKey: string } | undefined> {
    // Read and clear in one statement, so two page loads at once cannot both show the key.
    const { rows } = await this.pool.query<{ key_id: string; sealed: Buffer; expires_at: string }>(
      `UPDATE web_sessions s SET reveal_key_id = NULL, reveal_sealed = NULL, reveal_expires_at = NULL
       FROM (SELECT id_hash, reveal_key_id, reveal_sealed, reveal_expires_at FROM web_sessions
             WHERE id_hash = $1 AND reveal_sealed IS NOT NULL FOR UPDATE) old
       WHERE s.id_hash = old.id_hash
       RETURNING old.reveal_key_id AS key_id, old.reveal_sealed AS sealed, old.reveal_expires_at AS expires_at`,
      [sessionDigest(session.id)],
    );
    const row = rows[0];
    if (!row || Date.parse(row.expires_at) <= this.now().getTime()) return undefined;
    const rawKey = openSealed(session.id, row.key_id, row.sealed);
    return rawKey === undefined ? undefined : { keyId: row.key_id, rawKey };
  }
}
