// The service's stores on PostgreSQL (DATABASE_URL), shared by every service process: one
// connection pool per process, the schema migrated at start, and the same interfaces the
// SQLite stores implement (auth/stores.ts, credits/stores.ts).
import pg from "pg";
import type { ApiKeys, AuthLimits, Sessions } from "../auth/stores";
import type { Credits, RateLimits } from "../credits/stores";
import { PgCredits } from "./credits";
import { PgKeys } from "./keys";
import { pgAuthLimits, PgRateLimits } from "./limits";
import { migrate } from "./migrations";
import { PgSessions } from "./sessions";

/** Connections per process: the API's hot path holds one per request for one statement. */
export const POOL_SIZE = 10;

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
  authLimits: AuthLimits;
  credits: Credits;
  rateLimits: RateLimits;
  pool: pg.Pool;
  close(): Promise<void>;
}

export async function openPostgresStores(opts: PostgresStoreOptions): Promise<PostgresStores> {
  const onError = opts.onError ?? (() => {});
  const pool = new pg.Pool({ connectionString: opts.connectionString, max: POOL_SIZE, application_name: "propintel" });
  // An idle connection the server drops (a restart, a network blip) must not crash the process.
  pool.on("error", onError);
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  const now = opts.now;
  const nowMs = now ? () => now().getTime() : Date.now;
  const keys = new PgKeys(pool, opts.pepper, now, onError);
  await keys.start(opts.keyPollMs);
  const credits = new PgCredits(pool, now, onError);
  return {
    keys,
    sessions: new PgSessions(pool, now),
    authLimits: pgAuthLimits(pool, nowMs),
    credits,
    rateLimits: new PgRateLimits(pool, nowMs),
    pool,
    close: async () => {
      keys.stop();
      await credits.flush();
      await pool.end();
    },
  };
}
