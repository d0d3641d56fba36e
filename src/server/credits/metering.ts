// The gate in front of every API route: authenticate the key, apply its account's rate limit,
// hold the call's credits; and, once the answer is known, charge or give back what was held.
// Every authenticated answer (402 and 429 included) carries the credit and rate-limit headers.
//
// Rate limits are per account, not per key (an account may hold several keys, and each would
// otherwise multiply its allowance), and a call weighs what it asks: one token when it arrives,
// and a call that asks for much work in its body (a match request's rows) takes the rest of its
// weight once the body is read (`takeWeight`), before any of that work is done.
import type { FastifyReply, FastifyRequest } from "fastify";
import { invalidKey, verifyBearer } from "../auth/bearer-auth";
import type { ApiKeys, VerifiedKey } from "../auth/ports";
import { type MaybePromise, andThen } from "../db/maybe-promise";
import { ApiProblem, sendProblem } from "../http/problem";
import { CREDIT_HEADERS, type CreditsExhausted } from "../../contract/credit-fields";
import { MATCH_ROWS_PER_CALL } from "../../contract/property-match";
import type { Balance, Credits, Hold, RateDecision, RateLimits } from "./ports";
import { planOf, type Plan } from "../auth/plans";
import { policyHeader, rateHeader } from "./rate-headers";

declare module "fastify" {
  interface FastifyRequest {
    creditHold?: Hold;
    meteredEndpoint?: string;
    /** What a call billed per unit charges, set by its handler (at most what was held). */
    chargedCredits?: number;
    /**
     * A call priced per row (a match request): what each row costs, in order, set by its handler
     * with `chargedCredits` (their sum); a 402 says how many rows from the first the credits left cover.
     */
    rowCredits?: number[];
  }
}

export interface MeteringDeps {
  keys: ApiKeys;
  limiter: RateLimits;
  ledger: Credits;
}

type Done = (err?: Error) => void;

/** The status logged for a request whose client closed the connection before its answer (no client sees it). */
const CLIENT_CLOSED = 499;

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

const credits = (n: number) => `${n} credit${n === 1 ? "" : "s"}`;

/**
 * How many rows, from the first, `left` credits pay for when each row costs `rowCredits[i]`: the
 * longest run from the start whose cost fits (a row priced 0 is covered whenever the rows before it are).
 */
export function rowsCovered(rowCredits: readonly number[], left: number): number {
  let spent = 0;
  let n = 0;
  for (const c of rowCredits) {
    if (spent + c > left) break;
    spent += c;
    n++;
  }
  return n;
}

function creditsExhausted(req: FastifyRequest, reply: FastifyReply, plan: Plan, b: Balance, cost: number) {
  creditHeaders(reply, plan.id, b, 0);
  const left = Math.max(0, b.limit - b.used);
  const fields: CreditsExhausted = { cost, credits_remaining: left, credits_limit: b.limit, resets_at: b.resetsAt };
  let detail = `This call costs ${credits(cost)} and ${left} of the ${plan.name} plan's ${b.limit} monthly credits are left.`;
  const rows = req.rowCredits;
  if (rows) {
    const covered = (fields.rows_covered = rowsCovered(rows, left));
    detail =
      `This call costs ${credits(cost)} (one per row that names a property) and ${left} of the ${plan.name} plan's ` +
      `${b.limit} monthly credits are left: the ${credits(left)} left cover its first ${covered} of ${rows.length} rows` +
      (covered > 0 ? ": send those alone." : ".");
  }
  return sendProblem(req, reply, new ApiProblem(402, "credits_exhausted", `${detail} Credits reset at ${b.resetsAt}.`, undefined, fields));
}

/** One route's gate: what it charges and how. */
interface Gate {
  deps: MeteringDeps;
  cost: number;
  endpoint: string;
  perUnit: boolean;
}

/**
 * The onRequest hook for one route: `endpoint` names it in the ledger ("GET /v1/..."). A route
 * billed per unit (`perUnit`) holds nothing here: its units are known once its body is read,
 * and `holdUnits` holds them then. Each step takes the store's answer at once when it is a
 * value (SQLite) and waits for it when it is a promise (PostgreSQL); the steps are plain
 * functions, so the synchronous path allocates no closures.
 */
export function meteredRoute(deps: MeteringDeps, cost: number, endpoint: string, perUnit = false) {
  const gate: Gate = { deps, cost, endpoint, perUnit };
  return function meter(req: FastifyRequest, reply: FastifyReply, done: Done) {
    const key = verifyBearer(deps.keys, req);
    if (key instanceof Promise) key.then((k) => admitKey(gate, req, reply, done, k), done);
    else admitKey(gate, req, reply, done, key);
  };
}

function admitKey(gate: Gate, req: FastifyRequest, reply: FastifyReply, done: Done, key: VerifiedKey | null): void {
  if (!key) {
    sendProblem(req, reply, invalidKey());
    return; // the reply is sent: Fastify stops here without done()
  }
  req.apiKey = key;
  const plan = planOf(key.plan);
  const rate = gate.deps.limiter.take(key.accountId, plan.rate);
  if (rate instanceof Promise) rate.then((r) => admitRate(gate, req, reply, done, plan, r), done);
  else admitRate(gate, req, reply, done, plan, rate);
}

function admitRate(gate: Gate, req: FastifyRequest, reply: FastifyReply, done: Done, plan: Plan, rate: RateDecision): void {
  const key = req.apiKey!;
  reply.header("RateLimit-Policy", policyOf(plan));
  reply.header("RateLimit", rateHeader(rate));
  if (!rate.allowed) {
    const b = gate.deps.ledger.balance(key.accountId, plan);
    if (b instanceof Promise) b.then((balance) => rateLimited(req, reply, plan, balance, rate), done);
    else rateLimited(req, reply, plan, b, rate);
    return;
  }
  req.meteredEndpoint = gate.endpoint;
  if (gate.perUnit) return done();
  const hold = gate.deps.ledger.hold(key.accountId, plan, gate.cost, { keyId: key.keyId, endpoint: gate.endpoint, requestId: req.id });
  if (hold instanceof Promise) hold.then((h) => admitHold(gate.deps, req, reply, done, plan, h, gate.cost), done);
  else admitHold(gate.deps, req, reply, done, plan, hold, gate.cost);
}

function rateLimited(req: FastifyRequest, reply: FastifyReply, plan: Plan, balance: Balance, rate: RateDecision, weight = 1): void {
  creditHeaders(reply, plan.id, balance, 0);
  const wait = rate.retryAfter;
  const weighs = weight > 1 ? ` This call weighs ${weight} calls (one per started ${MATCH_ROWS_PER_CALL} rows).` : "";
  sendProblem(
    req,
    reply,
    new ApiProblem(
      429,
      "rate_limited",
      `This account (all its keys together) may make ${plan.rate.burst} calls at once and ${plan.rate.perSecond} per second after ` +
        `that; a match request weighs one call per started ${MATCH_ROWS_PER_CALL} rows.${weighs} Try again in ${wait} s.`,
      undefined,
      { retry_after_seconds: wait },
      { "Retry-After": String(wait) },
    ),
  );
}

/**
 * The rest of a call's weight (`weight` calls in all; the gate took the first when it arrived),
 * taken from its account's bucket once the body is read; then `next`. A bucket that cannot
 * cover it answers 429, the RateLimit field saying what is left.
 */
export function takeWeight(deps: MeteringDeps, req: FastifyRequest, reply: FastifyReply, weight: number, done: Done, next: () => void) {
  if (weight <= 1) return next();
  const key = req.apiKey!;
  const plan = planOf(key.plan);
  const rate = deps.limiter.take(key.accountId, plan.rate, weight - 1);
  const decide = (r: RateDecision) => {
    reply.header("RateLimit", rateHeader(r));
    if (r.allowed) return next();
    // Sent again, the call takes its whole weight (one when it arrives, the rest here): Retry-After says when the bucket holds it.
    r = { ...r, retryAfter: Math.max(1, Math.ceil((weight - r.remaining) / plan.rate.perSecond)) };
    const b = deps.ledger.balance(key.accountId, plan);
    if (b instanceof Promise) b.then((balance) => rateLimited(req, reply, plan, balance, r, weight), done);
    else rateLimited(req, reply, plan, b, r, weight);
  };
  if (rate instanceof Promise) rate.then(decide, done);
  else decide(rate);
}

/**
 * Whether the client closed its connection: its socket (or the response on it) is destroyed.
 * Not `req.raw.destroyed`: Node destroys a request once its body has been read, long before the
 * answer is sent, so a route that holds after reading its body (per unit) would see every client
 * as gone.
 */
function clientGone(req: FastifyRequest, reply: FastifyReply): boolean {
  return reply.raw.destroyed || req.raw.socket?.destroyed === true;
}

function admitHold(deps: MeteringDeps, req: FastifyRequest, reply: FastifyReply, done: Done, plan: Plan, hold: Hold | null, cost: number) {
  if (hold && clientGone(req, reply)) {
    // The client went away while a store answered: give the credits back, and end the request
    // without running its handler (no answer can reach the client). Ending it runs the API's
    // onSend hook, which gives the request's snapshot back.
    quietly(deps.ledger.settle(hold, false, { keyId: req.apiKey!.keyId, endpoint: req.meteredEndpoint ?? "", requestId: req.id }));
    req.creditHold = hold;
    reply.code(CLIENT_CLOSED).send();
    return;
  }
  if (hold) {
    req.creditHold = hold;
    return done();
  }
  const b = deps.ledger.balance(req.apiKey!.accountId, plan);
  if (b instanceof Promise) b.then((balance) => creditsExhausted(req, reply, plan, balance, cost), done);
  else creditsExhausted(req, reply, plan, b, cost);
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
    const hold = deps.ledger.hold(key.accountId, plan, total, { keyId: key.keyId, endpoint: req.meteredEndpoint!, requestId: req.id });
    if (hold instanceof Promise) hold.then((h) => admitHold(deps, req, reply, done, plan, h, total), done);
    else admitHold(deps, req, reply, done, plan, hold, total);
  };
}

/**
 * The preHandler step of a route priced by its answer (a match request): its handler has run
 * (plugins/api-route.ts) and set `chargedCredits` (and `rowCredits`), so exactly what the answer
 * costs is held, and a call the credits left can pay for is never refused. 402 otherwise, saying
 * what the call costs and, per row, how many rows the credits left cover.
 */
export function holdPriced(deps: MeteringDeps, req: FastifyRequest, reply: FastifyReply, done: Done) {
  const key = req.apiKey!;
  const plan = planOf(key.plan);
  const total = req.chargedCredits ?? 0;
  const hold = deps.ledger.hold(key.accountId, plan, total, { keyId: key.keyId, endpoint: req.meteredEndpoint!, requestId: req.id });
  if (hold instanceof Promise) hold.then((h) => admitHold(deps, req, reply, done, plan, h, total), done);
  else admitHold(deps, req, reply, done, plan, hold, total);
}

/** A settlement nobody waits for (the request is gone): its failure is the store's to log. */
function quietly(settled: MaybePromise<number>): void {
  if (settled instanceof Promise) settled.catch(() => {});
}

/**
 * Charges a successful call (2xx; a 304 is not one) and gives back the credits of anything
 * else, then writes the credit headers. Runs in onSend, when the final status is known; it
 * answers a promise only when it must read a balance from a store that answers with one.
 */
export function settleCredits(ledger: Credits, req: FastifyRequest, reply: FastifyReply): MaybePromise<void> {
  const hold = req.creditHold;
  if (!hold) {
    // A call billed per unit refused before its units were held (its body did not validate)
    // still says where the account stands, like every other authenticated answer.
    // Not when the store is what failed (503): asking it again would only fail again.
    const key = req.apiKey;
    if (key && req.meteredEndpoint && !reply.hasHeader(CREDIT_HEADERS.limit) && reply.statusCode !== 503) {
      const plan = planOf(key.plan);
      const headers = andThen(ledger.balance(key.accountId, plan), (b) => creditHeaders(reply, plan.id, b, 0));
      // The headers only inform: an answer is sent without them rather than turned into a failure.
      return headers instanceof Promise ? headers.catch(() => {}) : headers;
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
  // Waited for when the store gives credits back asynchronously: the answer leaves once the
  // account's next call would read the true balance.
  return andThen(charged, (c) => creditHeaders(reply, req.apiKey!.plan, hold.balance, c));
}

/** A request abandoned before its answer gives its credits back. */
export function releaseCredits(ledger: Credits, req: FastifyRequest): void {
  const hold = req.creditHold;
  if (hold && !hold.settled) quietly(ledger.settle(hold, false, { keyId: "", endpoint: "", requestId: "" }));
}
