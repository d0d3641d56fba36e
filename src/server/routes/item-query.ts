// One item of a batch checked as the single endpoint checks its query, so a batch can refuse an
// item on its own with the very problem the single endpoint answers (the batch's own schema
// checks only its shape). Compiled on first use, with the options the routes are checked with, so the
// messages are the single endpoint's.
import type { ValidateFunction } from "ajv";
import type { TObject } from "@sinclair/typebox";
import { type ApiProblem, validationProblem } from "../http/problem";
import { requestValidator } from "../http/request-validation";

export type ItemCheck = (item: Record<string, unknown>) => ApiProblem | null;

/** A check of items against `query` (a single endpoint's query schema): null, or its 400. */
export function itemQueryCheck(query: TObject): ItemCheck {
  let validate: ValidateFunction | null = null;
  return (item) => {
    validate ??= requestValidator().compile(query);
    if (validate(item)) return null;
    return validationProblem(validate.errors ?? [], "querystring");
  };
}
