-- Credits: the period total and one ledger row per charged call, written by one statement
-- (stores/postgres/credits.ts), so the ledger sums to the total at every moment. Rate limits
-- and the sign-up and log-in attempt counts, shared by every process.
CREATE TABLE credit_usage (
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
);
