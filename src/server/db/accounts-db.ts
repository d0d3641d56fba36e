// The accounts database: accounts, API keys and credits. It is the service's
// only mutable state, kept apart from the immutable snapshot file.
import Database from "better-sqlite3";

const MIGRATIONS = [
  `CREATE TABLE accounts (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL UNIQUE COLLATE NOCASE,
     plan TEXT NOT NULL DEFAULT 'explorer',
     created_at TEXT NOT NULL
   );
   CREATE TABLE api_keys (
     key_id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     name TEXT NOT NULL,
     environment TEXT NOT NULL,
     hash BLOB NOT NULL,
     last_chars TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_used_at TEXT,
     revoked_at TEXT
   );
   CREATE INDEX ix_api_keys_account ON api_keys (account_id);`,
  // Credits: one row per account and monthly period, and one ledger row per metered call.
  // They are written in the same transaction, so the ledger always sums to `used`.
  `CREATE TABLE credit_usage (
     account_id TEXT NOT NULL REFERENCES accounts(id),
     period TEXT NOT NULL,
     used INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (account_id, period)
   ) WITHOUT ROWID;
   CREATE TABLE credit_ledger (
     id INTEGER PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     period TEXT NOT NULL,
     key_id TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     cost INTEGER NOT NULL,
     at TEXT NOT NULL,
     request_id TEXT NOT NULL
   );
   CREATE INDEX ix_credit_ledger_account ON credit_ledger (account_id, id);`,
  // The web account area: one password hash per account (accounts made by the admin command
  // have none until the operator sets one) and log-in sessions. A session row holds only a
  // SHA-256 of the session id, so a copy of the database cannot be used to log in; `reveal_*`
  // holds a just-created API key until its one display, sealed with the session id.
  `CREATE TABLE account_passwords (
     account_id TEXT PRIMARY KEY REFERENCES accounts(id),
     hash TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE web_sessions (
     id_hash BLOB PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     created_at TEXT NOT NULL,
     last_seen_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     reveal_key_id TEXT,
     reveal_sealed BLOB,
     reveal_expires_at TEXT
   ) WITHOUT ROWID;
   CREATE INDEX ix_web_sessions_account ON web_sessions (account_id);
   CREATE INDEX ix_web_sessions_expiry ON web_sessions (expires_at);`,
];

export function openAccountsDb(path: string): Database.Database {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  const version = db.pragma("user_version", { simple: true }) as number;
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return db;
}
