// The bearer check every API route runs first. Missing, malformed, unknown and revoked keys
// all get the same 401, so the answer never tells an attacker which it was. Keys are read
// from the Authorization header only: a key in the query string is never looked at.
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiProblem, sendProblem } from "../http/problem";
import type { KeyStore, VerifiedKey } from "./key-store";

declare module "fastify" {
  interface FastifyRequest {
    apiKey?: VerifiedKey;
  }
}

const INVALID = () =>
  new ApiProblem(
    401,
    "invalid_api_key",
    "Send a valid API key as 'Authorization: Bearer <key>'. Create one in your account's API keys area.",
    undefined,
    {},
    { "WWW-Authenticate": 'Bearer realm="propintel", error="invalid_token"' },
  );

export function bearerAuth(keys: KeyStore) {
  // Callback style, not async: this runs on every API request.
  return function authenticate(req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) {
    const header = req.headers.authorization;
    const match = typeof header === "string" ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
    const verified = match ? keys.verify(match[1]) : null;
    if (!verified) {
      sendProblem(req, reply, INVALID());
      return; // the reply is sent: Fastify stops here without done()
    }
    req.apiKey = verified;
    done();
  };
}
