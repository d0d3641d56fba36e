// Owner portfolio evidence and tenant footprints: what a company owns or occupies, row by row,
// with a summary of the company in the envelope.
import { Type } from "@sinclair/typebox";
import { Nullable, StringEnum } from "../../shared/contract/schema-helpers";
import { PortfolioHolding, TenantLocation } from "../../shared/contract/responses";
import { CREDIT_COSTS } from "../../shared/contract/credit-costs";
import { QUERIES } from "../../shared/contract/queries";
import { ListOf, listEnvelope } from "../http/list-envelope";
import type { RouteDef } from "../http/route-def";
import { Where, pagedQuery } from "../data/sql-where";
import { findCompany, type CompanyMatch, type CompanyRow } from "../data/company-lookup";
import { wherePlace } from "../data/place-filter";
import { PROPERTY_PLACE_COLUMNS } from "../data/property-search";
import type { SnapshotContext } from "../data/snapshot-context";
import { Paged } from "./query-params";
import { PLACE_PROBLEMS, queryPlaces } from "./place-params";

const CompanySummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  property_count: Type.Integer({ description: "Records matching the filters." }),
  total_building_area_sqft: Nullable(Type.Number()),
  states: Type.Array(Type.String()),
  matched_by: StringEnum(["id", "exact_name", "name_contains"] as const, { description: "How the company was found." }),
  candidate_count: Type.Integer({ minimum: 1, description: "Companies of the type the name matched (1 for an id)." }),
  other_candidates: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String(), property_count: Type.Integer() }),
    { description: "The other companies the name matched, largest first (at most five)." },
  ),
}, { $id: "CompanySummary", title: "Company summary" });

/** The company, how many records match, their total area and the states they are in. */
function companySummary(
  snapshot: SnapshotContext,
  { company, match }: { company: CompanyRow; match: CompanyMatch },
  total: number,
  areaColumn: string,
  from: string,
  params: unknown[],
) {
  const agg = snapshot.get<{ area: number | null; states: string | null }>(
    `SELECT sum(${areaColumn}) AS area, group_concat(DISTINCT p.state_code) AS states ${from}`,
    params,
  )!;
  return {
    id: company.id,
    name: company.name,
    property_count: total,
    total_building_area_sqft: agg.area,
    states: agg.states ? agg.states.split(",").sort() : [],
    ...match,
  };
}

export const ownerPortfolioRoute: RouteDef = {
  method: "GET",
  url: "/v1/commercial/owners/portfolio",
  operationId: "getOwnerPortfolio",
  tag: "Owners, companies and tenants",
  summary: "Owner portfolio evidence",
  description:
    "The properties an owner holds, each with the evidence for it (the recorded sale that transferred it to the owner, " +
    "or the ownership record), largest first. Give `owner_id`, or `owner_name` (exact match, else an owner whose name contains it: " +
    "the largest with `name_match=best`, the only one with `name_match=unique`). The `owner` summary says which owner was matched " +
    "(`matched_by`) and how many the name matched (`candidate_count`, `other_candidates`).",
  cost: CREDIT_COSTS.getOwnerPortfolio,
  notFound: "No owner with this `owner_id`, or whose name contains `owner_name`",
  badRequest: `${PLACE_PROBLEMS}; or, with \`name_match=unique\`, a name several owners contain (\`ambiguous_name\`, listing them)`,
  querystring: Paged(QUERIES.getOwnerPortfolio),
  response: ListOf(PortfolioHolding, { owner: CompanySummary }),
  handler: ({ snapshot, query }) => {
    const places = queryPlaces(snapshot, "getOwnerPortfolio", query);
    const owner = findCompany(snapshot, "owner", query.owner_id, query.owner_name, query.name_match);
    const w = new Where().add("p.owner_id = ?", owner.company.id).when(query.asset_type, "p.asset_type = ?");
    for (const place of places) wherePlace(w, place, PROPERTY_PLACE_COLUMNS);
    const from = `FROM properties p LEFT JOIN sales s ON s.id = p.last_sale_id AND s.buyer_id = p.owner_id${w.sql}`;
    const { rows, total } = pagedQuery<any>(
      snapshot,
      `SELECT p.id, 'portfolio_holding' AS object, p.id AS property_id, p.name AS property_name, p.asset_type, p.subtype, p.city,
        p.state_code, p.building_area_sqft, p.units, p.estimated_value, s.sale_date AS acquired_date, s.sale_price AS acquisition_price,
        CASE WHEN s.id IS NULL THEN 'ownership_record' ELSE 'recorded_sale' END AS evidence, coalesce(s.id, p.parcel_id, p.id) AS evidence_id,
        p.owner_id, p.owner_name`,
      from,
      "ORDER BY p.estimated_value DESC, p.id",
      w.params,
      query as any,
    );
    const summary = companySummary(snapshot, owner, total, "p.building_area_sqft", `FROM properties p${w.sql}`, w.params);
    return listEnvelope(rows, query as any, total, snapshot.ref, { owner: summary });
  },
};

export const tenantFootprintRoute: RouteDef = {
  method: "GET",
  url: "/v1/commercial/tenants/footprint",
  operationId: "getTenantFootprint",
  tag: "Owners, companies and tenants",
  summary: "Tenant location footprint",
  description:
    "Every location a tenant occupies, with leased area and lease dates, soonest expiry first. Give `tenant_id`, or " +
    "`tenant_name` (exact match, else a tenant whose name contains it: the largest with `name_match=best`, the only one with " +
    "`name_match=unique`). The `tenant` summary says which tenant was matched and how many the name matched.",
  cost: CREDIT_COSTS.getTenantFootprint,
  notFound: "No tenant with this `tenant_id`, or whose name contains `tenant_name`",
  badRequest: `${PLACE_PROBLEMS}; or, with \`name_match=unique\`, a name several tenants contain (\`ambiguous_name\`, listing them)`,
  querystring: Paged(QUERIES.getTenantFootprint),
  response: ListOf(TenantLocation, { tenant: CompanySummary }),
  handler: ({ snapshot, query }) => {
    const places = queryPlaces(snapshot, "getTenantFootprint", query);
    const tenant = findCompany(snapshot, "tenant", query.tenant_id, query.tenant_name, query.name_match);
    const w = new Where().add("t.tenant_id = ?", tenant.company.id).when(query.asset_type, "p.asset_type = ?");
    for (const place of places) wherePlace(w, place, PROPERTY_PLACE_COLUMNS);
    const from = `FROM tenancies t JOIN properties p ON p.id = t.property_id${w.sql}`;
    const { rows, total } = pagedQuery<any>(
      snapshot,
      `SELECT t.*, 'tenant_location' AS object, p.name AS property_name, p.asset_type, p.address, p.city,
        p.state_code, p.latitude, p.longitude`,
      from,
      "ORDER BY t.lease_expiration, t.id",
      w.params,
      query as any,
    );
    for (const r of rows) r.tenant_name = tenant.company.name;
    const summary = companySummary(snapshot, tenant, total, "t.leased_area_sqft", from, w.params);
    return listEnvelope(rows, query as any, total, snapshot.ref, { tenant: summary });
  },
};
