// Request ids and log hygiene.
import crypto from "node:crypto";

/** `req_` + 16 hex characters: unique enough to find one request in the logs. */
export function newRequestId(): string {
  return "req_" + crypto.randomBytes(8).toString("hex");
}

const KEY_LIKE = /propi_[A-Za-z0-9_]+/g;

/** Removes anything shaped like an API key, so a key pasted into a URL never reaches a log. */
export function redactKeys(text: string): string {
  return text.replace(KEY_LIKE, "propi_[redacted]");
}
