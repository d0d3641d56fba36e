// Addresses and parcel numbers to properties (POST /v1/commercial/properties/match, and one
// address by GET): what an analyst's list names a property by, read as a postal service reads it
// (street-address.ts), and matched to the snapshot's properties. Each row is answered on its own:
// matched to one property, ambiguous (candidates to choose from), unmatched, or refused (what it
// cannot be read as); a row whose answer names a property (namesProperty) costs a credit, the
// rest are free.
import { Type, type Static } from "@sinclair/typebox";
import { SnapshotRef } from "./snapshot-ref";
import { Nullable, StringEnum } from "./schema-helpers";

/** Most rows one match request takes. */
export const MATCH_MAX_ROWS = 1000;
/** A match request weighs one call of its account's rate limit per started this many rows. */
export const MATCH_ROWS_PER_CALL = 100;
/** How many calls of the rate limit a match request of `rows` rows weighs. */
export function matchRequestWeight(rows: number): number {
  return Math.max(1, Math.ceil(rows / MATCH_ROWS_PER_CALL));
}
/** Most candidates a row that is not a unique match lists. */
export const MATCH_MAX_CANDIDATES = 3;

export const MATCH_STATUSES = ["matched", "ambiguous", "unmatched", "refused"] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];
/** How a row matched: as the snapshot writes it, once both are read the postal way, by a street name one or two letters off, or by its parcel. */
export const MATCH_KINDS = ["exact", "normalised", "street_spelling", "parcel_number"] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

/** A matched row scoring below this is a low-confidence match: shown as such in cells, the pane's summary and Explain. */
export const MATCH_LOW_CONFIDENCE_SCORE = 0.9;

/** Whether a matched answer is low-confidence: a street spelt differently, or a score below MATCH_LOW_CONFIDENCE_SCORE. */
export function isLowConfidence(r: { status: MatchStatus; score: number | null; match: MatchKind | null }): boolean {
  return r.status === "matched" && (r.match === "street_spelling" || (r.score ?? 0) < MATCH_LOW_CONFIDENCE_SCORE);
}

/**
 * Whether an answer names a property (a match, or candidates with their ids and addresses): such
 * a row is priced like the detail it stands for; a row that names none is free.
 */
export function namesProperty(r: { status: MatchStatus; property_id: string | null; candidates: readonly unknown[] }): boolean {
  return r.property_id !== null || r.candidates.length > 0;
}

/** The fields of an address as a row or the single form gives them (each optional; an address or an APN is needed). */
export const MATCH_ADDRESS_FIELDS = {
  address: Type.Optional(
    Type.String({
      maxLength: 300,
      description:
        'The whole one-line address ("623 Washington Blvd, Austin, TX 78721") or its street line with the other fields beside it.',
      examples: ["623 Washington Blvd, Austin, TX 78721"],
    }),
  ),
  city: Type.Optional(Type.String({ maxLength: 100, description: "City." })),
  state: Type.Optional(Type.String({ maxLength: 40, description: 'State code or name ("TX", "Texas").' })),
  zip: Type.Optional(Type.String({ maxLength: 10, description: "ZIP code, five digits or ZIP+4." })),
  apn: Type.Optional(Type.String({ maxLength: 60, description: "Assessor's parcel number, with or without its dashes." })),
  county: Type.Optional(
    Type.String({ maxLength: 100, description: 'The parcel\'s county: its name ("Travis", "Travis County") or five-digit FIPS code.' }),
  ),
};

export const MatchRow = Type.Object(
  {
    ref: Type.String({ maxLength: 200, description: "The caller's own id for the row (a row number, a deal id), echoed in its result." }),
    ...MATCH_ADDRESS_FIELDS,
    if_none_match: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          "The `etag` held for this row's answer (from a match request or the single form's ETag, for the same address fields): " +
          "while the answer is the same, the row is answered `unchanged`, without its content, and costs nothing. " +
          'Only an `etag` the service gave is one; `"*"` is no ETag of an answer: it refuses the row.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type MatchRow = Static<typeof MatchRow>;

export const MatchRequest = Type.Object(
  {
    addresses: Type.Array(MatchRow, {
      minItems: 1,
      maxItems: MATCH_MAX_ROWS,
      description: `1 to ${MATCH_MAX_ROWS} rows, each an address (one line, or a street line with city, state and ZIP) or an APN with its county or state.`,
    }),
  },
  { additionalProperties: false },
);
export type MatchRequest = Static<typeof MatchRequest>;

export const MatchCandidate = Type.Object({
  property_id: Type.String(),
  address: Type.String({ description: "The property's one-line address in the snapshot." }),
  score: Type.Number({ minimum: 0, maximum: 1 }),
});
export type MatchCandidate = Static<typeof MatchCandidate>;

export const MatchResult = Type.Object({
  ref: Nullable(Type.String(), { description: "The row's `ref` as sent (null for the single form)." }),
  status: StringEnum(MATCH_STATUSES, {
    description:
      "`matched`: one property, surely; `ambiguous`: no sure unique match, `candidates` to choose from; `unmatched`: nothing in the " +
      "snapshot at this address; `refused`: the row cannot be read as an address (`detail` says why). A row whose answer names a " +
      "property (`matched`, or `ambiguous` with candidates) costs a credit unless `unchanged`; `unmatched` and `refused` rows are free.",
  }),
  property_id: Nullable(Type.String(), { description: "The matched property (status `matched`), else null." }),
  parcel_id: Nullable(Type.String(), { description: "The matched property's parcel, else null." }),
  matched_address: Nullable(Type.String(), { description: "The matched property's one-line address in the snapshot, else null." }),
  score: Nullable(Type.Number({ minimum: 0, maximum: 1 }), {
    description: "How sure the match is, 0 to 1 (1: exact or by parcel number); null unless matched.",
  }),
  match: Nullable(StringEnum(MATCH_KINDS), {
    description:
      "How it matched: `exact` (as the snapshot writes it), `normalised` (once suffixes, directionals, ordinals, units, case and " +
      "punctuation are read the postal way), `street_spelling` (a street name a letter or two off, same number, same ZIP or city), " +
      "`parcel_number` (the APN in its county or state); null unless matched.",
  }),
  candidates: Type.Array(MatchCandidate, {
    maxItems: MATCH_MAX_CANDIDATES,
    description: `Up to ${MATCH_MAX_CANDIDATES} properties the row may name, best first, when it is not a unique match; empty when matched.`,
  }),
  detail: Nullable(Type.String(), { description: "Why the row is not matched (ambiguous, unmatched or refused), else null." }),
});
export type MatchResult = Static<typeof MatchResult>;

export const MatchCounts = Type.Object(
  Object.fromEntries(MATCH_STATUSES.map((s) => [s, Type.Integer({ minimum: 0 })])) as Record<MatchStatus, ReturnType<typeof Type.Integer>>,
  { description: "How many rows have each status." },
);

/** A row's result in a match request: the result, its validator, and whether the caller already held it. */
export const MatchedRow = Type.Composite([
  MatchResult,
  Type.Object({
    etag: Nullable(Type.String(), {
      description:
        "The validator of this row's answer, the single form's ETag for the same address fields: send it as the row's " +
        "`if_none_match` (or If-None-Match to the single form) to ask again, free while the answer is the same (a new snapshot " +
        "that leaves the answer as it was keeps it). Opaque: only the service can make one. Null for a refused row.",
    }),
    unchanged: Type.Boolean({
      description:
        "True when `if_none_match` named this answer as it is: the row costs nothing and carries only its `status` and `etag` " +
        "(the other fields null or empty); the copy held stands.",
    }),
  }),
]);
export type MatchedRow = Static<typeof MatchedRow>;

export const PropertyMatches = Type.Object(
  {
    object: Type.Literal("property_matches"),
    data: Type.Array(MatchedRow, { description: "One result per row, in the order sent." }),
    counts: MatchCounts,
    credits_charged: Type.Integer({
      minimum: 0,
      description:
        "One per row whose answer names a property (`matched`, or `ambiguous` with candidates), except those `unchanged`; " +
        "unmatched and refused rows, and rows that name no property, are free.",
    }),
    snapshot: SnapshotRef,
  },
  { $id: "PropertyMatches", title: "Property matches" },
);
export type PropertyMatches = Static<typeof PropertyMatches>;

export const PropertyMatch = Type.Composite(
  [Type.Object({ object: Type.Literal("property_match") }), Type.Omit(MatchResult, ["ref"]), Type.Object({ snapshot: SnapshotRef })],
  { $id: "PropertyMatch", title: "Property match" },
);
export type PropertyMatch = Static<typeof PropertyMatch>;

/** The single form's query: one address, as a row without its `ref`; any other parameter is refused, as every operation's is. */
export const MatchQuery = Type.Object(MATCH_ADDRESS_FIELDS, { additionalProperties: false });
/** One address's fields, as a row or the single form gives them. */
export type MatchFields = Static<typeof MatchQuery>;
