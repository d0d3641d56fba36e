// Request ids and log hygiene.
import crypto from "node:crypto";

// A random per-process prefix and a counter: unique across processes and restarts, and
// cheaper than drawing random bytes on every request.
const PROCESS_PREFIX = crypto.randomBytes(5).toString("hex");
let counter = 0;

/** `req_` + 10 hex characters of process + a base-36 sequence number. */
export function newRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `req_${PROCESS_PREFIX}${counter.toString(36).padStart(6, "0")}`;
}

/** A key's prefix and whatever follows it, with its underscores written plainly or percent-encoded (%5F). */
const KEY_LIKE = /propi(?:_|%5f)(?:[A-Za-z0-9_]|%5f)+/gi;

/** Removes anything shaped like an API key, so a key pasted into a URL never reaches a log or an answer. */
export function redactKeys(text: string): string {
  return text.replace(KEY_LIKE, "propi_[redacted]");
}

/**
 * A value with every key-shaped string in it redacted, object member names included: for
 * answers that quote what the caller sent (problems, a batch's echoed inputs).
 */
export function redactKeysDeep<T>(value: T): T {
  if (typeof value === "string") return redactKeys(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactKeysDeep(v)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactKeys(k), redactKeysDeep(v)])) as T;
  }
  return value;
}
