// POST /v1/commercial/properties/compare: selected properties side by side, with the
// minimum, median and maximum of each numeric field.
import type { CommercialProperty } from "../../contract/records";
import { NUMERIC_PROPERTY_FIELDS, type PropertyField } from "../../contract/compare";
import { ApiProblem } from "../http/problem";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import { etagMatches, etagOf, isWildcard } from "../http/etag";
import { fieldStatistics } from "../../contract/statistics";

type Field = PropertyField;
export const DEFAULT_COMPARE_FIELDS: Field[] = [
  "name",
  "asset_type",
  "subtype",
  "building_class",
  "city",
  "state_code",
  "building_area_sqft",
  "land_area_acres",
  "units",
  "year_built",
  "occupancy_rate",
  "asking_rent_sqft_year",
  "asking_rent_unit_month",
  "estimated_value",
  "owner_name",
  "last_sale_date",
  "last_sale_price",
];

export const compareRoute = defineRoute(OPERATIONS.compareProperties, {
  handler: ({ snapshot, body, request }) => {
    const ids = body.property_ids;
    const fields = body.fields ?? DEFAULT_COMPARE_FIELDS;
    const held = body.if_none_match ?? {};
    refuseWildcards(held);
    const rows = snapshot.all<CommercialProperty>(`SELECT * FROM properties WHERE id IN (${ids.map(() => "?").join(",")})`, ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const unknown = ids.map((id, i) => ({ id, i })).filter(({ id }) => !byId.has(id));
    if (unknown.length) {
      throw new ApiProblem(
        404,
        "not_found",
        `Unknown property id${unknown.length > 1 ? "s" : ""}: ${unknown.map((u) => u.id).join(", ")}.`,
        unknown.map((u) => ({ pointer: `/property_ids/${u.i}`, detail: `no property '${u.id}' in this snapshot` })),
        { unknown_ids: unknown.map((u) => u.id) },
      );
    }
    const keep: Field[] = ["id", ...fields.filter((f) => f !== "id")];
    // Each property's validator is its detail answer's (the stored document's hash).
    const etags = Object.fromEntries(ids.map((id) => [id, etagOf(snapshot.propertyDoc(id)!)]));
    const notModified = new Set(ids.filter((id) => held[id] !== undefined && etagMatches(held[id], etags[id])));
    // A property confirmed unchanged is its id only, as a 304 carries no body. The statistics are
    // data of every property compared (with two, min and max are both values), so an answer that
    // carries them is charged, and a free one (every property unchanged) carries none.
    const allUnchanged = notModified.size === ids.length;
    const statistics = allUnchanged
      ? []
      : fieldStatistics(
          ids.map((id) => pick(byId.get(id)!, keep)),
          fields.filter((f) => NUMERIC_PROPERTY_FIELDS.includes(f)),
        );
    if (allUnchanged) request.chargedCredits = 0;
    return {
      object: "property_comparison" as const,
      fields: keep,
      properties: ids.map((id) => (notModified.has(id) ? { id } : pick(byId.get(id)!, keep))),
      statistics,
      etags,
      not_modified: [...notModified],
      snapshot: snapshot.ref,
    };
  },
});

/**
 * `if_none_match` names the copy held of each property; "*" names none (it would match any
 * property), so it is refused rather than taken as "unchanged".
 */
function refuseWildcards(held: Record<string, string>): void {
  const wild = Object.keys(held).filter((id) => isWildcard(held[id]));
  if (wild.length === 0) return;
  const detail = 'is "*", which is no ETag of a property: send the ETag held for it (from `etags` or its detail endpoint), or leave it out';
  throw new ApiProblem(
    400,
    "validation_failed",
    `if_none_match: "*" is no ETag of a property; send the ETag held for each property, or leave it out.`,
    wild.map((id) => ({ pointer: `/if_none_match/${pointerToken(id)}`, detail: `if_none_match/${id} ${detail}` })),
  );
}

/** A JSON-pointer reference token (RFC 6901): "~" as "~0", "/" as "~1". */
function pointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The named fields of a record, in the order named. */
function pick<T, K extends keyof T>(record: T, fields: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const f of fields) out[f] = record[f];
  return out;
}
