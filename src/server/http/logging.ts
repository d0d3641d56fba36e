// The service's log configuration, in one place so tests check the same settings main uses.
// Keys must never reach a log: the Authorization header is redacted, and anything key-shaped
// in a URL (someone pasting a key into a query string) is masked.
import type { FastifyServerOptions } from "fastify";
import { redactKeys } from "./request-id";

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions["logger"] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: ["req.headers.authorization", "req.headers.cookie"],
    serializers: {
      req: (req: { method: string; url: string; id: unknown }) => ({
        method: req.method,
        url: redactKeys(req.url),
        request_id: req.id,
      }),
    },
  } as FastifyServerOptions["logger"];
}
