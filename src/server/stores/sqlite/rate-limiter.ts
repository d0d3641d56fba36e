// Per-key rate limits in this process's memory: a token bucket per API key. Every call takes one
// token; the bucket refills continuously at the plan's rate up to its burst size.
//
// Hand-written rather than @fastify/rate-limit: the bucket is per key and per plan, is taken
// inside the credit gate (after the key is known, before credits are held), and advertises the
// IETF fields the add-in paces itself by (credits/rate-headers.ts); the plugin counts requests in
// fixed windows and writes older drafts' headers.
import type { Plan } from "../../auth/plans";
import type { RateDecision, RateLimits } from "../../credits/ports";

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
