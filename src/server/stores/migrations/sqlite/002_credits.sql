-- Credits: one row per account and monthly period, and one ledger row per metered call.
-- They are written in the same transaction, so the ledger always sums to `used`.
CREATE TABLE credit_usage (
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
CREATE INDEX ix_credit_ledger_account ON credit_ledger (account_id, id);
