// How the service checks what a request sends against its schemas: the options Fastify's
// validator is given (app.ts), and the same validator for a batch item checked on its own
// (routes/item-query.ts), so both refuse alike and word their refusals alike.
import Ajv, { type Options } from "ajv";
import addFormats from "ajv-formats";

/**
 * Every error of a request reported at once (problems list them all), types coerced as a query
 * string needs, defaults filled in, and unknown members kept so the schema can refuse them.
 */
export const REQUEST_VALIDATION: Options = { removeAdditional: false, allErrors: true, coerceTypes: "array", useDefaults: true };

/** A validator with the options above and the formats (date, email) Fastify's validator knows. */
export function requestValidator(): Ajv {
  const ajv = new Ajv({ strict: false, ...REQUEST_VALIDATION });
  addFormats(ajv);
  return ajv;
}
