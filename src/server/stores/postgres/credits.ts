// Credits in PostgreSQL, exact across every process that shares the database.
//
// A hold is one statement: it adds the call's cost to the period's total only if the total
// stays within the plan, and in the same statement writes the call's ledger row. So no account
// is ever held past its plan, however many processes charge it at once (the row lock on the
// period's total orders them), and the ledger sums to the total at every moment. A successful
// call then costs nothing more; a failed one (or a call billed per unit that charges less than
// it held) is given back by deleting (or lowering) its ledger row and lowering the total. A
// give-back is written before its call's answer is sent (settle's promise), so the client's next
// call, in whichever process, reads the true balance; give-backs of calls settling at the same
// time are written together, in one transaction.
//
// What a crash (kill -9) of a process can do: calls it had held but not yet answered stay
// charged (at most the calls it had in flight), and so do give-backs whose write failed and is
// being retried. Nothing answered goes unrecorded, and nothing is ever charged past the plan.
import type pg from "pg";
import { DEFAULT_PLAN, type Plan, planOf } from "../../auth/plans";
import { type Balance, type CallRecord, type Credits, type Hold, type UsageReport, periodBalance, usageReport } from "../../credits/ports";
import { inTransaction } from "./transaction";

const FLUSH_INTERVAL_MS = 10;
const RETRY_FLUSH_MS = 1000;

interface GiveBack {
  ledgerId: string;
  accountId: string;
  period: string;
  /** Credits to give back. */
  refund: number;
  /** What the ledger row charges now: 0 deletes it. */
  charged: number;
}

export class PgCredits implements Credits {
  private pending: GiveBack[] = [];
  private flushing: Promise<void> | undefined;
  private flushQueued = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => Date = () => new Date(),
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  async balance(accountId: string, plan: Plan): Promise<Balance> {
    const b = periodBalance(this.now(), plan, 0);
    const { rows } = await this.pool.query<{ used: number }>("SELECT used FROM credit_usage WHERE account_id = $1 AND period = $2", [
      accountId,
      b.period,
    ]);
    b.used = rows[0]?.used ?? 0;
    return b;
  }

  async hold(accountId: string, plan: Plan, cost: number, call?: CallRecord): Promise<Hold | null> {
    // A free call is always held (even past the limit, after a plan was lowered); it writes nothing.
    if (cost <= 0) return { accountId, balance: await this.balance(accountId, plan), cost: 0, settled: false };
    const b = periodBalance(this.now(), plan, 0);
    // Named, so each connection plans it once (planning a statement costs more than running it).
    const { rows } = await this.pool.query<{ used: number; ledger_id: string }>({
      name: "credits-hold",
      text: `WITH total AS (
         INSERT INTO credit_usage AS u (account_id, period, used) SELECT $1::text, $2::text, $3::int WHERE $3::int <= $4::int
         ON CONFLICT (account_id, period) DO UPDATE SET used = u.used + excluded.used WHERE u.used + excluded.used <= $4::int
         RETURNING used
       ), row AS (
         INSERT INTO credit_ledger (account_id, period, key_id, endpoint, cost, at, request_id)
         SELECT $1::text, $2::text, $5::text, $6::text, $3::int, $7::text, $8::text FROM total
         RETURNING id
       )
       SELECT total.used, row.id::text AS ledger_id FROM total, row`,
      values: [
        accountId,
        b.period,
        cost,
        b.limit,
        call?.keyId ?? "",
        call?.endpoint ?? "",
        this.now().toISOString(),
        call?.requestId ?? "",
      ],
    });
    if (rows.length === 0) return null;
    b.used = rows[0].used;
    return { accountId, balance: b, cost, settled: false, ledgerId: rows[0].ledger_id };
  }

  settle(hold: Hold, succeeded: boolean, _call: CallRecord, charged: number = hold.cost): number | Promise<number> {
    if (hold.settled) return 0;
    hold.settled = true;
    const cost = succeeded ? Math.max(0, Math.min(charged, hold.cost)) : 0;
    const refund = hold.cost - cost;
    hold.balance.used -= refund;
    if (refund === 0 || !hold.ledgerId) return cost;
    this.pending.push({ ledgerId: hold.ledgerId, accountId: hold.accountId, period: hold.balance.period, refund, charged: cost });
    // Written now (with whatever else is waiting), and answered once written: a failed write is
    // retried in the background (retry) and the answer is not held back by it.
    return this.flush().then(() => cost);
  }

  /** Writes the waiting give-backs; resolves when they (and any flush already running) are written. */
  async flush(): Promise<void> {
    this.flushQueued = false;
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.write(batch).finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  private async write(batch: GiveBack[]): Promise<void> {
    try {
      await inTransaction(this.pool, async (client) => {
        for (const g of batch) {
          if (g.charged === 0) await client.query("DELETE FROM credit_ledger WHERE id = $1", [g.ledgerId]);
          else await client.query("UPDATE credit_ledger SET cost = $2 WHERE id = $1", [g.ledgerId, g.charged]);
          await client.query("UPDATE credit_usage SET used = used - $3 WHERE account_id = $1 AND period = $2", [
            g.accountId,
            g.period,
            g.refund,
          ]);
        }
      });
    } catch (err) {
      this.retry(batch, err);
    }
  }

  private retry(batch: GiveBack[], err: unknown): void {
    this.pending = batch.concat(this.pending);
    this.onError(err);
    setTimeout(() => this.queueFlush(), RETRY_FLUSH_MS).unref();
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
  }

  async usage(accountId: string, recentLimit = 50): Promise<UsageReport> {
    await this.flush();
    const { rows: acct } = await this.pool.query<{ plan: string }>("SELECT plan FROM accounts WHERE id = $1", [accountId]);
    const plan = planOf(acct[0]?.plan ?? DEFAULT_PLAN);
    const b = await this.balance(accountId, plan);
    const { rows: recent } = await this.pool.query<UsageReport["recent"][number]>(
      `SELECT endpoint, at, cost, key_id, request_id FROM credit_ledger WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
      [accountId, recentLimit],
    );
    return usageReport(plan, b, recent);
  }
}
