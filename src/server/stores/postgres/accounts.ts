// Accounts and their passwords in PostgreSQL: the same behaviour as the SQLite adapter
// (stores/sqlite/accounts.ts), by the port in auth/ports.ts.
import type pg from "pg";
import { DEFAULT_PLAN } from "../../auth/plans";
import { type Account, type Accounts, EmailTakenError, checkPlan } from "../../auth/ports";
import { randomBase62 } from "../../auth/random-id";
import { checkStorable, hasNul } from "../../auth/text-values";
import { inTransaction } from "./transaction";

const UNIQUE_VIOLATION = "23505";

/** Something `query` can be called on: the pool, or a client inside a transaction. */
type Queryable = Pick<pg.Pool, "query">;

export class PgAccounts implements Accounts {
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => Date = () => new Date(),
    /** Told when an account's plan changes, so cached keys drop the old plan (keys.ts). */
    private readonly onPlanChange: (accountId: string) => void = () => {},
  ) {}

  async create(email: string, plan = DEFAULT_PLAN, db: Queryable = this.pool): Promise<Account> {
    checkPlan(plan);
    checkStorable(email, "An email address");
    const account: Account = { id: "acct_" + randomBase62(16), email, plan, created_at: this.now().toISOString() };
    try {
      await db.query("INSERT INTO accounts (id, email, plan, created_at) VALUES ($1, $2, $3, $4)", [
        account.id,
        account.email,
        account.plan,
        account.created_at,
      ]);
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION) throw new EmailTakenError();
      throw err;
    }
    return account;
  }

  createWithPassword(email: string, passwordHash: string): Promise<Account> {
    return inTransaction(this.pool, async (client) => {
      const account = await this.create(email, DEFAULT_PLAN, client);
      await this.setPassword(account.id, passwordHash, client);
      return account;
    });
  }

  async findByEmail(email: string): Promise<Account | undefined> {
    if (hasNul(email)) return undefined; // no account has one (text-values.ts)
    const { rows } = await this.pool.query<Account>("SELECT id, email, plan, created_at FROM accounts WHERE lower(email) = lower($1)", [
      email,
    ]);
    return rows[0];
  }

  async findById(accountId: string): Promise<Account | undefined> {
    if (hasNul(accountId)) return undefined;
    const { rows } = await this.pool.query<Account>("SELECT id, email, plan, created_at FROM accounts WHERE id = $1", [accountId]);
    return rows[0];
  }

  async setPlan(accountId: string, plan: string): Promise<void> {
    checkPlan(plan);
    // The event tells the other processes to drop this account's cached keys (keys.ts).
    await this.pool.query(
      `WITH changed AS (UPDATE accounts SET plan = $2 WHERE id = $1 RETURNING id)
       INSERT INTO key_events (account_id) SELECT id FROM changed`,
      [accountId, plan],
    );
    this.onPlanChange(accountId);
  }

  async passwordHash(accountId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ hash: string }>("SELECT hash FROM account_passwords WHERE account_id = $1", [accountId]);
    return rows[0]?.hash;
  }

  async setPassword(accountId: string, passwordHash: string, db: Queryable = this.pool): Promise<void> {
    await db.query(
      `INSERT INTO account_passwords (account_id, hash, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`,
      [accountId, passwordHash, this.now().toISOString()],
    );
  }
}
