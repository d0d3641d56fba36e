// Rate limits in this process's memory: a token bucket per account (every key of an account
// draws on the same one). A call takes its weight in tokens (one, or more for a call that asks
// for much work: credits/metering.ts); the bucket refills continuously at the plan's rate up to
// its burst size.
//
// Hand-written rather than @fastify/rate-limit: the bucket is per account and per plan, is taken
// inside the credit gate (after the key is known, before credits are held), and advertises the
// IETF fields the add-in paces itself by (credits/rate-headers.ts); the plugin counts requests in
// fixed windows and writes older drafts' headers.
import type { Plan } from "../../auth/plans";
import { type RateDecision, type RateLimits, rateDecision } from "../../credits/ports";

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter implements RateLimits {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  take(bucketId: string, rate: Plan["rate"], weight = 1): RateDecision {
    const now = this.nowMs();
    let b = this.buckets.get(bucketId);
    if (!b) this.buckets.set(bucketId, (b = { tokens: rate.burst, at: now }));
    b.tokens = Math.min(rate.burst, b.tokens + (Math.max(0, now - b.at) / 1000) * rate.perSecond);
    b.at = Math.max(b.at, now);
    const allowed = b.tokens >= weight;
    if (allowed) b.tokens -= weight;
    return rateDecision(allowed, b.tokens, rate, weight);
  }
}
