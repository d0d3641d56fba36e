-- Accounts and their API keys. Only an HMAC of a key is stored (auth/key-verification.ts).
-- Emails compare without case: Ann@ and ann@ are one account.
CREATE TABLE accounts (
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
CREATE INDEX ix_api_keys_account ON api_keys (account_id);
