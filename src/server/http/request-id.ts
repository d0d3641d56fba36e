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

const KEY_LIKE = /propi_[A-Za-z0-9_]+/g;

/** Removes anything shaped like an API key, so a key pasted into a URL never reaches a log. */
export function redactKeys(text: string): string {
  return text.replace(KEY_LIKE, "propi_[redacted]");
}
