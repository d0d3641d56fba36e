// Generates the OpenAPI 3.1 document from the route definitions: the same schemas Fastify
// validates requests and serialises responses with. Records with a `$id` become named
// components, referenced wherever they appear.
import type { TSchema } from "@sinclair/typebox";
import type { RouteDef } from "../routes/route-def";
import { DECISIONS_MARKDOWN } from "./api-decisions";
import { CREDIT_HEADERS } from "../../contract/credit-fields";
import { Problem } from "../../contract/problem";

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

/**
 * The answers a route can give, and only those: 304 for GETs, 400 where the route takes
 * inputs, 402 where a call costs credits (free calls are never refused for credits), 404 for a
 * snapshot not kept (every operation takes `snapshot` and `as_of`) and where it names what can be
 * missing (RouteDef.notFound), 413 and 415 where it takes a body. 401,
 * 429 and 500 can answer any call.
 */
function responses({ operation, notFound, badRequest }: RouteDef, components: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    "200": {
      description: "OK",
      headers:
        operation.method === "GET"
          ? { ...ETAG_HEADER, ...SNAPSHOT_HEADER, ...METERING_HEADERS }
          : { ...SNAPSHOT_HEADER, ...METERING_HEADERS },
      content: { "application/json": { schema: componentize(operation.response, components) } },
    },
  };
  if (operation.method === "GET") {
    out["304"] = { description: "Not modified (If-None-Match matched). Free.", headers: { ...ETAG_HEADER, ...METERING_HEADERS } };
  }
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
    out["413"] = problem("Body larger than 64 KiB (`payload_too_large`).");
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

function componentize(schema: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => componentize(s, components));
  if (!schema || typeof schema !== "object") return schema;
  const { $id, ...rest } = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) out[k] = componentize(v, components);
  if (typeof $id === "string") {
    components[$id] = out;
    return { $ref: `#/components/schemas/${$id}` };
  }
  return out;
}

function parameters(route: RouteDef, components: Record<string, unknown>) {
  const out: unknown[] = [];
  const add = (where: "path" | "query", schema: TSchema | undefined) => {
    if (!schema) return;
    const required = new Set<string>((schema.required as string[]) ?? []);
    for (const [name, s] of Object.entries(schema.properties as Record<string, TSchema>)) {
      out.push({
        name,
        in: where,
        required: where === "path" || required.has(name),
        description: s.description,
        schema: componentize(s, components),
      });
    }
  };
  add("path", route.operation.params);
  add("query", route.operation.query);
  return out;
}

export function buildOpenApi(routes: RouteDef[]) {
  const components: Record<string, unknown> = {};
  componentize(Problem, components);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const { operation } = route;
    const unit = operation.costPer;
    const op: Record<string, unknown> = {
      operationId: operation.name,
      tags: [route.tag],
      summary: route.summary,
      description: `${route.description}\n\nCost: ${operation.cost} credit${operation.cost === 1 ? "" : "s"}${unit ? ` per ${unit}` : ""}.`,
      "x-credit-cost": operation.cost,
      ...(unit ? { "x-credit-cost-per": unit } : {}),
      parameters: parameters(route, components),
      responses: responses(route, components),
    };
    if (operation.body) {
      op.requestBody = { required: true, content: { "application/json": { schema: componentize(operation.body, components) } } };
    }
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Property Intelligence API",
      version: "1.0.0",
      description: DECISIONS_MARKDOWN,
    },
    servers: [{ url: "/", description: "This service" }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "API key: `Authorization: Bearer propi_live_...`." },
      },
    },
  };
}
