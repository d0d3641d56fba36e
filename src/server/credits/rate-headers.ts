// The rate limits' answers, advertised with the IETF RateLimit fields
// (draft-ietf-httpapi-ratelimit-headers-10): `RateLimit-Policy: "burst";q=60;w=6` says the
// bucket holds 60 and refills completely in 6 s; `RateLimit: "burst";r=41;t=2` says 41 calls
// are left now and the bucket is full again in 2 s.
import type { Plan } from "../auth/plans";
import type { RateDecision } from "./ports";

export function policyHeader(rate: Plan["rate"]): string {
  return `"burst";q=${rate.burst};w=${Math.ceil(rate.burst / rate.perSecond)}`;
}

export function rateHeader(d: RateDecision): string {
  return `"burst";r=${d.remaining};t=${d.fullIn}`;
}
