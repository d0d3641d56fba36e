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
   * back; a call billed per unit may charge less than it held (`charged`). Answers with what was
   * charged (the hold's balance is updated for the answer's headers) once any credits given back
   * are in the balance the account's next call reads, in every process sharing the store: the
   * gate waits for it before the answer is sent, so a client's next call never meets credits
   * still held by the last. A store may write the ledger's charges afterwards, and says in
   * docs/decisions.md what a crash can lose.
   */
  settle(hold: Hold, succeeded: boolean, call: CallRecord, charged?: number): MaybePromise<number>;
  /** What the usage page shows: the period's totals and the latest ledger rows. */
  usage(accountId: string, recentLimit?: number): MaybePromise<UsageReport>;
  /** Writes whatever is waiting (also at shutdown). */
  flush(): MaybePromise<void>;
}

/** One call taken from an account's token bucket. */
export interface RateDecision {
  allowed: boolean;
  /** Whole calls left after this one. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  fullIn: number;
  /** Seconds until the next call would be allowed (only when refused). */
  retryAfter: number;
}

/** What a bucket holding `tokens` after a take of `weight` (allowed or not) answers. */
export function rateDecision(allowed: boolean, tokens: number, rate: Plan["rate"], weight: number): RateDecision {
  return {
    allowed,
    remaining: Math.floor(tokens),
    fullIn: Math.ceil((rate.burst - tokens) / rate.perSecond),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((weight - tokens) / rate.perSecond)),
  };
}

export interface RateLimits {
  /**
   * Takes `weight` tokens (1 unless given) from the bucket `bucketId` names (the API's gate names
   * an account: every key of it shares one bucket): the plan's burst, refilled at its rate. A
   * take the bucket cannot cover takes nothing and is refused.
   */
  take(bucketId: string, rate: Plan["rate"], weight?: number): MaybePromise<RateDecision>;
}
