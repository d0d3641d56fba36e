// GET /v1/commercial/sale-comps: captured sales around a subject property (nearest and most
// similar first, with distance and a similarity score) or in a geography (newest first).
import { Type } from "@sinclair/typebox";
import { SaleCompRow } from "../../shared/contract/responses";
import { Nullable } from "../../shared/contract/schema-helpers";
import { CREDIT_COSTS } from "../../shared/contract/credit-costs";
import { QUERIES } from "../../shared/contract/queries";
import { ListOf, listEnvelope } from "../http/list-envelope";
import { ApiProblem, notFound } from "../http/problem";
import type { HandlerContext, RouteDef } from "../http/route-def";
import { Where, pagedQuery } from "../data/sql-where";
import { haversineMiles } from "../data/stats";
import { similarity } from "../data/comp-similarity";
import { Paged, splitCity } from "./query-params";

const Subject = Type.Object({
  id: Type.String(),
  name: Type.String(),
  asset_type: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  radius_miles: Type.Number(),
});

/** Most candidate sales looked at around one subject: bounds the work of one request. */
const MAX_CANDIDATES = 20_000;

function commonFilters(query: Record<string, any>, w: Where): Where {
  return w
    .when(query.subtype, "subtype = ? COLLATE NOCASE")
    .when(query.min_sale_date, "sale_date >= ?")
    .when(query.max_sale_date, "sale_date <= ?")
    .when(query.min_price, "sale_price >= ?")
    .when(query.max_price, "sale_price <= ?")
    .when(query.min_building_area_sqft, "building_area_sqft >= ?");
}

function aroundSubject({ snapshot, query }: HandlerContext) {
  const subject = snapshot.get<any>("SELECT * FROM properties WHERE id = ?", [query.property_id]);
  if (!subject) throw notFound(`There is no commercial property '${query.property_id}' in this snapshot.`);
  const radius: number = query.max_distance_miles;
  const dLat = radius / 69;
  const dLon = radius / (69 * Math.max(0.2, Math.cos((subject.latitude * Math.PI) / 180)));
  const w = new Where()
    .add("asset_type = ?", query.asset_type ?? subject.asset_type)
    .add("latitude BETWEEN ? AND ?", subject.latitude - dLat, subject.latitude + dLat)
    .add("longitude BETWEEN ? AND ?", subject.longitude - dLon, subject.longitude + dLon)
    .add("property_id <> ?", subject.id);
  commonFilters(query, w);
  const candidates = snapshot.all<any>(`SELECT * FROM sales${w.sql} LIMIT ${MAX_CANDIDATES}`, w.params);
  const scored = [];
  for (const c of candidates) {
    const d = haversineMiles(subject.latitude, subject.longitude, c.latitude, c.longitude);
    if (d > radius) continue;
    c.distance_miles = Math.round(d * 100) / 100;
    c.similarity_score = similarity(subject, c, radius, snapshot.asOf);
    scored.push(c);
  }
  scored.sort((a, b) => b.similarity_score - a.similarity_score || a.distance_miles - b.distance_miles || (a.id < b.id ? -1 : 1));
  const page = scored.slice(query.offset, query.offset + query.limit);
  const subjectInfo = {
    id: subject.id,
    name: subject.name,
    asset_type: subject.asset_type,
    latitude: subject.latitude,
    longitude: subject.longitude,
    radius_miles: radius,
  };
  return listEnvelope(page, query as any, scored.length, snapshot.ref, { subject: subjectInfo });
}

function inGeography({ snapshot, query }: HandlerContext) {
  const { city, state } = splitCity(query.city, query.state_code);
  const w = new Where()
    .when(query.asset_type, "asset_type = ?")
    .when(state, "state_code = ?")
    .when(city, "city = ? COLLATE NOCASE")
    .when(query.metro_id, "metro_id = ?");
  commonFilters(query, w);
  const { rows, total } = pagedQuery<any>(snapshot, "SELECT *", `FROM sales${w.sql}`, "ORDER BY sale_date DESC, id", w.params, query as any);
  for (const r of rows) {
    r.distance_miles = null;
    r.similarity_score = null;
  }
  return listEnvelope(rows, query as any, total, snapshot.ref, { subject: null });
}

export const saleCompsRoute: RouteDef = {
  method: "GET",
  url: "/v1/commercial/sale-comps",
  operationId: "findSaleComps",
  tag: "Sale comparables",
  summary: "Find captured sale comparables",
  description:
    "Give either a subject `property_id` (sales of the same asset type within `max_distance_miles`, most similar first, " +
    "with `distance_miles` and `similarity_score`), or a geography: `state_code`, `city` (\"Austin, TX\") or `metro_id` " +
    "(newest first).",
  cost: CREDIT_COSTS.findSaleComps,
  notFound: "The subject `property_id` is not in the snapshot",
  querystring: Paged(QUERIES.findSaleComps),
  response: ListOf(SaleCompRow, { subject: Nullable(Subject as any) }),
  handler: (ctx) => {
    const { query } = ctx;
    if (query.property_id) return aroundSubject(ctx);
    if (query.state_code || query.city || query.metro_id) return inGeography(ctx);
    throw new ApiProblem(
      400,
      "validation_failed",
      "Give a subject property_id, or a geography: state_code, city or metro_id.",
      [{ pointer: "/property_id", parameter: "property_id", detail: "property_id or a geography is required" }],
    );
  },
};
