// Time windows relative to the capture date, as YYYY-MM-DD strings that compare correctly
// with the snapshot's date columns.

/** The capture date's day, YYYY-MM-DD, from an ISO date-time. */
export function captureDate(capturedAt: string): string {
  return new Date(capturedAt).toISOString().slice(0, 10);
}

/** The same day-of-month `months` earlier (or later, if negative), clamped to month end. */
export function monthsBefore(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number);
  const first = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

export interface Windows {
  capture: string;
  /** Start of the 12 months before capture (inclusive); the 12 before that start at `prev12`. */
  last12: string;
  prev12: string;
  last24: string;
  /** End of the 24 months after capture (lease rollover horizon). */
  next24: string;
}

export function windowsFor(capturedAt: string): Windows {
  const capture = captureDate(capturedAt);
  return {
    capture,
    last12: monthsBefore(capture, 12),
    prev12: monthsBefore(capture, 24),
    last24: monthsBefore(capture, 24),
    next24: monthsBefore(capture, -24),
  };
}
