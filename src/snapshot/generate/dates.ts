// Dates as whole days since 1970-01-01 (UTC). The generator works in day numbers and formats
// once at the end; every date is derived from the capture date, never from the clock.

const MS_PER_DAY = 86_400_000;
const cache = new Map<number, string>();

export function dayOf(iso: string): number {
  const ms = Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(ms)) throw new Error(`not a date: ${iso}`);
  return Math.floor(ms / MS_PER_DAY);
}

/** YYYY-MM-DD for a day number (memoised: the generator formats the same days many times). */
export function isoDate(day: number): string {
  let s = cache.get(day);
  if (s === undefined) {
    s = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    cache.set(day, s);
  }
  return s;
}

export function yearOfDay(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCFullYear();
}

/** Day number of January 1st of a year. */
export function dayOfYearStart(year: number): number {
  return Math.floor(Date.UTC(year, 0, 1) / MS_PER_DAY);
}
