// Plans and their monthly periods. The Explorer plan is what sign-up gives; the operator-only
// plan exists so a team can load-test its own deployment through the same metering path
// (every call is still charged and recorded), without tripping the Explorer limits.

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

/** The credit period a moment falls in: "YYYY-MM" in UTC. */
export function periodOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** When the period containing `at` ends: 00:00 UTC on the 1st of the next month. */
export function periodEnd(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}
