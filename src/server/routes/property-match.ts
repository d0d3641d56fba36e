// POST /v1/commercial/properties/match and its single form (GET): an analyst's addresses and
// parcel numbers to properties (data/property-match.ts). Each row is answered on its own, and
// only the rows matched are charged: the route holds a credit per row while it runs.
import { MATCH_STATUSES, type MatchStatus } from "../../contract/property-match";
import { OPERATIONS } from "../../contract/operations";
import { ApiProblem } from "../http/problem";
import { redactKeys } from "../http/request-id";
import { matchRows } from "../data/property-match";
import { defineRoute } from "./route-def";

export const matchPropertiesRoute = defineRoute(OPERATIONS.matchProperties, {
  units: (body) => body.addresses.length,
  handler: ({ snapshot, body, request }) => {
    const results = matchRows(snapshot, body.addresses);
    const counts = Object.fromEntries(MATCH_STATUSES.map((s) => [s, 0])) as Record<MatchStatus, number>;
    for (const r of results) counts[r.status]++;
    const charged = counts.matched * OPERATIONS.matchProperties.cost;
    request.chargedCredits = charged;
    return {
      object: "property_matches" as const,
      // The caller's ref is echoed, never a key pasted into it.
      data: results.map((r, i) => ({ ref: redactKeys(body.addresses[i].ref), ...r })),
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
    request.chargedCredits = result.status === "matched" ? OPERATIONS.matchProperty.cost : 0;
    return { object: "property_match" as const, ...result, snapshot: snapshot.ref };
  },
});
