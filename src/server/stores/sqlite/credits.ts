// Credits: what each account has used this month, held exactly in memory and written to the
// accounts database in batches. (No library does metered billing against a plan; this is ours.)
//
// Why in memory: charging must be atomic (50 clients on one key never spend more than the
// plan) and cheap (a metered call is the hot path). This process is the only writer of
// credits for its accounts database, and JavaScript runs one request's check-and-hold at a
// time, so holding credits in memory is atomic without locks. The ledger rows and the
// per-period totals of one batch are written in one transaction at most 10 ms later (a group
// commit), so the database's ledger always sums to its totals. Running several
// service processes needs a shared store (PostgreSQL), not this one.
import type Database from "better-sqlite3";
import { DEFAULT_PLAN, type Plan, planOf } from "../../auth/plans";
import { type Balance, type CallRecord, type Credits, type Hold, type UsageReport, periodBalance, usageReport } from "../../credits/ports";

/** The ledger's columns, in the order `pending` holds them (one group of these per charge). */
const LEDGER_COLUMNS = ["account_id", "period", "key_id", "endpoint", "cost", "at", "request_id"] as const;
const WIDTH = LEDGER_COLUMNS.length;
/** Where a charge's account, period and cost sit within its group. */
const [ACCOUNT, PERIOD, COST] = (["account_id", "period", "cost"] as const).map((c) => LEDGER_COLUMNS.indexOf(c));

const RETRY_FLUSH_MS = 1000;
/**
 * Charges wait at most this long before they are written. Under load a commit per event-loop
 * turn held one to three rows and cost more than the rows; every 10 ms holds dozens.
 */
export const FLUSH_INTERVAL_MS = 10;
/** ... or until this many are waiting. */
const FLUSH_AT_ROWS = 512;
/** Ledger rows per INSERT statement: one statement per batch is far cheaper than one per row. */
const ROWS_PER_INSERT = 64;

export class CreditLedger implements Credits {
  private readonly balances = new Map<string, Balance>();
  /**
   * Charges not yet written, flat: WIDTH values per charge in LEDGER_COLUMNS order, exactly as
   * the INSERT binds them. Why flat: an object per charge, copied again into bind parameters at
   * flush, was most of the ledger's cost per call under load (allocation and GC).
   */
  private pending: unknown[] = [];
  private flushQueued = false;
  private readonly stmts;
  private readonly writeBatch: (values: unknown[]) => void;
  private readonly nowMs: () => number;
  /** The last charge's time as ISO text: calls in the same millisecond share one string. */
  private lastAtMs = -1;
  private lastAt = "";

  constructor(
    private readonly db: Database.Database,
    now?: () => Date,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.nowMs = now ? () => now().getTime() : Date.now;
    this.stmts = {
      used: db.prepare("SELECT used FROM credit_usage WHERE account_id = ? AND period = ?").pluck(),
      plan: db.prepare("SELECT plan FROM accounts WHERE id = ?").pluck(),
      add: db.prepare(
        `INSERT INTO credit_usage (account_id, period, used) VALUES (?, ?, ?)
         ON CONFLICT (account_id, period) DO UPDATE SET used = used + excluded.used`,
      ),
      recent: db.prepare(
        `SELECT endpoint, at, cost, key_id, request_id FROM credit_ledger
         WHERE account_id = ? ORDER BY id DESC LIMIT ?`,
      ),
    };
    this.writeBatch = db.transaction((values: unknown[]) => {
      const chunk = ROWS_PER_INSERT * WIDTH;
      for (let i = 0; i < values.length; i += chunk) this.insertRows(values.slice(i, i + chunk));
      // The period totals, summed per account and period in this batch.
      const totals = new Map<string, { accountId: string; period: string; cost: number }>();
      for (let i = 0; i < values.length; i += WIDTH) {
        const accountId = values[i + ACCOUNT] as string;
        const period = values[i + PERIOD] as string;
        const k = `${accountId} ${period}`;
        const t = totals.get(k) ?? { accountId, period, cost: 0 };
        t.cost += values[i + COST] as number;
        totals.set(k, t);
      }
      for (const t of totals.values()) this.stmts.add.run(t.accountId, t.period, t.cost);
    });
  }

  /** The account's balance in the current period (a new month starts from zero). */
  balance(accountId: string, plan: Plan): Balance {
    const nowMs = this.nowMs();
    let b = this.balances.get(accountId);
    if (!b || nowMs < b.startMs || nowMs >= b.endMs) {
      const at = new Date(nowMs);
      b = periodBalance(at, plan, 0);
      b.used = (this.stmts.used.get(accountId, b.period) as number | undefined) ?? 0;
      this.balances.set(accountId, b);
    }
    b.limit = plan.monthlyCredits; // a plan change applies at once
    return b;
  }

  /**
   * Holds `cost` credits for a call; null when the balance cannot cover it. A free call is
   * always held, even for an account already past its limit (its plan lowered mid-period).
   */
  hold(accountId: string, plan: Plan, cost: number): Hold | null {
    const balance = this.balance(accountId, plan);
    if (cost > 0 && balance.used + cost > balance.limit) return null;
    balance.used += cost;
    return { accountId, balance, cost, settled: false };
  }

  /**
   * Ends a hold: a successful call is charged and recorded, anything else is given back. A call
   * billed per unit answered may charge less than it held (`charged`); the rest is given back.
   */
  settle(hold: Hold, succeeded: boolean, call: CallRecord, charged: number = hold.cost): number {
    if (hold.settled) return 0;
    hold.settled = true;
    const cost = succeeded ? Math.max(0, Math.min(charged, hold.cost)) : 0;
    hold.balance.used -= hold.cost - cost;
    if (cost === 0) return 0;
    const ms = this.nowMs();
    if (ms !== this.lastAtMs) {
      this.lastAtMs = ms;
      this.lastAt = new Date(ms).toISOString();
    }
    // LEDGER_COLUMNS order.
    this.pending.push(hold.accountId, hold.balance.period, call.keyId, call.endpoint, cost, this.lastAt, call.requestId);
    if (this.pending.length >= FLUSH_AT_ROWS * WIDTH) this.flush();
    else this.queueFlush();
    return cost;
  }

  /** Writes every recorded charge now (also run at shutdown). */
  flush(): void {
    this.flushQueued = false;
    if (this.pending.length === 0) return;
    const values = this.pending;
    this.pending = [];
    try {
      this.writeBatch(values);
    } catch (err) {
      // Keep the rows and try again shortly: the charges stand in memory either way.
      this.pending = values.concat(this.pending);
      this.onError(err);
      setTimeout(() => this.queueFlush(), RETRY_FLUSH_MS).unref();
    }
  }

  /** What the usage page shows; exact, because it writes pending charges first. */
  usage(accountId: string, recentLimit = 50): UsageReport {
    this.flush();
    const plan = planOf((this.stmts.plan.get(accountId) as string | undefined) ?? DEFAULT_PLAN);
    const b = this.balance(accountId, plan);
    return usageReport(plan, b, this.stmts.recent.all(accountId, recentLimit) as UsageReport["recent"]);
  }

  private readonly inserts = new Map<number, Database.Statement>();

  /** Inserts the charges in `values` (WIDTH values each) with one statement. */
  private insertRows(values: unknown[]): void {
    const rows = values.length / WIDTH;
    let stmt = this.inserts.get(rows);
    if (!stmt) {
      const row = `(${LEDGER_COLUMNS.map(() => "?").join(", ")})`;
      stmt = this.db.prepare(`INSERT INTO credit_ledger (${LEDGER_COLUMNS.join(", ")}) VALUES ${Array(rows).fill(row).join(", ")}`);
      this.inserts.set(rows, stmt);
    }
    stmt.run(values);
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    // Unref'd: a pending write never keeps the process alive; shutdown flushes (onClose).
    setTimeout(() => this.flush(), FLUSH_INTERVAL_MS).unref();
  }
}
