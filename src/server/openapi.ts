// Generates the OpenAPI 3.1 document from the route definitions: the same schemas Fastify
// validates requests and serialises responses with. Records with a `$id` become named
// components, referenced wherever they appear.
import type { TSchema } from "@sinclair/typebox";
import { openApiPath, type RouteDef } from "./http/route-def";
import { DECISIONS_MARKDOWN } from "./api-decisions";
import { CREDIT_UNITS, type OperationName } from "../shared/contract/credit-costs";

const ERROR_STATUSES: Record<string, string> = {
  "400":
    "Validation failed (`validation_failed`, also for a range whose lower bound is above its upper bound), a filter the asset " +
    "type does not support (`unsupported_filter`), or a place the snapshot does not hold (`unknown_place`), names ambiguously " +
    "(`ambiguous_place`, `ambiguous_name`) or the endpoint cannot serve (`unsupported_place`): these carry `suggestions`. Free.",
  "401": "Missing, malformed, unknown or revoked API key (`invalid_api_key`).",
  "402": "The call costs more credits than are left this period (`credits_exhausted`, with `resets_at`). Free.",
  "404": "No such record, asset type, company type or geography (`not_found`).",
  "429": "Too many calls with this key (`rate_limited`); `Retry-After` says when to try again. Free.",
};

/** Headers on every answer to an authenticated call (errors, 402 and 429 included). */
const METERING_HEADERS = {
  "X-Request-Id": { schema: { type: "string" } },
  "X-Credits-Plan": { schema: { type: "string" }, description: "The key's plan, e.g. `explorer`." },
  "X-Credits-Limit": { schema: { type: "integer" }, description: "The plan's credits per month." },
  "X-Credits-Remaining": { schema: { type: "integer" }, description: "Credits left this period, after this call." },
  "X-Credits-Charged": { schema: { type: "integer" }, description: "What this call cost (0 for errors and 304)." },
  "X-Credits-Reset": { schema: { type: "string", format: "date-time" }, description: "When the credits reset (00:00 UTC on the 1st)." },
  "RateLimit-Policy": { schema: { type: "string" }, description: 'The key\'s token bucket, e.g. `"burst";q=60;w=6`.' },
  RateLimit: { schema: { type: "string" }, description: 'Calls left now and seconds until the bucket is full, e.g. `"burst";r=41;t=2`.' },
};

const PROBLEM_CONTENT = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };

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
          items: {
            type: "object",
            properties: { pointer: { type: "string" }, parameter: { type: "string" }, detail: { type: "string" } },
          },
        },
      },
    },
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {
      "200": {
        description: "OK",
        headers: {
          ETag: { schema: { type: "string" }, description: "Send back in If-None-Match to get 304 when unchanged." },
          ...METERING_HEADERS,
        },
        content: { "application/json": { schema: componentize(route.response, components) } },
      },
    };
    if (route.method === "GET") responses["304"] = { description: "Not modified (If-None-Match matched). Free." };
    for (const [status, description] of Object.entries(ERROR_STATUSES)) {
      responses[status] = { description, content: PROBLEM_CONTENT };
    }
    (responses["429"] as Record<string, unknown>).headers = {
      "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait before the next call." },
    };
    if (route.body) {
      responses["413"] = { description: "Body larger than 64 KiB (`payload_too_large`).", content: PROBLEM_CONTENT };
      responses["415"] = { description: "Body is not application/json (`unsupported_media_type`).", content: PROBLEM_CONTENT };
    }
    const unit = CREDIT_UNITS[route.operationId as OperationName];
    const op: Record<string, unknown> = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      description: `${route.description}\n\nCost: ${route.cost} credit${route.cost === 1 ? "" : "s"}${unit ? ` per ${unit}` : ""}.`,
      "x-credit-cost": route.cost,
      ...(unit ? { "x-credit-cost-per": unit } : {}),
      parameters: parameters(route, components),
      responses,
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
