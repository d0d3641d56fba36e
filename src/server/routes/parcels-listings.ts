// Section 4.1: parcels and listings.
import { Listing, Parcel } from "../../contract/records";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import { Where, pagedQuery } from "../data/sql-where";
import { listEnvelope } from "../data/list-envelope";
import { wherePlace } from "../data/place-filter";
import { queryPlaces } from "./place-params";

export const parcelsRoute = defineRoute(OPERATIONS.listParcels, {
  handler: ({ snapshot, query }) => {
    const w = new Where();
    for (const place of queryPlaces(snapshot, "listParcels", query)) {
      wherePlace(w, place, { state: "state_code", city: "city", zip: "zip", county: "county_fips" });
    }
    w.when(query.apn, "apn = ?").when(query.land_use, "land_use = ?");
    const { rows, total } = pagedQuery<Parcel>(snapshot, "SELECT *", `FROM parcels${w.sql}`, "ORDER BY rowid", w.params, query);
    return listEnvelope(rows, query, total, snapshot.ref);
  },
});

export const listingsRoute = defineRoute(OPERATIONS.searchListings, {
  handler: ({ snapshot, query }) => {
    const w = new Where();
    for (const place of queryPlaces(snapshot, "searchListings", query)) {
      wherePlace(w, place, { state: "state_code", city: "city", zip: "zip" });
    }
    w.when(query.status, "status = ?")
      .when(query.property_type, "property_type = ?")
      .when(query.min_price, "list_price >= ?")
      .when(query.max_price, "list_price <= ?")
      .when(query.min_bedrooms, "bedrooms >= ?");
    const { rows, total } = pagedQuery<Listing>(
      snapshot,
      "SELECT *",
      `FROM listings${w.sql}`,
      "ORDER BY listed_date DESC, id",
      w.params,
      query,
    );
    return listEnvelope(rows, query, total, snapshot.ref);
  },
});
