// The commercial property search behind both the cross-asset and the asset-oriented endpoint
//. Inputs an asset type's data cannot answer are refused with
// `unsupported_filter`, naming what is supported, rather than silently matching nothing.
import { ApiProblem } from "../http/problem";
import { SEARCH_INPUTS, type AssetType, type SearchInput } from "../../contract/vocabulary";
import type { SnapshotContext } from "./snapshot-context";
import { Where, containsPattern, pageTotal, pagedQuery } from "./sql-where";
import { ftsQuery } from "./fts-query";
import { wherePlace } from "./place-filter";
import type { ResolvedPlace } from "./place-resolver";
import { jsonObjectSql } from "../../snapshot/property-docs";
import { CommercialProperty } from "../../contract/records";
import { FTS_TABLE } from "../../snapshot/store/store-layout";
import { VERSION_PARTS, textHeldView, textPartView } from "../../snapshot/store/store-open";
import { valueOfKey } from "../../snapshot/store/version-text-index";

/**
 * Each matching property as the JSON text of its record, written by SQLite: building a row
 * object per property and serialising it again costs more per page (docs/benchmarks.md
 * has the figures). The property documents' test holds this SQL's output
 * equal to JavaScript's for every row.
 */
const PROPERTY_JSON_VALUE = jsonObjectSql(CommercialProperty, "p");
const PROPERTY_JSON = `${PROPERTY_JSON_VALUE} AS json`;

export const PROPERTY_PLACE_COLUMNS = { state: "p.state_code", city: "p.city", zip: "p.zip", county: "p.county_fips", metro: "p.metro_id" };

export interface PropertySearch {
  asset_type?: AssetType;
  q?: string;
  /** The places the request names, resolved (every one must hold). */
  places: ResolvedPlace[];
  subtype?: string;
  min_building_area_sqft?: number;
  min_land_area_acres?: number;
  min_units?: number;
  owner_id?: string;
  owner_name?: string;
  limit: number;
  offset: number;
}

export function checkSupported(snapshot: SnapshotContext, assetType: AssetType, query: Record<string, unknown>) {
  const supported = snapshot.assetInputs[assetType];
  const refused = (Object.keys(SEARCH_INPUTS) as SearchInput[]).filter(
    (input) => query[input] !== undefined && !supported.includes(input),
  );
  if (refused.length === 0) return;
  throw new ApiProblem(
    400,
    "unsupported_filter",
    `${refused.join(", ")} ${refused.length === 1 ? "is" : "are"} not supported for ${assetType} in this snapshot. ` +
      `Supported: ${supported.join(", ")}.`,
    refused.map((input) => ({
      pointer: `/${input}`,
      parameter: input,
      detail: `${input} is not supported for ${assetType}`,
    })),
    { asset_type: assetType, supported_filters: supported },
  );
}

/** Owner ids whose name starts with (or contains) the text; few enough to use as an IN list. */
function ownerIdsByName(snapshot: SnapshotContext, name: string): string[] {
  const rows = snapshot.all<{ id: string }>(
    "SELECT id FROM companies WHERE company_type = 'owner' AND name LIKE ? ESCAPE '\\' ORDER BY property_count DESC LIMIT 200",
    [containsPattern(name)],
  );
  return rows.map((r) => r.id);
}

/** One page of matching properties, each as its record's JSON text, and the count of all matches. */
export function searchProperties(snapshot: SnapshotContext, s: PropertySearch): { records: string[]; total: number } {
  const { rows, total } = matchingPage(snapshot, s);
  return { records: rows.map((r) => r.json), total };
}

function matchingPage(snapshot: SnapshotContext, s: PropertySearch) {
  if (s.asset_type) checkSupported(snapshot, s.asset_type, s as unknown as Record<string, unknown>);
  const w = new Where().when(s.asset_type, "p.asset_type = ?");
  for (const place of s.places) wherePlace(w, place, PROPERTY_PLACE_COLUMNS);
  w.when(s.subtype, "p.subtype = ? COLLATE NOCASE")
    .when(s.min_building_area_sqft, "p.building_area_sqft >= ?")
    .when(s.min_land_area_acres, "p.land_area_acres >= ?")
    .when(s.min_units, "p.units >= ?")
    .when(s.owner_id, "p.owner_id = ?");
  if (s.owner_name !== undefined) {
    const ids = ownerIdsByName(snapshot, s.owner_name);
    w.add(ids.length ? `p.owner_id IN (${ids.map(() => "?").join(",")})` : "0", ...ids);
  }
  const page = { limit: s.limit, offset: s.offset };
  if (s.q !== undefined) {
    const match = ftsQuery(s.q);
    if (!match) {
      throw new ApiProblem(400, "validation_failed", "q must contain at least one letter or digit.", [
        { pointer: "/q", parameter: "q", detail: "q must contain at least one letter or digit" },
      ]);
    }
    if (snapshot.readsByParts) {
      // An older version of a store: the page's rowids from its text index, in the index's
      // order without sorting (store-open.ts textIndexViews), then the page's rows. Searched by
      // its words alone, the version's whole index gives the page and the count without reading
      // a row (heldTextPage); with other filters, a page from each part's index joined to its
      // rows, merged. SQLite searches the index of the whole version as a union view only as a
      // subquery of its own, which reads every match before the first page.
      if (w.isEmpty) return heldTextPage(snapshot, match, page);
      const filters = w.sql;
      const matching = (view: string) => `FROM ${view} p${filters}${filters ? " AND" : " WHERE"} p.${FTS_TABLE} MATCH ?`;
      const params = [...w.params, match];
      const parts = VERSION_PARTS.map(textPartView);
      const counted = parts.map((view) => `SELECT 1 ${matching(view)}`).join(" UNION ALL ");
      return pagedQuery<{ json: string }>(
        snapshot,
        `SELECT ${PROPERTY_JSON}`,
        "FROM properties p",
        "ORDER BY p.rowid",
        [],
        page,
        { from: `FROM (${counted})`, params: parts.flatMap(() => params) },
        { alias: "p", froms: parts.map(matching), params, partOrder: 'ORDER BY p."in order"' },
      );
    }
    // With no other filter, count on the text index alone: joining every match to its row
    // to count it costs several times more.
    const textOnly = w.isEmpty;
    w.add("properties_fts MATCH ?", match);
    return pagedQuery<{ json: string }>(
      snapshot,
      `SELECT ${PROPERTY_JSON}`,
      `FROM properties_fts JOIN properties p ON p.rowid = properties_fts.rowid${w.sql}`,
      // Stable order, not relevance: every word must match anyway, and ranking every match
      // costs 5-10x the query. Ordering by the text index's rowid lets it stop after one page.
      "ORDER BY properties_fts.rowid",
      w.params,
      page,
      textOnly ? { from: "FROM properties_fts WHERE properties_fts MATCH ?", params: [match] } : undefined,
    );
  }
  return pagedQuery<{ json: string }>(snapshot, `SELECT ${PROPERTY_JSON}`, `FROM properties p${w.sql}`, "ORDER BY p.rowid", w.params, page);
}

/**
 * One page of an older version's search by its words alone: the page's keys from the index over
 * every version (store-open.ts textHeldView), in `rid` order, then each key's row from the table
 * that holds it (version-text-index.ts valueOfKey), its record's JSON built there; the count is
 * the index's matches. The version's view of `properties` would look each rowid up in both of
 * its parts (docs/benchmarks.md has what that costs).
 */
function heldTextPage(snapshot: SnapshotContext, match: string, page: { limit: number; offset: number }) {
  const held = textHeldView();
  const keys = `SELECT p."in order" AS k FROM ${held} p WHERE p.${FTS_TABLE} MATCH ? ORDER BY p."in order" LIMIT ? OFFSET ?`;
  const rows = snapshot.all<{ json: string }>(`SELECT ${valueOfKey("page.k", PROPERTY_JSON_VALUE)} AS json FROM (${keys}) page ORDER BY page.k`, [
    match,
    page.limit,
    page.offset,
  ]);
  const count = { from: `FROM (SELECT 1 FROM ${held} p WHERE p.${FTS_TABLE} MATCH ?)`, params: [match] };
  return { rows, total: pageTotal(snapshot, rows.length, page, count) };
}
