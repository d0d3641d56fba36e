// The service's stores on PostgreSQL (DATABASE_URL), shared by every service process: one
// connection pool per process, the schema migrated at start, and the same ports the SQLite
// adapter implements (auth/ports.ts, credits/ports.ts).
import pg from "pg";
import { type StoreHealth, isStoreOutage, outageCause } from "../../db/store-outage";
import type { ServiceStores } from "../service-stores";
import { PgAccounts } from "./accounts";
import { PgCredits } from "./credits";
import { PgKeys } from "./keys";
import { pgAuthLimits, PgRateLimits } from "./limits";
import { migrate } from "./migrations";
import { PgSessions } from "./sessions";

/** Connections per process and pool (two pools): the API's hot path holds one per request for one statement. */
export const POOL_SIZE = 10;
/** How long a process waits for a connection (a new one, or a free one of its pool) before the call fails as an outage. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 3000;
/** How long one statement may run: the server cancels it after this, and the client gives up on an answer 1 s later. */
export const DEFAULT_QUERY_TIMEOUT_MS = 5000;
/** How often each process deletes ended sign-up and log-in windows (they would pile up otherwise). */
const PRUNE_ATTEMPTS_MS = 10 * 60_000;

export interface PostgresStoreOptions {
  connectionString: string;
  pepper: Buffer;
  now?: () => Date;
  /** How often each process looks for keys revoked and plans changed elsewhere (default 1000 ms). */
  keyPollMs?: number;
  onError?: (err: unknown) => void;
  /** PG_CONNECT_TIMEOUT_MS (DEFAULT_CONNECT_TIMEOUT_MS unless given). */
  connectTimeoutMs?: number;
  /** PG_QUERY_TIMEOUT_MS (DEFAULT_QUERY_TIMEOUT_MS unless given). */
  queryTimeoutMs?: number;
}

export interface PostgresStores extends ServiceStores {
  accounts: PgAccounts;
  keys: PgKeys;
  authLimits: ReturnType<typeof pgAuthLimits>;
  pool: pg.Pool;
  /** Whether the database answers now (one bounded `SELECT 1`). */
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}

/**
 * Every pool's bounds, so no call waits on the database for long: a connection (new, or a free
 * one of the pool) within the connect timeout, and each statement within the query timeout,
 * enforced by the server (statement_timeout, for a slow statement) and by the client
 * (query_timeout, for a server that stopped answering altogether). TCP keepalive notices a
 * connection whose server went away without closing it.
 */
export function poolBounds(opts: Pick<PostgresStoreOptions, "connectTimeoutMs" | "queryTimeoutMs">) {
  const queryTimeoutMs = opts.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  return {
    connectionTimeoutMillis: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs + 1000,
    keepAlive: true,
  };
}

export async function openPostgresStores(opts: PostgresStoreOptions): Promise<PostgresStores> {
  const onError = opts.onError ?? (() => {});
  const bounds = poolBounds(opts);
  const pool = new pg.Pool({ connectionString: opts.connectionString, max: POOL_SIZE, application_name: "propintel", ...bounds });
  // Rate limits and attempt counts need not survive a crash of the database server, so their
  // commits do not wait for the disk (which would hold each key's bucket row locked meanwhile).
  const counters = new pg.Pool({
    connectionString: opts.connectionString,
    max: POOL_SIZE,
    application_name: "propintel-counters",
    options: "-c synchronous_commit=off",
    ...bounds,
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
    accounts: new PgAccounts(pool, now, (accountId) => keys.dropAccount(accountId)),
    keys,
    sessions: new PgSessions(pool, now),
    authLimits,
    credits,
    rateLimits: new PgRateLimits(counters, nowMs),
    pool,
    health: async () => {
      try {
        await pool.query("SELECT 1");
        return { kind: "postgresql", state: "ok" };
      } catch (err) {
        if (!isStoreOutage(err)) throw err;
        return { kind: "postgresql", state: "unavailable", cause: outageCause(err) };
      }
    },
    close: async () => {
      keys.stop();
      clearInterval(pruner);
      await credits.flush();
      await Promise.all([pool.end(), counters.end()]);
    },
  };
}
