// Log-in sessions in the SQLite accounts database, by the rules of auth/ports.ts: only a SHA-256
// of a session id is stored, and a session ends at log-out, when idle too long or too old.
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import { openSealed, seal } from "../../auth/key-reveal";
import { REVEAL_MS, SESSION_IDLE_MS, SESSION_MAX_MS, type Sessions, TOUCH_MS, type WebSession, sessionDigest } from "../../auth/ports";

interface Row {
  account_id: string;
  last_seen_at: string;
  expires_at: string;
}

const digest = sessionDigest;

export class SessionStore implements Sessions {
  private readonly stmts;

  constructor(
    db: Database.Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO web_sessions (id_hash, account_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)`),
      get: db.prepare("SELECT account_id, last_seen_at, expires_at FROM web_sessions WHERE id_hash = ?"),
      touch: db.prepare("UPDATE web_sessions SET last_seen_at = ? WHERE id_hash = ?"),
      delete: db.prepare("DELETE FROM web_sessions WHERE id_hash = ?"),
      deleteAll: db.prepare("DELETE FROM web_sessions WHERE account_id = ?"),
      prune: db.prepare("DELETE FROM web_sessions WHERE expires_at <= ? OR last_seen_at <= ?"),
      setReveal: db.prepare("UPDATE web_sessions SET reveal_key_id = ?, reveal_sealed = ?, reveal_expires_at = ? WHERE id_hash = ?"),
      getReveal: db.prepare(
        `SELECT reveal_key_id AS keyId, reveal_sealed AS sealed, reveal_expires_at AS expiresAt
         FROM web_sessions WHERE id_hash = ? AND reveal_sealed IS NOT NULL`,
      ),
      clearReveal: db.prepare(
        "UPDATE web_sessions SET reveal_key_id = NULL, reveal_sealed = NULL, reveal_expires_at = NULL WHERE id_hash = ?",
      ),
    };
    // Read and clear together, so two page loads at once cannot both show the key.
    this.takeRow = db.transaction((key: Buffer) => {
      const row = this.stmts.getReveal.get(key) as { keyId: string; sealed: Buffer; expiresAt: string } | undefined;
      if (row) this.stmts.clearReveal.run(key);
      return row;
    });
  }

  private readonly takeRow: (key: Buffer) => { keyId: string; sealed: Buffer; expiresAt: string } | undefined;

  /** A fresh session (a new id at every log-in, so a planted id is never promoted). */
  create(accountId: string): WebSession {
    const now = this.now();
    const id = crypto.randomBytes(32).toString("base64url");
    const expiresAt = new Date(now.getTime() + SESSION_MAX_MS).toISOString();
    this.stmts.prune.run(now.toISOString(), new Date(now.getTime() - SESSION_IDLE_MS).toISOString());
    this.stmts.insert.run(digest(id), accountId, now.toISOString(), now.toISOString(), expiresAt);
    return { id, accountId, expiresAt };
  }

  /** The live session behind a cookie value, or undefined (an expired one is deleted). */
  find(id: string | undefined): WebSession | undefined {
    if (!id || id.length > 100) return undefined;
    const key = digest(id);
    const row = this.stmts.get.get(key) as Row | undefined;
    if (!row) return undefined;
    const now = this.now().getTime();
    const lastSeen = Date.parse(row.last_seen_at);
    if (Date.parse(row.expires_at) <= now || lastSeen + SESSION_IDLE_MS <= now) {
      this.stmts.delete.run(key);
      return undefined;
    }
    if (now - lastSeen >= TOUCH_MS) this.stmts.touch.run(new Date(now).toISOString(), key);
    return { id, accountId: row.account_id, expiresAt: row.expires_at };
  }

  end(id: string): void {
    this.stmts.delete.run(digest(id));
  }

  /** Logs the account out everywhere (after its password is set by the operator). */
  endAll(accountId: string): number {
    return this.stmts.deleteAll.run(accountId).changes;
  }

  /** Keeps a just-created key for its one display, sealed with the session id. */
  holdReveal(session: WebSession, keyId: string, rawKey: string): void {
    const expires = new Date(this.now().getTime() + REVEAL_MS).toISOString();
    this.stmts.setReveal.run(keyId, seal(session.id, keyId, rawKey), expires, digest(session.id));
  }

  /** The held key, once: it is cleared in the transaction that reads it. */
  takeReveal(session: WebSession): { keyId: string; rawKey: string } | undefined {
    const row = this.takeRow(digest(session.id));
    if (!row || Date.parse(row.expiresAt) <= this.now().getTime()) return undefined;
    const rawKey = openSealed(session.id, row.keyId, row.sealed);
    return rawKey === undefined ? undefined : { keyId: row.keyId, rawKey };
  }
}
