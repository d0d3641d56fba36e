// The body of every refusal the service answers: RFC 9457 problem details (docs/decisions.md,
// "Errors"), with a stable code and the extension members some codes carry. The service builds
// its bodies as this type and publishes this schema as the OpenAPI `Problem` component; the
// add-in reads the same type (src/shared/api-error.ts).
import { Type, type Static } from "@sinclair/typebox";
import { CreditsExhaustedFields } from "./credit-fields";

/** A problem's `type` is this followed by its code. */
export const PROBLEM_BASE = "https://docs.propintel.dev/problems/";

/** Every code the service answers with, and the title each has. */
export const PROBLEM_TITLES = {
  validation_failed: "Your request parameters didn't validate.",
  unsupported_filter: "This filter is not supported for this asset type.",
  unknown_place: "This snapshot holds no such place.",
  ambiguous_place: "This names more than one place.",
  unsupported_place: "This endpoint cannot serve this kind of place.",
  ambiguous_name: "This name matches more than one company.",
  invalid_api_key: "The API key is missing or not valid.",
  credits_exhausted: "You have used all the credits of this period.",
  not_found: "Not found.",
  snapshot_not_found: "This service does not keep that snapshot.",
  payload_too_large: "The request body is too large.",
  unsupported_media_type: "Send the request body as application/json.",
  rate_limited: "Too many requests.",
  request_timeout: "The request did not arrive in time.",
  headers_too_large: "The request's headers are too large.",
  origin_not_allowed: "This origin may not call the API from a browser.",
  internal: "Something went wrong on our side.",
  service_unavailable: "The service cannot answer just now.",
} as const;
export type ProblemCode = keyof typeof PROBLEM_TITLES;

/** One entry of `errors[]`: which input failed and why. */
export const FieldError = Type.Object({
  pointer: Type.String({ description: "JSON pointer to the field in the query, path or body." }),
  parameter: Type.Optional(Type.String({ description: "The query or path parameter, for those." })),
  detail: Type.String(),
});
export type FieldError = Static<typeof FieldError>;

/** 400 `ambiguous_name`: one of the companies a name matched. */
const NameCandidate = Type.Object({ id: Type.String(), name: Type.String(), property_count: Type.Integer() });

/** The members every problem has. */
const PROBLEM_CORE = {
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  code: Type.String({ description: "Stable, snake_case error code." }),
  request_id: Type.String(),
};

/** Members that only some codes carry (each description says which). */
export const ProblemExtensions = Type.Partial(
  Type.Object({
    errors: Type.Array(FieldError, { description: "What failed validation, one entry a field." }),
    valid_values: Type.Array(Type.String(), { description: "404 for an unknown asset or company type: the valid ones." }),
    unknown_ids: Type.Array(Type.String(), { description: "404 from compare: the ids not in the snapshot." }),
    asset_type: Type.String({ description: "400 `unsupported_filter`: the asset type searched." }),
    supported_filters: Type.Array(Type.String(), { description: "400 `unsupported_filter`: the inputs the asset type supports." }),
    ...CreditsExhaustedFields,
    retry_after_seconds: Type.Integer({ description: "429 and 503: seconds to wait, as `Retry-After` says." }),
    parameter: Type.String({ description: "400 place problems: the parameter that named the place." }),
    place: Type.String({ description: "400 place problems: the place as given." }),
    suggestions: Type.Array(Type.String(), {
      description:
        "400 `unknown_place`, `ambiguous_place`, `unsupported_place`: up to three places the snapshot holds that may have been meant, each usable as given.",
    }),
    accepted_kinds: Type.Array(Type.String(), { description: "400 `unsupported_place`: the kinds of place the endpoint takes." }),
    match_count: Type.Integer({ description: "400 `ambiguous_place`: how many places the name matched." }),
    candidate_count: Type.Integer({ description: "400 `ambiguous_name`: how many companies the name matched." }),
    candidates: Type.Array(NameCandidate, {
      description: "400 `ambiguous_name`: the companies the name matched, largest first (at most five).",
    }),
    kept: Type.Array(Type.String(), { description: "404 `snapshot_not_found`: the ids of the snapshots kept, newest first." }),
    retain_months: Type.Integer({ description: "404 `snapshot_not_found`: how many months after its capture a snapshot is served." }),
    retired: Type.Boolean({
      description:
        "404 `snapshot_not_found` for `as_of`: true when the data of that date is no longer served because its snapshot's retention ended; false when no snapshot that old was kept.",
    }),
    retired_by: Type.String({
      format: "date-time",
      description: "404 `snapshot_not_found` for `as_of`, when `retired`: the snapshot of that date retired on or before this time.",
    }),
  }),
);
export type ProblemExtensions = Static<typeof ProblemExtensions>;

export const Problem = Type.Object(
  { ...PROBLEM_CORE, ...ProblemExtensions.properties },
  { $id: "Problem", description: "RFC 9457 problem details." },
);
export type Problem = Static<typeof Problem>;

/** The body of a problem of `code`: its type URI and title are the code's; `extensions` follow the core members. */
export function problemOf(
  status: number,
  code: ProblemCode,
  detail: string,
  requestId: string,
  extensions: ProblemExtensions = {},
): Problem {
  return { type: PROBLEM_BASE + code, title: PROBLEM_TITLES[code], status, detail, code, request_id: requestId, ...extensions };
}
