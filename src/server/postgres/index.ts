// The service's stores on PostgreSQL (DATABASE_URL), shared by every service process: one
// connection pool per process, the schema migrated at start, and the same interfaces the
// SQLite stores implement (auth/stores.ts, credits/stores.ts).
import pg from "pg";
import type { ApiKeys, Sessions } from "../auth/stores";
import type { Credits, RateLimits } from "../credits/stores";
import { PgCredits } from "./credits";
import { PgKeys } from "./keys";
import { pgAuthLimits, PgRateLimits } from "./limits";
import { migrate } from "./migrations";
import { PgSessions } from "./sessions";

/** Connections per process and pool (two pools): the API's hot path holds one per request for one statement. */
export const POOL_SIZE = 10;
/** How often each process deletes ended sign-up and log-in windows (they would pile up otherwise). */
const PRUNE_ATTEMPTS_MS = 10 * 60_000;

export interface PostgresStoreOptions {
  connectionString: string;
  pepper: Buffer;
  now?: () => Date;
  /** How often each process looks for keys revoked and plans changed elsewhere (default 1000 ms). */
  keyPollMs?: number;
  onError?: (err: unknown) => void;
}

export interface PostgresStores {
  keys: ApiKeys & PgKeys;
  sessions: Sessions;
  authLimits: ReturnType<typeof pgAuthLimits>;
  credits: Credits;
  rateLimits: RateLimits;
  pool: pg.Pool;
  close(): Promise<void>;
}

export async function openPostgresStores(opts: PostgresStoreOptions): Promise<PostgresStores> {
  const onError = opts.onError ?? (() => {});
  const pool = new pg.Pool({ connectionString: opts.connectionString, max: POOL_SIZE, application_name: "propintel" });
  // Rate limits and attempt counts need not survive a crash of the database server, so their
  // commits do not wait for the disk (which would hold each key's bucket row locked meanwhile).
  const counters = new pg.Pool({
    connectionString: opts.connectionString,
    max: POOL_SIZE,
    application_name: "propintel-counters",
    options: "-c synchronous_commit=off",
  });
  // An idle connection the server drops (a restart, a network blip) must not crash the process.
  pool.on("error", onError);
  counters.on("error", onError);
  try {
    await migrate(pool);
  } catch (err) {
    await Promise.all([pool.end(), counters.end()]);
    throw err;
  }
  const now = opts.now;
  const nowMs = now ? () => now().getTime() : Date.now;
  const keys = new PgKeys(pool, opts.pepper, now, onError);
  await keys.start(opts.keyPollMs);
  const credits = new PgCredits(pool, now, onError);
  const authLimits = pgAuthLimits(counters, nowMs);
  const pruner = setInterval(() => {
    for (const counter of Object.values(authLimits)) counter.prune().catch(onError);
  }, PRUNE_ATTEMPTS_MS);
  pruner.unref();
  return {
    keys,
    sessions: new PgSessions(pool, now),
    authLimits,
    credits,
    rateLimits: new PgRateLimits(counters, nowMs),
    pool,
    close: async () => {
      keys.stop();
      clearInterval(pruner);
      await credits.flush();
      await Promise.all([pool.end(), counters.end()]);
    },
  };
}
