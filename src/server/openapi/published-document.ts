// The OpenAPI document without a running service (npm run docs:api, tests): the API's routes
// registered on a bare Fastify instance with the same schemas, configuration and shared records
// as the service registers them (plugins/v1-api.ts), and @fastify/swagger's document of them.
import Fastify from "fastify";
import swagger from "@fastify/swagger";
import { SHARED_SCHEMAS } from "../../contract/shared-schemas";
import { REQUEST_VALIDATION } from "../http/request-validation";
import { fastifyPath, routeSchema, type RouteDef } from "../routes/route-def";
import { openApiOptions } from "./openapi-document";

/** The document as JSON: its paths by path and method (what the docs and tests walk), and the rest. */
export type PublishedDocument = Record<string, unknown> & { paths: Record<string, Record<string, Record<string, unknown>>> };

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
      config: { apiDoc: route },
      handler: () => {
        throw new Error("only documented");
      },
    });
  }
  await app.ready();
  // A plain JSON copy: the document as it is served.
  const document = JSON.parse(JSON.stringify(app.swagger())) as PublishedDocument;
  await app.close();
  return document;
}
