// The credit headers the service sends on every authenticated response (docs/decisions.md,
// "Credits"; their names are the contract's, src/contract/credit-fields.ts), read into one
// shape. The meter, the 402 message and the benchmark all read them here.
import { CREDIT_HEADERS } from "../contract/credit-fields";

export interface CreditHeaders {
  /** The key's plan id, e.g. "explorer" (X-Credits-Plan). */
  plan: string | null;
  limit: number | null;
  remaining: number | null;
  /** Credits this response cost (0 for free endpoints and 304s). */
  charged: number | null;
  /** When the period's credits come back, as an ISO timestamp. */
  resetsAt: string | null;
}

/** Null when the response carries none of the headers (an older service, or a proxy's answer). */
export function readCreditHeaders(headers: Headers): CreditHeaders | null {
  const plan = headers.get(CREDIT_HEADERS.plan);
  const limit = headers.get(CREDIT_HEADERS.limit);
  const remaining = headers.get(CREDIT_HEADERS.remaining);
  const charged = headers.get(CREDIT_HEADERS.charged);
  const reset = headers.get(CREDIT_HEADERS.reset);
  if (plan === null && limit === null && remaining === null && charged === null && reset === null) return null;
  return {
    plan: plan?.trim() || null,
    limit: toNumber(limit),
    remaining: toNumber(remaining),
    charged: toNumber(charged),
    resetsAt: parseResetTime(reset),
  };
}

function toNumber(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** A reset time as the service writes it (an ISO date-time, in the header and in a 402's `resets_at`), normalised; null when absent or unreadable. */
export function parseResetTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const at = Date.parse(value.trim());
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** "on 2025-07-01 at 00:00 UTC": how a cell message names the reset time. */
export function formatResetTime(iso: string): string {
  return `on ${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC`;
}

/** "Explorer" for "explorer" (X-Credits-Plan): plan ids are lower-case words joined by "-" or "_". */
export function planName(id: string | null): string {
  if (!id) return "Unknown plan";
  return id
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
}
