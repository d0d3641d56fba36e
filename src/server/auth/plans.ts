// Plans: what an account may spend. The Explorer plan is what sign-up gives; the operator-only
// plan exists so a team can load-test its own deployment through the same metering path
// (every call is still charged and recorded), without tripping the Explorer limits. An account
// holds its plan's id; the credit ledger and the rate limiter read the plan's allowance.

export interface Plan {
  id: string;
  name: string;
  /** Credits per calendar month (UTC). */
  monthlyCredits: number;
  /** Token bucket per API key: `burst` requests at once, refilled at `perSecond`. */
  rate: { burst: number; perSecond: number };
  /** Offered on the sign-up page. */
  public: boolean;
}

export const PLANS = {
  explorer: {
    id: "explorer",
    name: "Explorer",
    monthlyCredits: 1000,
    // A workbook recalculation fires many formulas at once; the add-in batches them, and a
    // burst of 60 absorbs what is left. 10 per second sustained is far above a person's pace.
    rate: { burst: 60, perSecond: 10 },
    public: true,
  },
  unlimited: {
    id: "unlimited",
    name: "Unlimited (operators only)",
    monthlyCredits: 1_000_000_000,
    rate: { burst: 1_000_000, perSecond: 1_000_000 },
    public: false,
  },
} as const satisfies Record<string, Plan>;

export type PlanId = keyof typeof PLANS;

export const DEFAULT_PLAN: PlanId = "explorer";

/** Whether `id` names a plan: a key of PLANS itself, never one it inherits ("toString", "__proto__"). */
export function isPlanId(id: string): id is PlanId {
  return Object.prototype.hasOwnProperty.call(PLANS, id);
}

/**
 * The plan an id names; throws for any other id, so an account can neither be put on a plan
 * that does not exist nor be charged by one it does not hold.
 */
export function planOf(id: string): Plan {
  if (!isPlanId(id)) throw new Error(`Unknown plan '${id}'. Plans: ${Object.keys(PLANS).join(", ")}.`);
  return PLANS[id];
}
