// Section 4.1: parcels and listings.
import { Type } from "@sinclair/typebox";
import { Listing, Parcel } from "../../shared/contract/records";
import { StringEnum } from "../../shared/contract/schema-helpers";
import { LISTING_PROPERTY_TYPES, LISTING_STATUSES, PARCEL_LAND_USES } from "../../shared/contract/vocabulary";
import { ListOf, PagingQuery, listEnvelope } from "../http/list-envelope";
import type { RouteDef } from "../http/route-def";
import { Where, pagedQuery } from "../data/sql-where";
import { QueryObject, q, splitCity } from "./query-params";

export const parcelsRoute: RouteDef = {
  method: "GET",
  url: "/v1/parcels",
  operationId: "listParcels",
  tag: "Parcels and listings",
  summary: "List parcels",
  description: "Assessor parcels, filtered by geography, APN and land use, in a stable order.",
  cost: 1,
  querystring: QueryObject(
    {
      state_code: q.state_code,
      county_fips: Type.String({ pattern: "^[0-9]{5}$", description: "Five-digit county FIPS code." }),
      city: q.city,
      zip: q.zip,
      apn: Type.String({ minLength: 1, maxLength: 40, description: "Assessor's parcel number (exact)." }),
      land_use: StringEnum(PARCEL_LAND_USES, { description: "Standardised land use." }),
      ...PagingQuery,
    },
  ),
  response: ListOf(Parcel),
  handler: ({ snapshot, query }) => {
    const { city, state } = splitCity(query.city, query.state_code);
    const w = new Where()
      .when(state, "state_code = ?")
      .when(query.county_fips, "fips = ?")
      .when(city, "city = ? COLLATE NOCASE")
      .when(query.zip, "zip = ?")
      .when(query.apn, "apn = ?")
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
  description: "Listings matching the filters, newest first. `status=active` gives the active listings.",
  cost: 1,
  querystring: QueryObject(
    {
      state: Type.String({ pattern: "^[A-Za-z]{2}$", description: "Two-letter state code, e.g. TX." }),
      city: q.city,
      zip: q.zip,
      status: StringEnum(LISTING_STATUSES, { description: "Listing status." }),
      property_type: StringEnum(LISTING_PROPERTY_TYPES, { description: "Property type." }),
      min_price: Type.Number({ minimum: 0, description: "Minimum list price, USD." }),
      max_price: Type.Number({ minimum: 0, description: "Maximum list price, USD." }),
      min_bedrooms: Type.Integer({ minimum: 0, description: "Minimum bedrooms." }),
      ...PagingQuery,
    },
  ),
  response: ListOf(Listing),
  handler: ({ snapshot, query }) => {
    const { city, state } = splitCity(query.city, query.state);
    const w = new Where()
      .when(state, "state_code = ?")
      .when(city, "city = ? COLLATE NOCASE")
      .when(query.zip, "zip = ?")
      .when(query.status, "status = ?")
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
