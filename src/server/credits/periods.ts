// Credit periods: calendar months in UTC, reset at 00:00 UTC on the 1st.

/** The credit period a moment falls in: "YYYY-MM" in UTC. */
export function periodOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** When the period containing `at` ends: 00:00 UTC on the 1st of the next month. */
export function periodEnd(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}
