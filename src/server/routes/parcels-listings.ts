// Section 4.1: parcels and listings.
import { Listing, Parcel } from "../../shared/contract/records";
import { CREDIT_COSTS } from "../../shared/contract/credit-costs";
import { QUERIES } from "../../shared/contract/queries";
import { ListOf, listEnvelope } from "../http/list-envelope";
import type { RouteDef } from "../http/route-def";
import { Where, pagedQuery } from "../data/sql-where";
import { wherePlace } from "../data/place-filter";
import { Paged } from "./query-params";
import { PLACE_PROBLEMS, RANGE_PROBLEM, queryPlaces } from "./place-params";

export const parcelsRoute: RouteDef = {
  method: "GET",
  url: "/v1/parcels",
  operationId: "listParcels",
  tag: "Parcels and listings",
  summary: "List parcels",
  description:
    "Assessor parcels, filtered by place (`geography`: a state, county, city or ZIP code; or `state_code`, `county_fips`, " +
    "`city`, `zip`), APN and land use, in a stable order.",
  cost: CREDIT_COSTS.listParcels,
  badRequest: PLACE_PROBLEMS,
  querystring: Paged(QUERIES.listParcels),
  response: ListOf(Parcel),
  handler: ({ snapshot, query }) => {
    const w = new Where();
    for (const place of queryPlaces(snapshot, "listParcels", query)) {
      wherePlace(w, place, { state: "state_code", city: "city", zip: "zip", county: "fips" });
    }
    w.when(query.apn, "apn = ?")
      .when(query.land_use, "land_use = ?");
    const { rows, total } = pagedQuery(snapshot, "SELECT *", `FROM parcels${w.sql}`, "ORDER BY rowid", w.params, query as any);
    return listEnvelope(rows, query as any, total, snapshot.ref);
  },
};

export const listingsRoute: RouteDef = {
  method: "GET",
  url: "/v1/listings/search",
  operationId: "searchListings",
  tag: "Parcels and listings",
  summary: "Search listings",
  description:
    "Listings matching the filters, newest first. `status=active` gives the active listings. Place: `geography` (a state, " +
    "city or ZIP code), or `state`, `city`, `zip`.",
  cost: CREDIT_COSTS.searchListings,
  badRequest: `${PLACE_PROBLEMS}; or ${RANGE_PROBLEM}`,
  querystring: Paged(QUERIES.searchListings),
  response: ListOf(Listing),
  handler: ({ snapshot, query }) => {
    const w = new Where();
    for (const place of queryPlaces(snapshot, "searchListings", query, { stateParam: "state" })) {
      wherePlace(w, place, { state: "state_code", city: "city", zip: "zip" });
    }
    w.when(query.status, "status = ?")
      .when(query.property_type, "property_type = ?")
      .when(query.min_price, "list_price >= ?")
      .when(query.max_price, "list_price <= ?")
      .when(query.min_bedrooms, "bedrooms >= ?");
    const { rows, total } = pagedQuery(
      snapshot,
      "SELECT *",
      `FROM listings${w.sql}`,
      "ORDER BY listed_date DESC, id",
      w.params,
      query as any,
    );
    return listEnvelope(rows, query as any, total, snapshot.ref);
  },
};
