// What one JSON Schema error (as Ajv reports it) says about one field, in words a person can act
// on. The service's 400 answers, the snapshot importer's row errors and the service's refusal of
// a bad setting all describe schema errors through this, each in its own words for an unknown or
// missing field.

/** The part of an Ajv error this reads (Ajv's ErrorObject, as Fastify passes it on too). */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** One error, placed on its field. */
export interface FieldFault {
  /** The JSON pointer to the field: for an unknown or a missing field, that field's. */
  pointer: string;
  /** The top-level member the pointer starts with ("" for the value as a whole). */
  field: string;
  /** What is wrong, without the field's name: "is required", "must be one of: a, b". */
  detail: string;
}

/** How a caller words the faults that name a field rather than check a value. */
export interface FaultWords {
  /** A field the schema does not have. */
  unknown: string;
  /** A required field that is absent. */
  required: string;
}

/**
 * The fault one error describes. `data`, the value that was checked, lets a type error on a
 * null member say "must not be null" rather than name the type it should have been.
 */
export function fieldFault(e: SchemaError, words: FaultWords, data?: unknown): FieldFault {
  let pointer = e.instancePath;
  let detail = e.message ?? "is not valid";
  switch (e.keyword) {
    case "additionalProperties":
      pointer = `${pointer}/${String(e.params.additionalProperty)}`;
      detail = words.unknown;
      break;
    case "required":
      pointer = `${pointer}/${String(e.params.missingProperty)}`;
      detail = words.required;
      break;
    case "enum":
      detail = `must be one of: ${(e.params.allowedValues as unknown[]).filter((v) => v !== null).join(", ")}`;
      break;
    case "type":
      if (memberAt(data, pointer) === null) detail = "must not be null";
      break;
  }
  return { pointer: pointer || "/", field: pointer.replace(/^\//, "").split("/")[0], detail };
}

/** The member a pointer of one segment names in an object (undefined for anything else). */
function memberAt(data: unknown, pointer: string): unknown {
  if (typeof data !== "object" || data === null || !/^\/[^/]+$/.test(pointer)) return undefined;
  return (data as Record<string, unknown>)[pointer.slice(1).replace(/~1/g, "/").replace(/~0/g, "~")];
}
