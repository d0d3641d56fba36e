// What the API's credit gate needs from its store of credits and rate limits, whichever
// database holds them: SQLite and this process's memory (credit-ledger.ts, rate-limiter.ts) or
// PostgreSQL shared by several processes (src/server/postgres/). Both pass the same tests.
import type { Plan } from "../auth/plans";
import type { MaybePromise } from "../db/maybe-promise";
import type { Balance, CallRecord, Hold, UsageReport } from "./credit-ledger";
import type { RateDecision } from "./rate-limiter";

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

export interface RateLimits {
  /** Takes one call from the key's token bucket (the plan's burst, refilled at its rate). */
  take(keyId: string, rate: Plan["rate"]): MaybePromise<RateDecision>;
}
