// The PostgreSQL schema, as ordered migrations. Each runs once, in a transaction, recorded in
// schema_migrations; processes that start together take an advisory lock, so one of them
// migrates and the others find the work done. A migration is never edited once released: a
// change is a new one at the end.
import type pg from "pg";
import { inTransaction } from "./transaction";

/** Any fixed number: the advisory lock every process of this service takes to migrate. */
const MIGRATION_LOCK = 4_815_162_342;

export const MIGRATIONS: string[] = [
  // Accounts and API keys, as in the SQLite accounts database. Emails are unique without case.
  // key_events records revocations and plan changes, which every process polls to drop what it
  // has cached (postgres/keys.ts).
  `CREATE TABLE accounts (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL,
     plan TEXT NOT NULL DEFAULT 'explorer',
     created_at TEXT NOT NULL
   );
   CREATE UNIQUE INDEX accounts_email ON accounts (lower(email));
   CREATE TABLE api_keys (
     key_id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     name TEXT NOT NULL,
     environment TEXT NOT NULL,
     hash BYTEA NOT NULL,
     last_chars TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_used_at TEXT,
     revoked_at TEXT
   );
   CREATE INDEX api_keys_account ON api_keys (account_id);
   CREATE TABLE key_events (
     id BIGSERIAL PRIMARY KEY,
     key_id TEXT,
     account_id TEXT NOT NULL,
     at TIMESTAMPTZ NOT NULL DEFAULT now()
   );
   CREATE TABLE account_passwords (
     account_id TEXT PRIMARY KEY REFERENCES accounts(id),
     hash TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE web_sessions (
     id_hash BYTEA PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     created_at TEXT NOT NULL,
     last_seen_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     reveal_key_id TEXT,
     reveal_sealed BYTEA,
     reveal_expires_at TEXT
   );
   CREATE INDEX web_sessions_account ON web_sessions (account_id);
   CREATE INDEX web_sessions_expiry ON web_sessions (expires_at);`,
  // Credits: the period's total and one ledger row per charged call, written by one statement
  // (postgres/credits.ts), so the ledger sums to the total at every moment. Rate limits and the
  // sign-up and log-in attempt counts, shared by every process.
  `CREATE TABLE credit_usage (
     account_id TEXT NOT NULL REFERENCES accounts(id),
     period TEXT NOT NULL,
     used INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (account_id, period)
   );
   CREATE TABLE credit_ledger (
     id BIGSERIAL PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     period TEXT NOT NULL,
     key_id TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     cost INTEGER NOT NULL,
     at TEXT NOT NULL,
     request_id TEXT NOT NULL
   );
   CREATE INDEX credit_ledger_account ON credit_ledger (account_id, id);
   CREATE TABLE rate_buckets (
     key_id TEXT PRIMARY KEY,
     tokens DOUBLE PRECISION NOT NULL,
     at_ms BIGINT NOT NULL,
     allowed BOOLEAN NOT NULL
   );
   CREATE TABLE attempt_windows (
     counter TEXT NOT NULL,
     key TEXT NOT NULL,
     count INTEGER NOT NULL,
     reset_at_ms BIGINT NOT NULL,
     PRIMARY KEY (counter, key)
   );`,
  // The transaction that wrote each key event: an event's id is taken when its statement runs,
  // not when it commits, so polling by id could pass over an event that commits late; polling by
  // transaction id cannot (postgres/keys.ts).
  `ALTER TABLE key_events ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
   CREATE INDEX key_events_xid ON key_events (xid);`,
];

/** Brings the database's schema up to date; safe to run from several processes at once. */
export function migrate(pool: pg.Pool): Promise<void> {
  return inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    );
    const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations");
    const applied = new Set(rows.map((r) => r.version));
    for (let v = 1; v <= MIGRATIONS.length; v++) {
      if (applied.has(v)) continue;
      await client.query(MIGRATIONS[v - 1]);
      await client.query("INSERT INTO schema_migrations (version) VALUES ($1)", [v]);
    }
  });
}
