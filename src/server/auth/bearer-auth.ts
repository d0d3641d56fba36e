// The bearer check every API call runs first. Missing, malformed, unknown and revoked keys
// all get the same 401, so the answer never tells an attacker which it was. Keys are read
// from the Authorization header only: a key in the query string is never looked at.
import type { FastifyRequest } from "fastify";
import { ApiProblem } from "../http/problem";
import type { MaybePromise } from "../db/maybe-promise";
import type { ApiKeys, VerifiedKey } from "./ports";

declare module "fastify" {
  interface FastifyRequest {
    apiKey?: VerifiedKey;
  }
}

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/** The key the request presents in `Authorization: Bearer`, verified; null for anything else. */
export function verifyBearer(keys: ApiKeys, req: FastifyRequest): MaybePromise<VerifiedKey | null> {
  const header = req.headers.authorization;
  const match = typeof header === "string" ? BEARER.exec(header) : null;
  return match ? keys.verify(match[1]) : null;
}

export const invalidKey = () =>
  new ApiProblem(
    401,
    "invalid_api_key",
    "Send a valid API key as 'Authorization: Bearer <key>'. Create one in your account's API keys area.",
    undefined,
    {},
    { "WWW-Authenticate": 'Bearer realm="propintel", error="invalid_token"' },
  );
