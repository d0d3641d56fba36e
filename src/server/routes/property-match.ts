// POST /v1/commercial/properties/match and its single form (GET): an analyst's addresses and
// parcel numbers to properties (data/property-match.ts). Each row is answered on its own, and
// only the rows matched are charged: the route holds a credit per row while it runs. Each
// answer has a validator (matchEtag), the single form's ETag and a row's `etag`: a row sent
// with the one it holds, or a GET with it as If-None-Match, is free while the answer is the same,
// so a refresh after a new snapshot pays only for the matches that changed.
import { MATCH_STATUSES, type MatchStatus } from "../../contract/property-match";
import { OPERATIONS } from "../../contract/operations";
import { JsonText } from "../data/json-text";
import { etagMatches, isWildcard, weakEtagOf } from "../http/etag";
import { ApiProblem } from "../http/problem";
import { redactKeys } from "../http/request-id";
import { matchRows, refused, type RowMatch } from "../data/property-match";
import { defineRoute } from "./route-def";

/** The validator of an answer: its content, in a fixed order, without the caller's ref or the snapshot that gave it. */
export function matchEtag(r: RowMatch): string {
  return weakEtagOf(JSON.stringify([r.status, r.property_id, r.parcel_id, r.matched_address, r.score, r.match, r.candidates, r.detail]));
}

const WILDCARD = 'if_none_match is "*", which is no ETag of an answer: send the etag held for the row, or leave it out.';

export const matchPropertiesRoute = defineRoute(OPERATIONS.matchProperties, {
  units: (body) => body.addresses.length,
  handler: ({ snapshot, body, request }) => {
    const counts = Object.fromEntries(MATCH_STATUSES.map((s) => [s, 0])) as Record<MatchStatus, number>;
    let charged = 0;
    const data = matchRows(snapshot, body.addresses).map((found, i) => {
      const held = body.addresses[i].if_none_match;
      const r = held !== undefined && isWildcard(held) ? refused(WILDCARD) : found;
      const etag = r.status === "refused" ? null : matchEtag(r);
      const unchanged = held !== undefined && etag !== null && etagMatches(held, etag);
      counts[r.status]++;
      if (r.status === "matched" && !unchanged) charged += OPERATIONS.matchProperties.cost;
      // The caller's ref is echoed, never a key pasted into it. A free answer carries no data:
      // an unchanged row is its status and validator, the caller keeps the copy it holds.
      const content = unchanged ? { ...refused(""), status: r.status, detail: null } : r;
      return { ref: redactKeys(body.addresses[i].ref), ...content, etag, unchanged };
    });
    request.chargedCredits = charged;
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
  units: () => 1,
  handler: ({ snapshot, query, request }) => {
    const [result] = matchRows(snapshot, [query]);
    if (result.status === "refused") throw new ApiProblem(400, "validation_failed", result.detail!);
    // A 304 (If-None-Match naming this answer) is settled free by the credits hook.
    request.chargedCredits = result.status === "matched" ? OPERATIONS.matchProperty.cost : 0;
    return new JsonText(JSON.stringify({ object: "property_match", ...result, snapshot: snapshot.ref }), matchEtag(result));
  },
});
