// Which failures of a store (PostgreSQL) are outages (the database restarting, stopped, out of
// reach or too slow to answer) rather than bugs: the service answers those 503 with Retry-After
// and logs them as warnings with their cause, one line each.

/** Seconds a client is asked to wait after an outage answer (Retry-After). */
export const OUTAGE_RETRY_AFTER_S = 5;

/** Node's socket errors that mean the database is out of reach. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * PostgreSQL's SQLSTATEs for the same: class 08 (connection exception), 57P01-57P03 (the
 * server shutting down or starting), 57014 (a statement cancelled by statement_timeout), 53300
 * (too many connections).
 */
const OUTAGE_STATES = new Set(["57P01", "57P02", "57P03", "57014", "53300"]);

/** node-postgres's own messages for a connection lost, a pool that could not connect in time, and a query that timed out. */
const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout/,
  /^Client has encountered a connection error/,
  /^Connection ended/,
];

/** An error-shaped value (not `instanceof Error`: errors from another realm, such as Node's own under a test runner, fail that). */
function errorLike(err: unknown): err is Error {
  return typeof err === "object" && err !== null && typeof (err as { message?: unknown }).message === "string";
}

export function isStoreOutage(err: unknown): boolean {
  if (!errorLike(err)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && (SOCKET_CODES.has(code) || OUTAGE_STATES.has(code) || code.startsWith("08"))) return true;
  if (PG_MESSAGES.some((m) => m.test(err.message))) return true;
  // An AggregateError (a host with several addresses, none answering) holds the socket errors.
  const inner = (err as { errors?: unknown[] }).errors;
  return Array.isArray(inner) && inner.length > 0 && inner.every(isStoreOutage);
}

/** The cause in one line, for the log: the error's code (if any) and message. */
export function outageCause(err: unknown): string {
  if (!errorLike(err)) return String(err);
  const code = (err as { code?: unknown }).code;
  const inner = (err as { errors?: unknown[] }).errors;
  const message = err.message || (Array.isArray(inner) && errorLike(inner[0]) ? inner[0].message : err.name);
  return typeof code === "string" ? `${code}: ${message}` : message;
}

/** What /healthz says of a store that can be out of reach; `cause` goes to the log only. */
export interface StoreHealth {
  kind: "postgresql";
  state: "ok" | "unavailable";
  cause?: string;
}
