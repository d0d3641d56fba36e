-- Accounts, API keys and log-in sessions, as in the SQLite accounts database. Emails are
-- unique without case. key_events records revocations and plan changes, which every process
-- polls to drop what it has cached (stores/postgres/keys.ts).
CREATE TABLE accounts (
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
CREATE INDEX web_sessions_expiry ON web_sessions (expires_at);
