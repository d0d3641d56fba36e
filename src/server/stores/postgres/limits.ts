// Rate limits and the sign-up and log-in attempt counts in PostgreSQL, shared by every process:
// the same rules as the embedded store's (stores/sqlite/rate-limiter.ts, a token bucket per
// account, in rate_buckets under the account's id;
// stores/sqlite/attempt-limiter.ts, fixed windows), each update one statement, so processes
// never race on a count.
import type pg from "pg";
import type { Plan } from "../../auth/plans";
import { AUTH_LIMITS, type AttemptCounter, type AuthLimits } from "../../auth/ports";
import { type RateDecision, type RateLimits, rateDecision } from "../../credits/ports";

export class PgRateLimits implements RateLimits {
  constructor(
    private readonly pool: pg.Pool,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async take(bucketId: string, rate: Plan["rate"], weight = 1): Promise<RateDecision> {
    // The bucket refills from its last call to now, then gives `weight` tokens if it has them.
    // (The column is named key_id from when buckets were per key; it holds the bucket's id.)
    // Named, so each connection plans it once.
    const { rows } = await this.pool.query<{ tokens: number; allowed: boolean }>({
      name: "rate-take",
      text: `INSERT INTO rate_buckets AS b (key_id, tokens, at_ms, allowed)
         VALUES ($1, CASE WHEN $5::float8 <= $2::float8 THEN $2::float8 - $5::float8 ELSE $2::float8 END, $3, $5::float8 <= $2::float8)
       ON CONFLICT (key_id) DO UPDATE SET
         allowed = least($2, b.tokens + greatest(0, $3 - b.at_ms) / 1000.0 * $4) >= $5,
         tokens = least($2, b.tokens + greatest(0, $3 - b.at_ms) / 1000.0 * $4)
                  - CASE WHEN least($2, b.tokens + greatest(0, $3 - b.at_ms) / 1000.0 * $4) >= $5 THEN $5 ELSE 0 END,
         at_ms = greatest(b.at_ms, $3)
       RETURNING tokens, allowed`,
      values: [bucketId, rate.burst, this.nowMs(), rate.perSecond, weight],
    });
    const { tokens, allowed } = rows[0];
    return rateDecision(allowed, tokens, rate, weight);
  }
}

/**
 * A counter's key as stored: an email typed into a form may hold a NUL character, which
 * PostgreSQL's text cannot; it is counted under U+FFFD instead (a count shared with the same
 * address spelt with U+FFFD is no loss).
 */
const storedKey = (key: string) => key.replaceAll("\0", "\uFFFD");

export class PgAttemptCounter implements AttemptCounter {
  constructor(
    private readonly pool: pg.Pool,
    /** Which counter this is (each has its own rows). */
    private readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async retryAfter(key: string): Promise<number> {
    key = storedKey(key);
    const now = this.nowMs();
    const { rows } = await this.pool.query<{ count: number; reset_at_ms: string }>(
      "SELECT count, reset_at_ms FROM attempt_windows WHERE counter = $1 AND key = $2 AND reset_at_ms > $3",
      [this.name, key, now],
    );
    const w = rows[0];
    return w && w.count >= this.limit ? Math.max(1, Math.ceil((Number(w.reset_at_ms) - now) / 1000)) : 0;
  }

  async record(key: string): Promise<void> {
    key = storedKey(key);
    const now = this.nowMs();
    await this.pool.query(
      `INSERT INTO attempt_windows AS w (counter, key, count, reset_at_ms) VALUES ($1, $2, 1, $3::bigint + $4::bigint)
       ON CONFLICT (counter, key) DO UPDATE SET
         count = CASE WHEN w.reset_at_ms <= $3::bigint THEN 1 ELSE w.count + 1 END,
         reset_at_ms = CASE WHEN w.reset_at_ms <= $3::bigint THEN $3::bigint + $4::bigint ELSE w.reset_at_ms END`,
      [this.name, key, now, this.windowMs],
    );
  }

  async reset(key: string): Promise<void> {
    key = storedKey(key);
    await this.pool.query("DELETE FROM attempt_windows WHERE counter = $1 AND key = $2", [this.name, key]);
  }

  /** Deletes windows that have ended (the table would otherwise keep every address ever seen). */
  async prune(): Promise<void> {
    await this.pool.query("DELETE FROM attempt_windows WHERE counter = $1 AND reset_at_ms <= $2", [this.name, this.nowMs()]);
  }
}

/** The limits of the sign-up and log-in forms (AUTH_LIMITS), counted in PostgreSQL. */
export function pgAuthLimits(pool: pg.Pool, nowMs: () => number = Date.now): AuthLimits & Record<keyof AuthLimits, PgAttemptCounter> {
  const counter = (name: keyof typeof AUTH_LIMITS) =>
    new PgAttemptCounter(pool, name, AUTH_LIMITS[name].limit, AUTH_LIMITS[name].windowMs, nowMs);
  return {
    signUpPerIp: counter("signUpPerIp"),
    signUpPerEmail: counter("signUpPerEmail"),
    logInPerIp: counter("logInPerIp"),
    logInFailuresPerEmail: counter("logInFailuresPerEmail"),
  };
}
