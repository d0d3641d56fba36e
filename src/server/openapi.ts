// Generates the OpenAPI 3.1 document from the route definitions: the same schemas Fastify
// validates requests and serialises responses with. Records with a `$id` become named
// components, referenced wherever they appear.
import type { TSchema } from "@sinclair/typebox";
import { openApiPath, type RouteDef } from "./http/route-def";
import { DECISIONS_MARKDOWN } from "./api-decisions";
import { CREDIT_UNITS, type OperationName } from "../shared/contract/credit-costs";

/** Headers on every answer (`required`: the service always sends them). */
const REQUEST_ID_HEADER = {
  "X-Request-Id": { required: true, schema: { type: "string" }, description: "Names the request; the same as `request_id` in a problem." },
};

/** Headers on every answer to a call with a valid key (errors, 304, 402 and 429 included). */
const METERING_HEADERS = {
  ...REQUEST_ID_HEADER,
  "X-Credits-Plan": { required: true, schema: { type: "string" }, description: "The key's plan, e.g. `explorer`." },
  "X-Credits-Limit": { required: true, schema: { type: "integer" }, description: "The plan's credits per month." },
  "X-Credits-Remaining": { required: true, schema: { type: "integer" }, description: "Credits left this period, after this call." },
  "X-Credits-Charged": { required: true, schema: { type: "integer" }, description: "What this call cost (0 for errors and 304)." },
  "X-Credits-Reset": { required: true, schema: { type: "string", format: "date-time" }, description: "When the credits reset (00:00 UTC on the 1st)." },
  "RateLimit-Policy": { required: true, schema: { type: "string" }, description: 'The key\'s token bucket, e.g. `"burst";q=60;w=6`.' },
  RateLimit: { required: true, schema: { type: "string" }, description: 'Calls left now and seconds until the bucket is full, e.g. `"burst";r=41;t=2`.' },
};

/** Conditional GETs: every successful GET carries one (http/etag.ts). */
const ETAG_HEADER = {
  ETag: { required: true, schema: { type: "string" }, description: "Send back in If-None-Match to get 304 when unchanged." },
};

const PROBLEM_CONTENT = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };

const problem = (description: string, headers: Record<string, unknown> = METERING_HEADERS) => ({
  description,
  headers,
  content: PROBLEM_CONTENT,
});

/**
 * The answers a route can give, and only those: 304 for GETs, 400 where the route takes
 * inputs, 402 where a call costs credits (free calls are never refused for credits), 404 where
 * it names what can be missing (RouteDef.notFound), 413 and 415 where it takes a body. 401,
 * 429 and 500 can answer any call.
 */
function responses(route: RouteDef, components: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    "200": {
      description: "OK",
      headers: route.method === "GET" ? { ...ETAG_HEADER, ...METERING_HEADERS } : METERING_HEADERS,
      content: { "application/json": { schema: componentize(route.response, components) } },
    },
  };
  if (route.method === "GET") {
    out["304"] = { description: "Not modified (If-None-Match matched). Free.", headers: { ...ETAG_HEADER, ...METERING_HEADERS } };
  }
  if (route.params || route.querystring || route.body) {
    out["400"] = problem(`Validation failed (\`validation_failed\`)${route.badRequest ? `, or ${route.badRequest}` : ""}.`);
  }
  out["401"] = problem("Missing, malformed, unknown or revoked API key (`invalid_api_key`).", {
    ...REQUEST_ID_HEADER,
    "WWW-Authenticate": { required: true, schema: { type: "string" }, description: "`Bearer` with the error, as RFC 6750 says." },
  });
  if (route.cost > 0) {
    out["402"] = problem("The call costs more credits than are left this period (`credits_exhausted`, with `resets_at`). Free.");
  }
  if (route.notFound) out["404"] = problem(`${route.notFound} (\`not_found\`).`);
  if (route.body) {
    out["413"] = problem("Body larger than 64 KiB (`payload_too_large`).");
    out["415"] = problem("Body is not application/json (`unsupported_media_type`).");
  }
  out["429"] = problem("Too many calls with this key (`rate_limited`); `Retry-After` says when to try again. Free.", {
    ...METERING_HEADERS,
    "Retry-After": { required: true, schema: { type: "integer" }, description: "Seconds to wait before the next call." },
  });
  out["500"] = problem("An unexpected failure in the service (`internal`); quote `request_id` when reporting it.");
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
  add("path", route.params);
  add("query", route.querystring);
  return out;
}

export function buildOpenApi(routes: RouteDef[]) {
  const components: Record<string, unknown> = {
    Problem: {
      type: "object",
      description: "RFC 9457 problem details.",
      required: ["type", "title", "status", "detail", "code", "request_id"],
      properties: {
        type: { type: "string" },
        title: { type: "string" },
        status: { type: "integer" },
        detail: { type: "string" },
        code: { type: "string", description: "Stable, snake_case error code." },
        request_id: { type: "string" },
        errors: {
          type: "array",
          description: "What failed validation, one entry a field.",
          items: {
            type: "object",
            required: ["pointer", "detail"],
            properties: {
              pointer: { type: "string", description: "JSON pointer to the field in the query, path or body." },
              parameter: { type: "string", description: "The query or path parameter, for those." },
              detail: { type: "string" },
            },
          },
        },
        valid_values: { type: "array", items: { type: "string" }, description: "404 for an unknown asset or company type: the valid ones." },
        unknown_ids: { type: "array", items: { type: "string" }, description: "404 from compare: the ids not in the snapshot." },
        asset_type: { type: "string", description: "400 `unsupported_filter`: the asset type searched." },
        supported_filters: { type: "array", items: { type: "string" }, description: "400 `unsupported_filter`: the inputs the asset type supports." },
        cost: { type: "integer", description: "402: what the call costs." },
        credits_remaining: { type: "integer", description: "402: credits left this period." },
        credits_limit: { type: "integer", description: "402: the plan's credits per month." },
        resets_at: { type: "string", format: "date-time", description: "402: when the credits reset." },
        retry_after_seconds: { type: "integer", description: "429: seconds to wait, as `Retry-After` says." },
        parameter: { type: "string", description: "400 place problems: the parameter that named the place." },
        place: { type: "string", description: "400 place problems: the place as given." },
        suggestions: {
          type: "array",
          items: { type: "string" },
          description: "400 `unknown_place`, `ambiguous_place`, `unsupported_place`: up to three places the snapshot holds that may have been meant, each usable as given.",
        },
        accepted_kinds: { type: "array", items: { type: "string" }, description: "400 `unsupported_place`: the kinds of place the endpoint takes." },
        match_count: { type: "integer", description: "400 `ambiguous_place`: how many places the name matched." },
        candidate_count: { type: "integer", description: "400 `ambiguous_name`: how many companies the name matched." },
        candidates: {
          type: "array",
          description: "400 `ambiguous_name`: the companies the name matched, largest first (at most five).",
          items: {
            type: "object",
            required: ["id", "name", "property_count"],
            properties: { id: { type: "string" }, name: { type: "string" }, property_count: { type: "integer" } },
          },
        },
      },
    },
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const unit = CREDIT_UNITS[route.operationId as OperationName];
    const op: Record<string, unknown> = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      description: `${route.description}\n\nCost: ${route.cost} credit${route.cost === 1 ? "" : "s"}${unit ? ` per ${unit}` : ""}.`,
      "x-credit-cost": route.cost,
      ...(unit ? { "x-credit-cost-per": unit } : {}),
      parameters: parameters(route, components),
      responses: responses(route, components),
    };
    if (route.body) {
      op.requestBody = { required: true, content: { "application/json": { schema: componentize(route.body, components) } } };
    }
    (paths[openApiPath(route.url)] ??= {})[route.method.toLowerCase()] = op;
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
