// The OpenAPI 3.1 document at /v1/openapi.json, as @fastify/swagger builds it from the registered
// routes: the same schemas Fastify validates requests and serialises answers with. The shared
// records, registered once by `$id` (contract/shared-schemas.ts), are its components.schemas.
// What the routes' schemas do not carry is added here: each operation's credit cost, the
// problems it can answer with their headers, the API decisions, the server and the security scheme.
import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import { DECISIONS_MARKDOWN } from "./api-decisions";
import { CREDIT_HEADERS } from "../../contract/credit-fields";
import type { Operation } from "../../contract/operation";
import { Problem } from "../../contract/problem";
import { DEFAULT_BODY_LIMIT } from "../../contract/operation";

/** Headers on every answer (`required`: the service always sends them). */
const REQUEST_ID_HEADER = {
  "X-Request-Id": { required: true, schema: { type: "string" }, description: "Names the request; the same as `request_id` in a problem." },
};

/** On every answer of an operation: which snapshot answered. */
const SNAPSHOT_HEADER = {
  "X-Snapshot-Id": {
    required: true,
    schema: { type: "string" },
    description: "The snapshot that answered (a service switches to a newly published snapshot without restarting: docs/deployment.md).",
  },
};

/** Headers on every answer to a call with a valid key (errors, 304, 402 and 429 included). */
const METERING_HEADERS = {
  ...REQUEST_ID_HEADER,
  [CREDIT_HEADERS.plan]: { required: true, schema: { type: "string" }, description: "The key's plan, e.g. `explorer`." },
  [CREDIT_HEADERS.limit]: { required: true, schema: { type: "integer" }, description: "The plan's credits per month." },
  [CREDIT_HEADERS.remaining]: { required: true, schema: { type: "integer" }, description: "Credits left this period, after this call." },
  [CREDIT_HEADERS.charged]: { required: true, schema: { type: "integer" }, description: "What this call cost (0 for errors and 304)." },
  [CREDIT_HEADERS.reset]: {
    required: true,
    schema: { type: "string", format: "date-time" },
    description: "When the credits reset (00:00 UTC on the 1st).",
  },
  "RateLimit-Policy": { required: true, schema: { type: "string" }, description: 'The key\'s token bucket, e.g. `"burst";q=60;w=6`.' },
  RateLimit: {
    required: true,
    schema: { type: "string" },
    description: 'Calls left now and seconds until the bucket is full, e.g. `"burst";r=41;t=2`.',
  },
};

/** Conditional GETs: every successful GET carries one (http/etag.ts). */
const ETAG_HEADER = {
  ETag: { required: true, schema: { type: "string" }, description: "Send back in If-None-Match to get 304 when unchanged." },
};

const PROBLEM_CONTENT = { "application/problem+json": { schema: { $ref: `#/components/schemas/${Problem.$id}` } } };

const problem = (description: string, headers: Record<string, unknown> = METERING_HEADERS) => ({
  description,
  headers,
  content: PROBLEM_CONTENT,
});

/** What the document says of a route beyond its schemas: its operation's words and cost (api-route.ts puts it in the route's config). */
export type RouteDoc = Pick<
  Operation,
  "name" | "method" | "cost" | "costPer" | "body" | "bodyLimit" | "tag" | "summary" | "description" | "notFound" | "badRequest"
>;

declare module "fastify" {
  interface FastifyContextConfig {
    /** A route of the public API: how the OpenAPI document describes it. */
    apiDoc?: RouteDoc;
  }
}

/** A response as the document states it (description, headers, content). */
type ResponseObject = Record<string, unknown>;

/**
 * The answers a route can give, and only those: 304 for GETs, 400 where the route takes
 * inputs, 402 where a call costs credits (free calls are never refused for credits), 404 for a
 * snapshot not kept (every operation takes `snapshot` and `as_of`) and where it names what can be
 * missing (Operation.notFound), 413 and 415 where it takes a body. 401,
 * 429 and 500 can answer any call. `ok` is the 200 as @fastify/swagger built it from the route's
 * response schema.
 */
function responses(operation: RouteDoc, ok: ResponseObject): Record<string, unknown> {
  const out: Record<string, unknown> = {
    "200": {
      description: "OK",
      headers:
        operation.method === "GET"
          ? { ...ETAG_HEADER, ...SNAPSHOT_HEADER, ...METERING_HEADERS }
          : { ...SNAPSHOT_HEADER, ...METERING_HEADERS },
      content: ok.content,
    },
  };
  if (operation.method === "GET") {
    out["304"] = { description: "Not modified (If-None-Match matched). Free.", headers: { ...ETAG_HEADER, ...METERING_HEADERS } };
  }
  const { notFound, badRequest } = operation;
  // Every operation takes a query (the snapshot selectors at least).
  out["400"] = problem(`Validation failed (\`validation_failed\`)${badRequest ? `, or ${badRequest}` : ""}.`);
  out["401"] = problem("Missing, malformed, unknown or revoked API key (`invalid_api_key`).", {
    ...REQUEST_ID_HEADER,
    "WWW-Authenticate": { required: true, schema: { type: "string" }, description: "`Bearer` with the error, as RFC 6750 says." },
  });
  if (operation.cost > 0) {
    out["402"] = problem("The call costs more credits than are left this period (`credits_exhausted`, with `resets_at`). Free.");
  }
  // Every operation takes the snapshot selectors, so every one can answer snapshot_not_found.
  const notKept = "a `snapshot` not kept, or an `as_of` before every snapshot kept (`snapshot_not_found`, listing those kept). Free";
  out["404"] = problem(notFound ? `${notFound} (\`not_found\`); or ${notKept}.` : `${notKept[0].toUpperCase()}${notKept.slice(1)}.`);
  if (operation.body) {
    out["413"] = problem(`Body larger than ${(operation.bodyLimit ?? DEFAULT_BODY_LIMIT) / 1024} KiB (\`payload_too_large\`).`);
    out["415"] = problem("Body is not application/json (`unsupported_media_type`).");
  }
  out["429"] = problem("Too many calls with this key (`rate_limited`); `Retry-After` says when to try again. Free.", {
    ...METERING_HEADERS,
    "Retry-After": { required: true, schema: { type: "integer" }, description: "Seconds to wait before the next call." },
  });
  out["500"] = problem("An unexpected failure in the service (`internal`); quote `request_id` when reporting it.");
  out["503"] = problem(
    "The service cannot reach its account store just now (`service_unavailable`); `Retry-After` says when to try again. Free.",
    {
      ...REQUEST_ID_HEADER,
      "Retry-After": { required: true, schema: { type: "integer" }, description: "Seconds to wait before the next call." },
    },
  );
  return out;
}

/** What the document says an operation costs, in words. */
function costText({ cost, costPer }: RouteDoc): string {
  return `Cost: ${cost} credit${cost === 1 ? "" : "s"}${costPer ? ` per ${costPer}` : ""}.`;
}

type OperationObject = Record<string, unknown> & { operationId?: string; responses?: Record<string, ResponseObject> };

/**
 * The @fastify/swagger options for the public API's document. Only the routes that carry an
 * `apiDoc` (api-route.ts) are published; any other route of the plugin (the document's own) is hidden.
 */
export function openApiOptions(): FastifyDynamicSwaggerOptions {
  const docs = new Map<string, RouteDoc>();
  return {
    openapi: {
      openapi: "3.1.0",
      info: { title: "Property Intelligence API", version: "1.0.0", description: DECISIONS_MARKDOWN },
      servers: [{ url: "/", description: "This service" }],
      security: [{ bearerAuth: [] }],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "API key: `Authorization: Bearer propi_live_...`." },
        },
      },
    },
    // Paths stay whole (`/v1/...`), as the operations name them.
    stripBasePath: false,
    // `const` is published as written (JSON Schema 2020-12 has it).
    convertConstToEnum: false,
    // A shared record is named in components.schemas by its `$id`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === "string" ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const doc = route.config?.apiDoc;
      if (!doc) return { schema: { ...schema, hide: true }, url };
      docs.set(doc.name, doc);
      return {
        schema: {
          ...schema,
          operationId: doc.name,
          tags: [doc.tag],
          summary: doc.summary,
          description: `${doc.description}\n\n${costText(doc)}`,
          "x-credit-cost": doc.cost,
          ...(doc.costPer ? { "x-credit-cost-per": doc.costPer } : {}),
        },
        url,
      };
    },
    transformObject: (document) => {
      if (!("openapiObject" in document)) throw new Error("The API's document is OpenAPI 3");
      const { openapiObject } = document;
      for (const item of Object.values(openapiObject.paths ?? {})) {
        for (const op of Object.values(item as Record<string, OperationObject>)) {
          const doc = op.operationId === undefined ? undefined : docs.get(op.operationId);
          if (!doc || !op.responses) continue;
          op.responses = responses(doc, op.responses["200"]) as Record<string, ResponseObject>;
          // Path parameters first, as a path reads (the plugin lists the query's first).
          if (Array.isArray(op.parameters)) {
            const params = op.parameters as { in?: string }[];
            op.parameters = [...params.filter((p) => p.in === "path"), ...params.filter((p) => p.in !== "path")];
          }
        }
      }
      return openapiObject;
    },
  };
}
