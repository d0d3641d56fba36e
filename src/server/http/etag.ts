// Conditional GETs: every successful GET carries a strong ETag, computed from its body unless
// the route already set one (a stored property document's, see SnapshotContext.docEtag), and a
// matching If-None-Match gets 304 with no body. A refresh of unchanged data therefore moves
// no data and (see the credits hook) costs nothing.
//
// Hand-written rather than @fastify/etag: a route may bring its own ETag (a stored document's,
// known without hashing the body), and a 304 must be settled as a free call by the credit hook
// that runs in the same onSend.
import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

export function etagOf(payload: string | Buffer): string {
  // The one-shot hash avoids a Hash object per response (measurably cheaper on hot paths).
  return `"${crypto.hash("sha1", payload, "base64url")}"`;
}

function matches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  const weak = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => weak(t) === weak(etag));
}

export function conditionalGet(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (req.method !== "GET" || reply.statusCode !== 200) return payload;
  if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
  let etag = reply.getHeader("etag") as string | undefined;
  if (etag === undefined) {
    etag = etagOf(payload);
    reply.header("ETag", etag);
  }
  reply.header("Cache-Control", "private, no-cache");
  const inm = req.headers["if-none-match"];
  if (typeof inm === "string" && matches(inm, etag)) {
    reply.code(304);
    reply.removeHeader("content-type");
    reply.removeHeader("content-length");
    return "";
  }
  return payload;
}
