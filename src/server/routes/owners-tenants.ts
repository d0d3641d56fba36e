// Owner portfolio evidence and tenant footprints: what a company owns or occupies, row by row,
// with a summary of the company in the envelope.
import { CompanySummary, PortfolioHolding, TenantLocation } from "../../contract/responses";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import { Where, pagedQuery } from "../data/sql-where";
import { listEnvelope } from "../data/list-envelope";
import { findCompany, type CompanyMatch, type CompanyRow } from "../data/company-lookup";
import { wherePlace } from "../data/place-filter";
import { PROPERTY_PLACE_COLUMNS } from "../data/property-search";
import type { SnapshotContext } from "../data/snapshot-context";
import { queryPlaces } from "./place-params";

/** The company, how many records match, their total area and the states they are in. */
function companySummary(
  snapshot: SnapshotContext,
  { company, match }: { company: CompanyRow; match: CompanyMatch },
  total: number,
  areaColumn: string,
  from: string,
  params: unknown[],
  stateColumn = "p.state_code",
): CompanySummary {
  const agg = snapshot.get<{ area: number | null; states: string | null }>(
    `SELECT sum(${areaColumn}) AS area, group_concat(DISTINCT ${stateColumn}) AS states ${from}`,
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

export const ownerPortfolioRoute = defineRoute(OPERATIONS.getOwnerPortfolio, {
  handler: ({ snapshot, query }) => {
    const places = queryPlaces(snapshot, "getOwnerPortfolio", query);
    const owner = findCompany(snapshot, "owner", query.owner_id, query.owner_name, query.name_match);
    const w = new Where().add("p.owner_id = ?", owner.company.id).when(query.asset_type, "p.asset_type = ?");
    for (const place of places) wherePlace(w, place, PROPERTY_PLACE_COLUMNS);
    const from = `FROM properties p${w.sql}`;
    // The sale that made the owner the owner, if recorded: the property's last sale, bought by its
    // owner. Read by subqueries rather than a LEFT JOIN: on an older version of a snapshot store,
    // sales is a union view, which SQLite would read whole to join it on the right of a LEFT JOIN.
    const sale = (column: string) => `(SELECT s.${column} FROM sales s WHERE s.id = p.last_sale_id AND s.buyer_id = p.owner_id)`;
    const { rows, total } = pagedQuery<PortfolioHolding>(
      snapshot,
      `SELECT p.id, 'portfolio_holding' AS object, p.id AS property_id, p.name AS property_name, p.asset_type, p.subtype, p.city,
        p.state_code, p.building_area_sqft, p.units, p.estimated_value, ${sale("sale_date")} AS acquired_date,
        ${sale("sale_price")} AS acquisition_price,
        CASE WHEN ${sale("id")} IS NULL THEN 'ownership_record' ELSE 'recorded_sale' END AS evidence,
        coalesce(${sale("id")}, p.parcel_id, p.id) AS evidence_id, p.owner_id, p.owner_name`,
      from,
      "ORDER BY p.estimated_value DESC, p.id",
      w.params,
      query,
    );
    const summary = companySummary(snapshot, owner, total, "p.building_area_sqft", from, w.params);
    return listEnvelope(rows, query, total, snapshot.ref, { owner: summary });
  },
});

export const tenantFootprintRoute = defineRoute(OPERATIONS.getTenantFootprint, {
  handler: ({ snapshot, query }) => {
    const places = queryPlaces(snapshot, "getTenantFootprint", query);
    const tenant = findCompany(snapshot, "tenant", query.tenant_id, query.tenant_name, query.name_match);
    const onProperty = new Where().when(query.asset_type, "p.asset_type = ?");
    for (const place of places) wherePlace(onProperty, place, PROPERTY_PLACE_COLUMNS);
    const andProperty = onProperty.isEmpty ? "" : ` AND ${onProperty.sql.slice(" WHERE ".length)}`;
    const params = [tenant.company.id, ...onProperty.params];
    const from = `FROM tenancies t JOIN properties p ON p.id = t.property_id WHERE t.tenant_id = ?${andProperty}`;
    // The same tenancies with their property as a subquery, for the count and the summary: an
    // aggregate over a join is not flattened, and on an older version of a snapshot store, where
    // properties is a union view, SQLite would read it whole to join it.
    const countFrom = {
      from: `FROM tenancies t WHERE t.tenant_id = ? AND EXISTS (SELECT 1 FROM properties p WHERE p.id = t.property_id${andProperty})`,
      params,
    };
    // Every member of a tenant location but its tenant's name, which is the same on every row.
    const { rows, total } = pagedQuery<TenantLocation>(
      snapshot,
      `SELECT t.*, 'tenant_location' AS object, p.name AS property_name, p.asset_type, p.address, p.city,
        p.state_code, p.latitude, p.longitude`,
      from,
      "ORDER BY t.lease_expiration, t.id",
      params,
      query,
      countFrom,
    );
    for (const r of rows) r.tenant_name = tenant.company.name;
    const state = "(SELECT p.state_code FROM properties p WHERE p.id = t.property_id)";
    const summary = companySummary(snapshot, tenant, total, "t.leased_area_sqft", countFrom.from, params, state);
    return listEnvelope(rows, query, total, snapshot.ref, { tenant: summary });
  },
});
