// Per-key rate limits: a token bucket per API key, in memory. Every call takes one token;
// the bucket refills continuously at the plan's rate up to its burst size.
//
// The answers are advertised with the IETF RateLimit fields
// (draft-ietf-httpapi-ratelimit-headers-10): `RateLimit-Policy: "burst";q=60;w=6` says the
// bucket holds 60 and refills completely in 6 s; `RateLimit: "burst";r=41;t=2` says 41 calls
// are left now and the bucket is full again in 2 s.
//
// Hand-written rather than @fastify/rate-limit: the bucket is per key and per plan, is taken
// inside the credit gate (after the key is known, before credits are held), and advertises the
// IETF fields the add-in paces itself by; the plugin counts requests in fixed windows and
// writes older drafts' headers.
import type { Plan } from "../auth/plans";
import type { RateLimits } from "./stores";

export interface RateDecision {
  allowed: boolean;
  /** Whole calls left after this one. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  fullIn: number;
  /** Seconds until the next call would be allowed (only when refused). */
  retryAfter: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter implements RateLimits {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  take(keyId: string, rate: Plan["rate"]): RateDecision {
    const now = this.nowMs();
    let b = this.buckets.get(keyId);
    if (!b) this.buckets.set(keyId, (b = { tokens: rate.burst, at: now }));
    b.tokens = Math.min(rate.burst, b.tokens + ((now - b.at) / 1000) * rate.perSecond);
    b.at = now;
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    return {
      allowed,
      remaining: Math.floor(b.tokens),
      fullIn: Math.ceil((rate.burst - b.tokens) / rate.perSecond),
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / rate.perSecond)),
    };
  }
}

export function policyHeader(rate: Plan["rate"]): string {
  return `"burst";q=${rate.burst};w=${Math.ceil(rate.burst / rate.perSecond)}`;
}

export function rateHeader(d: RateDecision): string {
  return `"burst";r=${d.remaining};t=${d.fullIn}`;
}
