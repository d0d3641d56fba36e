// The OpenAPI document without a running service (npm run docs:api, tests): the API's routes
// registered on a bare Fastify instance with the same schemas, configuration and shared records
// as the service registers them (plugins/v1-api.ts), and @fastify/swagger's document of them.
import Fastify from "fastify";
import swagger from "@fastify/swagger";
import { SHARED_SCHEMAS } from "../../contract/shared-schemas";
import { REQUEST_VALIDATION } from "../http/request-validation";
import { fastifyPath, routeSchema, type RouteDef } from "../routes/route-def";
import { openApiOptions } from "./openapi-document";

/** A JSON Schema, as far as the readers of the document (docs:api, tests) read one. */
export interface DocSchema {
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: DocSchema[];
  type?: string | string[];
  items?: DocSchema;
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  default?: unknown;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, DocSchema>;
  description?: string;
  title?: string;
}

interface Media {
  schema: DocSchema;
}

/** An operation of the document, as far as its readers read one. */
export interface DocOperation {
  operationId: string;
  summary: string;
  description: string;
  "x-credit-cost": number;
  "x-credit-cost-per"?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema: DocSchema }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}

/** The document as JSON, as far as its readers read it. */
export interface PublishedDocument {
  info: { description: string };
  paths: Record<string, Record<string, DocOperation>>;
  components: { schemas: Record<string, DocSchema> };
}

export async function publishedDocument(routes: readonly RouteDef[]): Promise<PublishedDocument> {
  const app = Fastify({ ajv: { customOptions: REQUEST_VALIDATION } });
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, openApiOptions());
  for (const route of routes) {
    const { operation } = route;
    app.route({
      method: operation.method,
      url: fastifyPath(operation.path),
      schema: routeSchema(operation),
      config: { apiDoc: operation },
      handler: () => {
        throw new Error("only documented");
      },
    });
  }
  await app.ready();
  // A plain JSON copy: the document as it is served (JSON.parse has no type to give it).
  const document = JSON.parse(JSON.stringify(app.swagger())) as PublishedDocument;
  await app.close();
  return document;
}
