// POST /v1/commercial/properties/match and its single form (GET): an analyst's addresses and
// parcel numbers to properties (data/property-match.ts). Each row is answered on its own and
// priced by its answer: a row whose answer names a property (a match, or candidates with their
// ids and addresses) costs what the detail it stands for does, a row that names none is free.
// The route is priced by its answer (route-def.ts, `priced`): the rows are matched first and
// exactly their price is held, so a call the credits left pay for is never refused.
//
// Each answer has a validator (matchEtag), the single form's ETag and a row's `etag`: a row sent
// with the one it holds, or a GET with it as If-None-Match, is free while the answer is the same,
// so a refresh after a new snapshot pays only for the matches that changed. Validators are keyed
// with a secret only the service holds, so no client can make one for an answer it has not
// been given (a plain hash of a guessed answer would confirm the guess for free).
import { MATCH_STATUSES, type MatchFields, type MatchStatus, matchRequestWeight, namesProperty } from "../../contract/property-match";
import { OPERATIONS } from "../../contract/operations";
import { JsonText } from "../data/json-text";
import { etagMatches, isWildcard, keyedEtagOf } from "../http/etag";
import { ApiProblem } from "../http/problem";
import { redactKeys } from "../http/request-id";
import { matchRows, refused, type RowMatch } from "../data/property-match";
import { defineRoute } from "./route-def";
import type { FastifyRequest } from "fastify";

/**
 * The validator of an answer to a question: the question's fields as sent (so a validator
 * confirms only the answer to the question it was given for) and the answer's content in a
 * fixed order, without the caller's ref or the snapshot that gave it (so an answer a new
 * snapshot left as it was keeps its validator), keyed with the service's validator key.
 */
export function matchEtag(key: Buffer, fields: MatchFields, r: RowMatch): string {
  const asked = [fields.address, fields.city, fields.state, fields.zip, fields.apn, fields.county].map((f) => f ?? "");
  const answer = [r.status, r.property_id, r.parcel_id, r.matched_address, r.score, r.match, r.candidates, r.detail];
  return keyedEtagOf(key, JSON.stringify([asked, answer]));
}

/**
 * Rows matched in one step of a request: between steps other requests run, so a thousand-row
 * request delays a detail by one step's work (a few ms), not by the whole request's.
 */
const ROWS_PER_STEP = 100;
/** A match request's rows as matched by `prepare`, for its handler. */
const matchedRows = new WeakMap<FastifyRequest, RowMatch[]>();
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const WILDCARD = 'if_none_match is "*", which is no ETag of an answer: send the etag held for the row, or leave it out.';
const WILDCARD_HEADER = 'If-None-Match is "*", which is no ETag of an answer: send the ETag held for this address, or leave it out.';

export const matchPropertiesRoute = defineRoute(OPERATIONS.matchProperties, {
  priced: true,
  weight: (body) => matchRequestWeight(body.addresses.length),
  prepare: async ({ snapshot, body, request }) => {
    const found: RowMatch[] = [];
    for (let i = 0; i < body.addresses.length; i += ROWS_PER_STEP) {
      // A client gone is answered no more (the credit gate ends the request unanswered): its
      // remaining rows are not matched.
      if (i > 0 && request.raw.socket?.destroyed) throw new Error("The client closed the connection.");
      if (i > 0) await nextTurn();
      found.push(...matchRows(snapshot, body.addresses.slice(i, i + ROWS_PER_STEP)));
    }
    matchedRows.set(request, found);
  },
  handler: ({ snapshot, body, request }) => {
    const key = request.server.validatorKey;
    const counts = Object.fromEntries(MATCH_STATUSES.map((s) => [s, 0])) as Record<MatchStatus, number>;
    const rowCredits: number[] = [];
    let charged = 0;
    const rows = matchedRows.get(request);
    const data = (rows ?? matchRows(snapshot, body.addresses)).map((found, i) => {
      const row = body.addresses[i];
      const held = row.if_none_match;
      const r = held !== undefined && isWildcard(held) ? refused(WILDCARD) : found;
      const etag = r.status === "refused" ? null : matchEtag(key, row, r);
      const unchanged = held !== undefined && etag !== null && etagMatches(held, etag);
      counts[r.status]++;
      const cost = namesProperty(r) && !unchanged ? OPERATIONS.matchProperties.cost : 0;
      rowCredits.push(cost);
      charged += cost;
      // The caller's ref is echoed, never a key pasted into it. A free answer carries no record:
      // an unchanged row is its status and validator, the caller keeps the copy it holds.
      const content = unchanged ? { ...refused(""), status: r.status, detail: null } : r;
      return { ref: redactKeys(row.ref), ...content, etag, unchanged };
    });
    request.chargedCredits = charged;
    request.rowCredits = rowCredits;
    return {
      object: "property_matches" as const,
      data,
      counts,
      credits_charged: charged,
      snapshot: snapshot.ref,
    };
  },
});

export const matchPropertyRoute = defineRoute(OPERATIONS.matchProperty, {
  priced: true,
  handler: ({ snapshot, query, request }) => {
    const inm = request.headers["if-none-match"];
    if (typeof inm === "string" && isWildcard(inm)) throw new ApiProblem(400, "validation_failed", WILDCARD_HEADER);
    const [result] = matchRows(snapshot, [query]);
    if (result.status === "refused") throw new ApiProblem(400, "validation_failed", result.detail!);
    const etag = matchEtag(request.server.validatorKey, query, result);
    // An If-None-Match naming this answer is a 304 (http/etag.ts, conditionalGet): free, and priced so.
    const held = typeof inm === "string" && etagMatches(inm, etag);
    request.chargedCredits = namesProperty(result) && !held ? OPERATIONS.matchProperty.cost : 0;
    return new JsonText(JSON.stringify({ object: "property_match", ...result, snapshot: snapshot.ref }), etag);
  },
});
