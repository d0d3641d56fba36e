// How the service checks what a request sends against its schemas: the options Fastify's
// validator is given (app.ts), and the same validator for a batch item checked on its own
// (routes/item-query.ts), so both refuse alike and word their refusals alike.
import Ajv, { type Options } from "ajv";
import addFormats from "ajv-formats";
import { INPUT_KEYWORDS } from "../../contract/input-kinds";

/**
 * Every error of a request reported at once (problems list them all), types coerced as a query
 * string needs, defaults filled in, and unknown members kept so the schema can refuse them. The
 * inputs' spreadsheet annotations (contract/input-kinds.ts) are keywords that check nothing.
 * Errors are verbose (each carries the schema that failed), so the refusal of an unknown
 * parameter can name the nearest one the endpoint takes (problem.ts).
 */
export const REQUEST_VALIDATION: Options = {
  removeAdditional: false,
  allErrors: true,
  verbose: true,
  coerceTypes: "array",
  useDefaults: true,
  keywords: [...INPUT_KEYWORDS],
};

/** A validator with the options above and the formats (date, email) Fastify's validator knows. */
export function requestValidator(): Ajv {
  const ajv = new Ajv({ strict: false, ...REQUEST_VALIDATION });
  addFormats(ajv);
  return ajv;
}
