// Accounts and their passwords in the SQLite accounts database: every query of the `accounts`
// and `account_passwords` tables. The API keys, the account pages and the admin command all read
// and make accounts through this one store, so an account made by one is the same to the others.
import type Database from "better-sqlite3";
import { DEFAULT_PLAN } from "../../auth/plans";
import { type Account, type Accounts, EmailTakenError, checkPlan } from "../../auth/ports";
import { randomBase62 } from "../../auth/random-id";
import { checkStorable } from "../../auth/text-values";
import { keyCacheOf } from "./key-cache";

export class AccountStore implements Accounts {
  private readonly stmts;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.stmts = {
      insert: db.prepare("INSERT INTO accounts (id, email, plan, created_at) VALUES (?, ?, ?, ?)"),
      // The email column compares without case (COLLATE NOCASE), so Ann@ and ann@ are one account.
      byEmail: db.prepare("SELECT id, email, plan, created_at FROM accounts WHERE email = ?"),
      byId: db.prepare("SELECT id, email, plan, created_at FROM accounts WHERE id = ?"),
      setPlan: db.prepare("UPDATE accounts SET plan = ? WHERE id = ?"),
      passwordHash: db.prepare("SELECT hash FROM account_passwords WHERE account_id = ?").pluck(),
      setPassword: db.prepare(
        `INSERT INTO account_passwords (account_id, hash, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (account_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`,
      ),
    };
  }

  /** A new account without a password (the admin command's; the owner logs in once one is set); EmailTakenError when the email has one. */
  create(email: string, plan = DEFAULT_PLAN): Account {
    checkPlan(plan);
    checkStorable(email, "An email address");
    const account: Account = { id: "acct_" + randomBase62(16), email, plan, created_at: this.now().toISOString() };
    try {
      this.stmts.insert.run(account.id, account.email, account.plan, account.created_at);
    } catch (err) {
      if ((err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") throw new EmailTakenError();
      throw err;
    }
    return account;
  }

  /** A new account with its password, in one transaction (no half-made accounts); EmailTakenError when the email has one. */
  createWithPassword(email: string, passwordHash: string): Account {
    return this.db.transaction(() => {
      const account = this.create(email);
      this.setPassword(account.id, passwordHash);
      return account;
    })();
  }

  findByEmail(email: string): Account | undefined {
    return this.stmts.byEmail.get(email) as Account | undefined;
  }

  findById(accountId: string): Account | undefined {
    return this.stmts.byId.get(accountId) as Account | undefined;
  }

  /** Moves an account to another plan; its keys answer with the new limits at once. */
  setPlan(accountId: string, plan: string): void {
    checkPlan(plan);
    this.stmts.setPlan.run(plan, accountId);
    keyCacheOf(this.db).clear(); // cached key rows carry their account's plan
  }

  passwordHash(accountId: string): string | undefined {
    return this.stmts.passwordHash.get(accountId) as string | undefined;
  }

  setPassword(accountId: string, passwordHash: string): void {
    this.stmts.setPassword.run(accountId, passwordHash, this.now().toISOString());
  }
}
