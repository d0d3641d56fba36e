// The gate in front of every API route: authenticate the key, apply its rate limit, hold the
// call's credits; and, once the answer is known, charge or give back what was held. Every
// authenticated answer (402 and 429 included) carries the credit and rate-limit headers.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { KeyStore } from "../auth/key-store";
import { invalidKey, verifyBearer } from "../auth/bearer-auth";
import { ApiProblem, sendProblem } from "../http/problem";
import { CREDIT_HEADERS, type CreditsExhausted } from "../../shared/contract/credit-fields";
import type { Balance, CreditLedger, Hold } from "./credit-ledger";
import { planOf, type Plan } from "../auth/plans";
import { type RateLimiter, policyHeader, rateHeader } from "./rate-limiter";

declare module "fastify" {
  interface FastifyRequest {
    creditHold?: Hold;
    meteredEndpoint?: string;
    /** What a call billed per unit charges, set by its handler (at most what was held). */
    chargedCredits?: number;
  }
}

export interface MeteringDeps {
  keys: KeyStore;
  limiter: RateLimiter;
  ledger: CreditLedger;
}

type Done = (err?: Error) => void;

const policies = new WeakMap<Plan, string>();
function policyOf(plan: Plan): string {
  let p = policies.get(plan);
  if (!p) policies.set(plan, (p = policyHeader(plan.rate)));
  return p;
}

function creditHeaders(reply: FastifyReply, planId: string, b: Balance, charged: number): void {
  // The plan's id, so the pane can say which plan the figures belong to without another call.
  reply.header(CREDIT_HEADERS.plan, planId);
  reply.header(CREDIT_HEADERS.limit, b.limit);
  reply.header(CREDIT_HEADERS.remaining, Math.max(0, b.limit - b.used));
  reply.header(CREDIT_HEADERS.charged, charged);
  reply.header(CREDIT_HEADERS.reset, b.resetsAt);
}

function creditsExhausted(req: FastifyRequest, reply: FastifyReply, deps: MeteringDeps, plan: Plan, accountId: string, cost: number) {
  const b = deps.ledger.balance(accountId, plan);
  creditHeaders(reply, plan.id, b, 0);
  const left = Math.max(0, b.limit - b.used);
  const fields: CreditsExhausted = { cost, credits_remaining: left, credits_limit: b.limit, resets_at: b.resetsAt };
  return sendProblem(
    req,
    reply,
    new ApiProblem(
      402,
      "credits_exhausted",
      `This call costs ${cost} credit${cost === 1 ? "" : "s"} and ${left} of the ${plan.name} plan's ${b.limit} monthly credits are left. Credits reset at ${b.resetsAt}.`,
      undefined,
      fields,
    ),
  );
}

/**
 * The onRequest hook for one route: `endpoint` names it in the ledger ("GET /v1/..."). A route
 * billed per unit (`perUnit`) holds nothing here: its units are known once its body is read,
 * and `holdUnits` holds them then.
 */
export function meteredRoute(deps: MeteringDeps, cost: number, endpoint: string, perUnit = false) {
  // Callback style, not async: this runs on every API request.
  return function gate(req: FastifyRequest, reply: FastifyReply, done: Done) {
    const key = verifyBearer(deps.keys, req);
    if (!key) {
      sendProblem(req, reply, invalidKey());
      return; // the reply is sent: Fastify stops here without done()
    }
    req.apiKey = key;
    const plan = planOf(key.plan);
    const rate = deps.limiter.take(key.keyId, plan.rate);
    reply.header("RateLimit-Policy", policyOf(plan));
    reply.header("RateLimit", rateHeader(rate));
    if (!rate.allowed) {
      creditHeaders(reply, plan.id, deps.ledger.balance(key.accountId, plan), 0);
      const wait = rate.retryAfter;
      sendProblem(
        req,
        reply,
        new ApiProblem(
          429,
          "rate_limited",
          `This key may make ${plan.rate.burst} calls at once and ${plan.rate.perSecond} per second after that. Try again in ${wait} s.`,
          undefined,
          { retry_after_seconds: wait },
          { "Retry-After": String(wait) },
        ),
      );
      return;
    }
    req.meteredEndpoint = endpoint;
    if (perUnit) return done();
    const hold = deps.ledger.hold(key.accountId, plan, cost);
    if (!hold) {
      creditsExhausted(req, reply, deps, plan, key.accountId, cost);
      return;
    }
    req.creditHold = hold;
    done();
  };
}

/**
 * The preHandler hook of a route billed per unit: holds `units(body)` x `cost` credits once the
 * body has been validated, or answers 402 when the balance cannot cover them.
 */
export function holdUnits(deps: MeteringDeps, cost: number, units: (body: unknown) => number) {
  return function holdForUnits(req: FastifyRequest, reply: FastifyReply, done: Done) {
    const key = req.apiKey!;
    const plan = planOf(key.plan);
    const total = cost * units(req.body);
    const hold = deps.ledger.hold(key.accountId, plan, total);
    if (!hold) {
      creditsExhausted(req, reply, deps, plan, key.accountId, total);
      return;
    }
    req.creditHold = hold;
    done();
  };
}

/**
 * Charges a successful call (2xx; a 304 is not one) and gives back the credits of anything
 * else, then writes the credit headers. Runs in onSend, when the final status is known.
 */
export function settleCredits(ledger: CreditLedger, req: FastifyRequest, reply: FastifyReply): void {
  const hold = req.creditHold;
  if (!hold) {
    // A call billed per unit refused before its units were held (its body did not validate)
    // still says where the account stands, like every other authenticated answer.
    const key = req.apiKey;
    if (key && req.meteredEndpoint && !reply.hasHeader(CREDIT_HEADERS.limit)) {
      const plan = planOf(key.plan);
      creditHeaders(reply, plan.id, ledger.balance(key.accountId, plan), 0);
    }
    return;
  }
  if (hold.settled) return;
  const status = reply.statusCode;
  const charged = ledger.settle(
    hold,
    status >= 200 && status < 300,
    { keyId: req.apiKey!.keyId, endpoint: req.meteredEndpoint!, requestId: req.id },
    req.chargedCredits,
  );
  creditHeaders(reply, req.apiKey!.plan, hold.balance, charged);
}

/** A request abandoned before its answer gives its credits back. */
export function releaseCredits(ledger: CreditLedger, req: FastifyRequest): void {
  const hold = req.creditHold;
  if (hold && !hold.settled) ledger.settle(hold, false, { keyId: "", endpoint: "", requestId: "" });
}
