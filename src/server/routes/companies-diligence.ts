// Company search by type, and diligence candidates.
import { Company, DiligenceCandidate } from "../../contract/records";
import { COMPANY_TYPES } from "../../contract/vocabulary";
import { ApiProblem, notFound } from "../http/problem";
import { stateCodeOf } from "../../contract/states";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import { Where, containsPattern, decodeArrays, pagedQuery, type StoredRow } from "../data/sql-where";
import { listEnvelope } from "../data/list-envelope";
import { wherePlace } from "../data/place-filter";
import { queryPlaces } from "./place-params";

/** A headquarters state as a code; anything else is refused, free, rather than matching nothing. */
function headquartersState(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const code = stateCodeOf(text);
  if (!code) {
    const detail = `state_code: "${text}" is not a US state code; use one such as TX.`;
    throw new ApiProblem(400, "validation_failed", detail, [{ pointer: "/state_code", parameter: "state_code", detail }]);
  }
  return code;
}

export const companiesRoute = defineRoute(OPERATIONS.searchCompanies, {
  handler: ({ snapshot, params, query }) => {
    if (!(COMPANY_TYPES as readonly string[]).includes(params.company_type)) {
      throw notFound(`There is no company type '${params.company_type}'. Valid company types: ${COMPANY_TYPES.join(", ")}.`, {
        valid_values: [...COMPANY_TYPES],
      });
    }
    const w = new Where().add("company_type = ?", params.company_type).when(headquartersState(query.state_code), "headquarters_state = ?");
    if (query.q) w.add("name LIKE ? ESCAPE '\\'", containsPattern(query.q));
    const { rows, total } = pagedQuery<Company>(
      snapshot,
      "SELECT *",
      `FROM companies${w.sql}`,
      "ORDER BY property_count DESC, id",
      w.params,
      query,
    );
    return listEnvelope(rows, query, total, snapshot.ref);
  },
});

export const diligenceRoute = defineRoute(OPERATIONS.rankDiligenceCandidates, {
  handler: ({ snapshot, query }) => {
    const w = new Where().when(query.asset_type, "asset_type = ?");
    for (const place of queryPlaces(snapshot, "rankDiligenceCandidates", query)) {
      wherePlace(w, place, { state: "state_code", city: "city", metro: "metro_id", property: "property_id" });
    }
    w.when(query.min_score, "score >= ?");
    const { rows, total } = pagedQuery<StoredRow<DiligenceCandidate, "reason_codes">>(
      snapshot,
      "SELECT *",
      `FROM diligence${w.sql}`,
      "ORDER BY score DESC, property_id",
      w.params,
      query,
    );
    return listEnvelope(
      rows.map((r) => decodeArrays<DiligenceCandidate, "reason_codes">(r, ["reason_codes"])),
      query,
      total,
      snapshot.ref,
    );
  },
});
