// Passwords of accounts, beside the accounts the API keys belong to. Accounts themselves are
// made by KeyStore.createAccount, so the admin command and the web share one account table.
import type Database from "better-sqlite3";
import type { Account, KeyStore } from "../auth/key-store";

export class EmailTakenError extends Error {
  constructor() {
    super("An account with this email already exists.");
  }
}

export class CredentialStore {
  private readonly stmts;

  constructor(
    private readonly db: Database.Database,
    private readonly keys: KeyStore,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.stmts = {
      hash: db.prepare("SELECT hash FROM account_passwords WHERE account_id = ?").pluck(),
      account: db.prepare("SELECT id, email, plan, created_at FROM accounts WHERE id = ?"),
      set: db.prepare(
        `INSERT INTO account_passwords (account_id, hash, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (account_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`,
      ),
    };
  }

  /** A new Explorer account with its password, in one transaction (no half-made accounts). */
  signUp(email: string, passwordHash: string): Account {
    try {
      return this.db.transaction(() => {
        const account = this.keys.createAccount(email);
        this.setPassword(account.id, passwordHash);
        return account;
      })();
    } catch (err) {
      if ((err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") throw new EmailTakenError();
      throw err;
    }
  }

  accountById(accountId: string): Account | undefined {
    return this.stmts.account.get(accountId) as Account | undefined;
  }

  passwordHash(accountId: string): string | undefined {
    return this.stmts.hash.get(accountId) as string | undefined;
  }

  setPassword(accountId: string, passwordHash: string): void {
    this.stmts.set.run(accountId, passwordHash, this.now().toISOString());
  }
}
