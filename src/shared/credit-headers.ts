// The credit headers the service sends on every authenticated response (docs/decisions.md, "Credits":
// X-Credits-Plan, -Limit, -Remaining, -Charged, -Reset), read into one shape. The meter, the 402
// message and the benchmark all read them here.

export interface CreditHeaders {
  /** The key's plan id, e.g. "explorer" (X-Credits-Plan). */
  plan: string | null;
  limit: number | null;
  remaining: number | null;
  /** Credits this response cost (0 for free endpoints and 304s). */
  charged: number | null;
  /** When the period's credits come back, as an ISO timestamp. */
  resetAt: string | null;
}

/** Null when the response carries none of the headers (an older service, or a proxy's answer). */
export function readCreditHeaders(headers: Headers): CreditHeaders | null {
  const plan = headers.get("x-credits-plan");
  const limit = headers.get("x-credits-limit");
  const remaining = headers.get("x-credits-remaining");
  const charged = headers.get("x-credits-charged");
  const reset = headers.get("x-credits-reset");
  if (plan === null && limit === null && remaining === null && charged === null && reset === null) return null;
  return { plan: plan?.trim() || null, limit: toNumber(limit), remaining: toNumber(remaining), charged: toNumber(charged), resetAt: parseResetTime(reset) };
}

function toNumber(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * A reset time as the service may write it: an ISO timestamp, or epoch seconds. (A small
 * number cannot be an epoch for a monthly reset, so it is read as seconds from now.)
 */
export function parseResetTime(value: unknown, now: number = Date.now()): string | null {
  if (value === null || value === undefined || value === "") return null;
  const text = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    const ms = n > 1e9 ? n * 1000 : now + n * 1000;
    return new Date(ms).toISOString();
  }
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** "on 2025-07-01 at 00:00 UTC": how a cell message names the reset time. */
export function formatResetTime(iso: string): string {
  return `on ${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC`;
}
