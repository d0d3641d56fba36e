// GET /v1/commercial/sale-comps: captured sales around a subject property (most similar first,
// with distance and a similarity score) or in a place (newest first). Every filter applies in
// both modes; `per_property=latest` keeps each building's latest matching sale, and `sort`
// and `order` choose the order. Around a subject the comps are sales of its own kind (its asset
// type, or its subtype and kin where the type is broad: data/comp-kin.ts), and
// `prefer_sold_within_months` puts the recent ones first. Every comp says how many whole months
// before the capture it sold.

import { type SALE_SORTS } from "../../contract/queries";
import type { CommercialProperty } from "../../contract/records";
import { type ComparisonStatistic, SaleCompRow, SaleCompsSubject } from "../../contract/responses";
import { fieldStatistics, numericFieldsOf } from "../../contract/statistics";
import { ApiProblem, notFound } from "../http/problem";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute, type QueryOf } from "./route-def";
import { Where, pagedQuery } from "../data/sql-where";
import { listEnvelope } from "../data/list-envelope";
import { haversineMiles } from "../data/stats";
import { monthsSince, similarity } from "../data/comp-similarity";
import { compKinds } from "../data/comp-kin";
import { wherePlace } from "../data/place-filter";
import type { SnapshotContext } from "../data/snapshot-context";
import { MAX_COMP_CANDIDATES } from "../data/search-bounds";
import { queryPlaces } from "./place-params";

type Sort = (typeof SALE_SORTS)[number];

type CompsQuery = QueryOf<typeof OPERATIONS.findSaleComps>;

/** The filters of both modes: what the sale is, where, when and for how much. */
function saleFilters(snapshot: SnapshotContext, query: CompsQuery, w: Where): Where {
  for (const place of queryPlaces(snapshot, "findSaleComps", query)) {
    wherePlace(w, place, { state: "state_code", city: "city", zip: "zip", county: "county_fips", metro: "metro_id" });
  }
  return w
    .when(query.subtype, "subtype = ? COLLATE NOCASE")
    .when(query.min_sale_date, "sale_date >= ?")
    .when(query.max_sale_date, "sale_date <= ?")
    .when(query.min_price, "sale_price >= ?")
    .when(query.max_price, "sale_price <= ?")
    .when(query.min_building_area_sqft, "building_area_sqft >= ?");
}

/** The refusal of an input that orders or measures comps around a subject, given without one. */
function needsSubject(parameter: string, detail: string): ApiProblem {
  return new ApiProblem(400, "validation_failed", detail, [
    { pointer: `/${parameter}`, parameter, detail: `${parameter} needs property_id` },
  ]);
}

function sortOf(query: CompsQuery, subject: boolean): { sort: Sort; desc: boolean } {
  const sort = query.sort ?? (subject ? "similarity_score" : "sale_date");
  if (!subject && query.prefer_sold_within_months !== undefined) {
    throw needsSubject(
      "prefer_sold_within_months",
      "prefer_sold_within_months needs a subject property_id (it orders the comps around one); in a place, sales come newest first.",
    );
  }
  if (!subject && (sort === "similarity_score" || sort === "distance_miles")) {
    throw new ApiProblem(
      400,
      "validation_failed",
      `sort=${sort} needs a subject property_id (distance and similarity are measured from it).`,
      [{ pointer: "/sort", parameter: "sort", detail: `sort=${sort} needs property_id` }],
    );
  }
  return { sort, desc: (query.order ?? (sort === "distance_miles" ? "asc" : "desc")) === "desc" };
}

type Comp = SaleCompRow;

/** The fields `stats=true` summarises: every numeric field of a comp. */
const STAT_FIELDS = numericFieldsOf(SaleCompRow);

/** `months_since_sale` in SQL: the capture's month less the sale's (the capture's month a number, never text from a request). */
function monthsSinceSql(captureDay: string): string {
  const capture = Number(captureDay.slice(0, 4)) * 12 + Number(captureDay.slice(5, 7));
  return `(${capture} - (CAST(substr(sale_date, 1, 4) AS INTEGER) * 12 + CAST(substr(sale_date, 6, 2) AS INTEGER)))`;
}

/** A stat field as a column of the sales table: distance and similarity exist only around a subject. */
function column(field: string, captureDay: string): string {
  if (field === "distance_miles" || field === "similarity_score") return `NULL AS ${field}`;
  return field === "months_since_sale" ? `${monthsSinceSql(captureDay)} AS ${field}` : field;
}

/** `statistics` over every matching comp when the request asks for them (nothing otherwise). */
function statisticsOf(query: CompsQuery, comps: () => Record<string, unknown>[]): { statistics?: ComparisonStatistic[] } {
  return query.stats === "true" ? { statistics: fieldStatistics(comps(), STAT_FIELDS) } : {};
}

/** Each property's latest sale among `comps` (ties: the higher sale id). */
function latestPerProperty(comps: Comp[]): Comp[] {
  const latest = new Map<string, Comp>();
  for (const c of comps) {
    const held = latest.get(c.property_id);
    if (!held || c.sale_date > held.sale_date || (c.sale_date === held.sale_date && c.id > held.id)) latest.set(c.property_id, c);
  }
  return comps.filter((c) => latest.get(c.property_id) === c);
}

function compare(a: Comp, b: Comp, sort: Sort, desc: boolean): number {
  const x = a[sort] as number | string | null;
  const y = b[sort] as number | string | null;
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1; // missing values last
  const order = x < y ? -1 : x > y ? 1 : 0;
  return desc ? -order : order;
}

function aroundSubject(snapshot: SnapshotContext, query: CompsQuery, subjectId: string) {
  const subject = snapshot.get<CommercialProperty>("SELECT * FROM properties WHERE id = ?", [subjectId]);
  if (!subject) throw notFound(`There is no commercial property '${subjectId}' in this snapshot.`);
  const radius = query.max_distance_miles;
  const { sort, desc } = sortOf(query, true);
  const dLat = radius / 69;
  const dLon = radius / (69 * Math.max(0.2, Math.cos((subject.latitude * Math.PI) / 180)));
  const w = new Where();
  // An asset type or subtype the caller names is theirs to choose; else the subject's kind of sale.
  const kinds = query.asset_type || query.subtype ? null : compKinds(subject.asset_type, subject.subtype);
  if (kinds)
    w.add(`(${kinds.map(() => "(asset_type = ? AND subtype = ?)").join(" OR ")})`, ...kinds.flatMap((k) => [k.asset_type, k.subtype]));
  else w.add("asset_type = ?", query.asset_type ?? subject.asset_type);
  w.add("latitude BETWEEN ? AND ?", subject.latitude - dLat, subject.latitude + dLat)
    .add("longitude BETWEEN ? AND ?", subject.longitude - dLon, subject.longitude + dLon)
    .add("property_id <> ?", subject.id);
  saleFilters(snapshot, query, w);
  // One more than the bound is read, so a box holding more is refused rather than answered from part of it.
  const candidates = snapshot.all<Comp>(`SELECT * FROM sales${w.sql} LIMIT ${MAX_COMP_CANDIDATES + 1}`, w.params);
  if (candidates.length > MAX_COMP_CANDIDATES) throw tooManyCandidates(radius);
  let comps: Comp[] = [];
  for (const c of candidates) {
    const d = haversineMiles(subject.latitude, subject.longitude, c.latitude, c.longitude);
    if (d > radius) continue;
    c.distance_miles = Math.round(d * 100) / 100;
    c.similarity_score = similarity(subject, c, c.distance_miles, snapshot.asOf);
    c.months_since_sale = monthsSince(snapshot.asOf, c.sale_date);
    comps.push(c);
  }
  if (query.per_property === "latest") comps = latestPerProperty(comps);
  // With prefer_sold_within_months, the recent sales first (0) and the older after (1).
  const within = query.prefer_sold_within_months;
  const tier = (c: Comp) => (within !== undefined && c.months_since_sale > within ? 1 : 0);
  comps.sort(
    (a, b) => tier(a) - tier(b) || compare(a, b, sort, desc) || (a.distance_miles ?? 0) - (b.distance_miles ?? 0) || (a.id < b.id ? -1 : 1),
  );
  const page = comps.slice(query.offset, query.offset + query.limit);
  const subjectInfo: SaleCompsSubject = {
    id: subject.id,
    name: subject.name,
    asset_type: subject.asset_type,
    latitude: subject.latitude,
    longitude: subject.longitude,
    radius_miles: radius,
  };
  return listEnvelope(page, query, comps.length, snapshot.ref, { subject: subjectInfo, ...statisticsOf(query, () => comps) });
}

/** The refusal of a search around a subject with more candidate sales than one request may rank. */
function tooManyCandidates(radius: number): ApiProblem {
  const limit = MAX_COMP_CANDIDATES.toLocaleString("en-US");
  const detail =
    `More than ${limit} sales of the asset type lie within about ${radius} miles of the subject: too many to rank in one request. ` +
    "Narrow the search: a smaller max_distance_miles, or min_sale_date, min_price, subtype or a place.";
  return new ApiProblem(400, "validation_failed", detail, [{ pointer: "/max_distance_miles", parameter: "max_distance_miles", detail }]);
}

function inPlace(snapshot: SnapshotContext, query: CompsQuery) {
  const { sort, desc } = sortOf(query, false);
  const w = new Where().when(query.asset_type, "asset_type = ?");
  saleFilters(snapshot, query, w);
  // Each property's latest matching sale: rank its sales newest first and keep the first.
  const from =
    query.per_property === "latest"
      ? `FROM (SELECT *, row_number() OVER (PARTITION BY property_id ORDER BY sale_date DESC, id DESC) AS nth FROM sales${w.sql}) WHERE nth = 1`
      : `FROM sales${w.sql}`;
  // Prices per unit and cap rates may be missing: those sales come last either way.
  const nulls = sort === "sale_date" || sort === "sale_price" ? "" : " NULLS LAST";
  const order = `ORDER BY ${sort} ${desc ? "DESC" : "ASC"}${nulls}, id`;
  const { rows, total } = pagedQuery<Comp & { nth?: number }>(snapshot, "SELECT *", from, order, w.params, query);
  for (const r of rows) {
    delete r.nth;
    r.distance_miles = null;
    r.similarity_score = null;
    r.months_since_sale = monthsSince(snapshot.asOf, r.sale_date);
  }
  // Statistics read every matching sale's numeric fields, in the page's order (they do not depend on it).
  const all = () =>
    snapshot.all<Record<string, unknown>>(`SELECT ${STAT_FIELDS.map((f) => column(f, snapshot.asOf)).join(", ")} ${from}`, w.params);
  return listEnvelope(rows, query, total, snapshot.ref, { subject: null, ...statisticsOf(query, all) });
}

export const saleCompsRoute = defineRoute(OPERATIONS.findSaleComps, {
  handler: ({ snapshot, query }) => {
    if (query.property_id) return aroundSubject(snapshot, query, query.property_id);
    if (query.geography || query.state_code || query.city || query.metro_id) return inPlace(snapshot, query);
    throw new ApiProblem(400, "validation_failed", "Give a subject property_id, or a place: geography (or state_code, city or metro_id).", [
      { pointer: "/property_id", parameter: "property_id", detail: "property_id or a place is required" },
    ]);
  },
});
