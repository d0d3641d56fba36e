// Calendar quarters as market history counts them. A quarter is one integer (year * 4 + quarter
// - 1), so a span is a range of integers and a year is four consecutive ones; labels and dates
// are made from it. Both the snapshot builder (which stores quarters) and the service (which
// answers periods) use these, so a period means one thing on both sides.

/** The quarter holding a YYYY-MM-DD date. */
export function quarterOf(date: string): number {
  return Number(date.slice(0, 4)) * 4 + Math.floor((Number(date.slice(5, 7)) - 1) / 3);
}

export function quarterYear(quarter: number): number {
  return Math.floor(quarter / 4);
}

/** "2026-Q3". */
export function quarterLabel(quarter: number): string {
  return `${quarterYear(quarter)}-Q${(quarter % 4) + 1}`;
}

/** The quarter a label such as "2026-Q3" names, or null when it names none. */
export function parseQuarter(label: string): number | null {
  const m = /^(\d{4})-Q([1-4])$/.exec(label);
  return m ? Number(m[1]) * 4 + Number(m[2]) - 1 : null;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** First day of the quarter, YYYY-MM-DD. */
export function quarterStart(quarter: number): string {
  return `${quarterYear(quarter)}-${pad((quarter % 4) * 3 + 1)}-01`;
}

/** Last calendar day of the quarter, YYYY-MM-DD. */
export function quarterEnd(quarter: number): string {
  const q = quarter % 4;
  return `${quarterYear(quarter)}-${pad(q * 3 + 3)}-${q === 0 || q === 3 ? "31" : "30"}`;
}

/**
 * The quarters a snapshot's market history holds: from the first quarter of the year holding
 * the `quarters`-th quarter back (or of `sinceYear`, when that is earlier) to the quarter
 * holding the capture date, so every year but the current one is whole.
 */
export function historySpan(captureDate: string, quarters: number, sinceYear = Infinity): { first: number; last: number } {
  const last = quarterOf(captureDate);
  const back = Math.min(last - (quarters - 1), sinceYear * 4);
  return { first: back - (back % 4), last };
}

/**
 * The quarter a property completed in, as market history counts it: its year_built, the
 * quarter picked by the last character of its id (so a year's completions spread over its
 * quarters the same way every time), never after `latest` (a property the snapshot holds
 * stands by the capture date). Null without a year_built: such a property stands throughout.
 */
export function completionQuarter(id: string, yearBuilt: number | null, latest: number): number | null {
  if (yearBuilt === null) return null;
  return Math.min(latest, yearBuilt * 4 + (id.charCodeAt(id.length - 1) % 4));
}
