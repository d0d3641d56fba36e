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

export const PLANS: Record<string, Plan> = {
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
};

export const DEFAULT_PLAN = "explorer";

export function planOf(id: string): Plan {
  return PLANS[id] ?? PLANS[DEFAULT_PLAN];
}
