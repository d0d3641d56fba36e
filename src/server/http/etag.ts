// Conditional GETs, and the validators that make a refresh after a new snapshot bill only what
// changed. Every successful GET carries an ETag of its content: a keyed hash of the body without the
// snapshot ref it names (`"snapshot":{...}`), so an answer whose content a new snapshot left as it
// was keeps its validator, and a matching If-None-Match is a free 304 (the credits hook settles
// a 304 as free). A body holding no ref gets a strong ETag of its bytes; one whose ref was left
// out gets a weak one (W/), since the bytes differ where the ref does. A route may set its own
// (a market's leaves out the date its figures are as of: routes/markets.ts).
//
// Hand-written rather than @fastify/etag: routes bring their own validators, and a 304 must be
// settled as a free call by the credit hook that runs in the same onSend.
import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

export function etagOf(payload: string | Buffer): string {
  // The one-shot hash avoids a Hash object per response (measurably cheaper on hot paths).
  return `"${crypto.hash("sha1", payload, "base64url")}"`;
}

/**
 * Whether an If-None-Match value (one or more validators, or *) names `etag`, compared weakly as
 * RFC 9110 asks. "*" matches any current answer: right for a GET's header, whose 304 carries
 * nothing; the bodies' `if_none_match` (compare, markets batch) refuse it before asking here.
 */
export function etagMatches(header: string, etag: string): boolean {
  if (isWildcard(header)) return true;
  const weak = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => weak(t) === weak(etag));
}

/** Whether a validator is "*": any current representation, no particular one. */
export function isWildcard(validator: string): boolean {
  return validator.trim() === "*";
}

/** A weak validator of content that is equivalent, not byte-equal, wherever it is served again. */
export function weakEtagOf(content: string | Buffer): string {
  return `W/${etagOf(content)}`;
}

/**
 * The key of the service's opaque validators (a match answer's): derived from the server secret
 * that API keys are hashed with, so that secret itself serves no second purpose, and kept by no
 * client, so none can compute a validator for an answer it has not been given.
 */
export function validatorKey(serverSecret: Buffer): Buffer {
  return crypto.createHmac("sha256", serverSecret).update("propintel answer validators v1").digest();
}

/**
 * A weak validator of `content` that only the service can compute: an HMAC with `key`
 * (validatorKey). A plain hash of a small answer can be computed by anyone who guesses the
 * answer, and a matching If-None-Match would then confirm the guess for free.
 */
export function keyedEtagOf(key: Buffer, content: string): string {
  return `W/"${crypto.createHmac("sha256", key).update(content, "utf8").digest("base64url")}"`;
}

/**
 * The validator of an answer's content: `refMember` (the answering snapshot's ref as bodies
 * serialise it) left out when the body holds it, so the validator changes with the content only.
 * Keyed (an HMAC with `key`, validatorKey): a small answer (a page past the end of a list is
 * little more than its `total_count`) could otherwise be guessed, its hash computed, and the
 * guess confirmed by a free 304.
 */
export function contentEtag(payload: string | Buffer, refMember: string | undefined, key: Buffer): string {
  const text = typeof payload === "string" ? payload : null;
  const at = text !== null && refMember ? text.indexOf(refMember) : -1;
  if (at < 0) return `"${crypto.createHmac("sha256", key).update(payload).digest("base64url")}"`;
  return keyedEtagOf(key, text!.slice(0, at) + text!.slice(at + refMember!.length));
}

export function conditionalGet(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (req.method !== "GET" || reply.statusCode !== 200) return payload;
  if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
  let etag = reply.getHeader("etag") as string | undefined;
  if (etag === undefined) {
    etag = contentEtag(payload, req.snapshot?.refMember, req.server.validatorKey);
    reply.header("ETag", etag);
  }
  reply.header("Cache-Control", "private, no-cache");
  const inm = req.headers["if-none-match"];
  if (typeof inm === "string" && etagMatches(inm, etag)) {
    reply.code(304);
    reply.removeHeader("content-type");
    reply.removeHeader("content-length");
    return "";
  }
  return payload;
}
