// The model and ports of credits and rate limits: the types the API's credit gate and the usage
// page work with, and what they need from a store of them, whichever database holds them. The
// adapters (stores/sqlite/, with this process's memory; stores/postgres/, shared by several
// processes) implement these and pass the same tests (test/server/stores/).
import type { Plan } from "../auth/plans";
import type { MaybePromise } from "../db/maybe-promise";
import { periodEnd, periodOf } from "./periods";

/** One account's credits in the current period. `used` includes calls still in flight. */
export interface Balance {
  period: string;
  /** The period as epoch milliseconds [start, end), to check the clock without dates. */
  startMs: number;
  endMs: number;
  used: number;
  limit: number;
  /** ISO time the period ends and the credits reset: the answers' `resets_at` and reset header. */
  resetsAt: string;
}

/** The balance of the period holding `at`, with `used` credits spent. */
export function periodBalance(at: Date, plan: Plan, used: number): Balance {
  const end = periodEnd(at);
  return {
    period: periodOf(at),
    startMs: Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1),
    endMs: end.getTime(),
    used,
    limit: plan.monthlyCredits,
    resetsAt: end.toISOString().replace(".000Z", "Z"),
  };
}

/** Credits held for one call until its outcome is known. */
export interface Hold {
  accountId: string;
  balance: Balance;
  cost: number;
  settled: boolean;
  /** The ledger row written with the hold, in a store that writes it then (stores/postgres/credits.ts). */
  ledgerId?: string;
}

export interface CallRecord {
  keyId: string;
  endpoint: string;
  requestId: string;
}

export interface UsageReport {
  plan: { id: string; name: string; monthly_credits: number };
  period: string;
  used: number;
  remaining: number;
  resets_at: string;
  recent: { endpoint: string; at: string; cost: number; key_id: string; request_id: string }[];
}

/** The usage page's figures from a plan, its period's balance and the latest ledger rows. */
export function usageReport(plan: Plan, b: Balance, recent: UsageReport["recent"]): UsageReport {
  return {
    plan: { id: plan.id, name: plan.name, monthly_credits: plan.monthlyCredits },
    period: b.period,
    used: b.used,
    remaining: Math.max(0, b.limit - b.used),
    resets_at: b.resetsAt,
    recent,
  };
}

export interface Credits {
  /** The account's balance in the current period (a new month starts from zero). */
  balance(accountId: string, plan: Plan): MaybePromise<Balance>;
  /**
   * Holds `cost` credits for a call; null when the balance cannot cover it. No account is ever
   * held past its plan, across every process sharing the store. A free call is always held.
   * `call` names the call for the ledger (a store that writes the ledger row with the hold needs it).
   */
  hold(accountId: string, plan: Plan, cost: number, call?: CallRecord): MaybePromise<Hold | null>;
  /**
   * Ends a hold: a successful call is charged and recorded in the ledger, anything else is given
   * back; a call billed per unit may charge less than it held (`charged`). Answers at once with
   * what was charged (the hold's balance is updated for the answer's headers); a store may write
   * it afterwards, and says in docs/decisions.md what a crash can lose.
   */
  settle(hold: Hold, succeeded: boolean, call: CallRecord, charged?: number): number;
  /** What the usage page shows: the period's totals and the latest ledger rows. */
  usage(accountId: string, recentLimit?: number): MaybePromise<UsageReport>;
  /** Writes whatever is waiting (also at shutdown). */
  flush(): MaybePromise<void>;
}

/** One call taken from a key's token bucket. */
export interface RateDecision {
  allowed: boolean;
  /** Whole calls left after this one. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  fullIn: number;
  /** Seconds until the next call would be allowed (only when refused). */
  retryAfter: number;
}

export interface RateLimits {
  /** Takes one call from the key's token bucket (the plan's burst, refilled at its rate). */
  take(keyId: string, rate: Plan["rate"]): MaybePromise<RateDecision>;
}
