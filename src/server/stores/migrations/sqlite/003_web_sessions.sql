-- The web account area: one password hash per account (accounts made by the admin command
-- have none until the operator sets one) and log-in sessions. A session row holds only a
-- SHA-256 of the session id, so a copy of the database cannot be used to log in; `reveal_*`
-- holds a just-created API key until its one display, sealed with the session id.
CREATE TABLE account_passwords (
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
CREATE INDEX ix_web_sessions_expiry ON web_sessions (expires_at);
