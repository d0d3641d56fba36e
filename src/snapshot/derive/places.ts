// Every place the snapshot holds, by kind: the states, counties, cities, ZIP codes and metros
// that any of its records is in. The service resolves the places people write against this
// table (an unknown place is refused free of charge, with suggestions), so it is derived from
// the data itself and describes imported snapshots as well as generated ones.
import type Database from "better-sqlite3";
import { Type, type Static } from "@sinclair/typebox";
import { StringEnum, Nullable } from "../../contract/schema-helpers";
import { PLACE_KINDS, countyWord, placeKey } from "../../contract/places";
import { stateName } from "../../contract/states";
import { cityId } from "../geo-keys";

export const PlaceRow = Type.Object({
  kind: StringEnum(PLACE_KINDS),
  code: Type.String({
    description: "State code, county FIPS code, city id (city-austin-tx), ZIP code or metro id (unique within a kind).",
  }),
  name: Type.String({ description: 'How answers name it: "Texas", "Travis County, TX", "Austin, TX", "78704", "Austin, TX metro".' }),
  local_name: Type.String({ description: 'The name without its state, as the records spell it: "Austin", "Travis".' }),
  key: Type.String({ description: "local_name as places are matched (placeKey)." }),
  state_code: Type.String(),
  city: Nullable(Type.String({ description: "A ZIP code's main city." })),
  county_fips: Nullable(Type.String({ description: "A ZIP code's or a city's main county." })),
  property_count: Type.Integer({ minimum: 0, description: "Commercial properties in the place." }),
  record_count: Type.Integer({ minimum: 0, description: "Records of any kind in the place (properties, parcels, listings, sales)." }),
});
export type PlaceRow = Static<typeof PlaceRow>;

interface Counted {
  properties: number;
  records: number;
}

/** Counts per place id, with the most common value of an attribute (a ZIP's city, say). */
class Tally<A extends string> {
  readonly rows = new Map<string, Counted & { state: string; local: string; attrs: Map<A, Map<string, number>> }>();

  add(id: string, state: string, local: string, properties: number, records: number, attrs: Partial<Record<A, string | null>> = {}): void {
    let row = this.rows.get(id);
    if (!row) this.rows.set(id, (row = { state, local, properties: 0, records: 0, attrs: new Map() }));
    row.properties += properties;
    row.records += records;
    for (const [name, value] of Object.entries(attrs) as [A, string | null][]) {
      if (value === null || value === undefined) continue;
      const counts = row.attrs.get(name) ?? new Map<string, number>();
      row.attrs.set(name, counts);
      counts.set(value, (counts.get(value) ?? 0) + records);
    }
  }

  static mostCommon(counts: Map<string, number> | undefined): string | null {
    let best: string | null = null;
    let n = -1;
    for (const [value, c] of counts ?? []) if (c > n || (c === n && value < best!)) [best, n] = [value, c];
    return best;
  }
}

/** Records of one table that lie in the same city, state, ZIP code and county (as far as the table says). */
export type PlaceGroup = { city: string; state_code: string; zip: string | null; fips: string | null; county: string | null; n: number };

/** The record tables places are counted over, and which place columns each has. */
const PLACE_SOURCES = {
  properties: { zip: true, county: true },
  parcels: { zip: true, county: true },
  listings: { zip: true, county: false },
  sales: { zip: false, county: false },
} as const;
export type PlaceSource = keyof typeof PLACE_SOURCES;

/** The place groups of the tables a parallel build's worker holds, counted as it wrote them (PlaceTally). */
export type PartPlaces = Record<Exclude<PlaceSource, "properties">, PlaceGroup[]> & { saleMetros: [string, number][] };

export type PlaceColumns = {
  city: string;
  state_code: string;
  zip?: string | null;
  county_fips?: string | null;
  county?: string | null;
  metro_id?: string | null;
};

const compareText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
const byPlaceColumns = (a: PlaceGroup, b: PlaceGroup) =>
  compareText(a.city, b.city) ||
  compareText(a.state_code, b.state_code) ||
  compareText(a.zip, b.zip) ||
  compareText(a.fips, b.fips) ||
  compareText(a.county, b.county);

/**
 * Counts records into place groups as they come, in one pass and without sorting: from a table
 * scan (tally), or from the rows as a parallel build's worker writes them (add).
 */
export class PlaceTally {
  private readonly groups = new Map<PlaceSource, Map<string, PlaceGroup>>();
  private readonly saleMetros = new Map<string, number>();

  add(table: PlaceSource, r: PlaceColumns): void {
    const cols = PLACE_SOURCES[table];
    const zip = cols.zip ? (r.zip ?? null) : null;
    const fips = cols.county ? (r.county_fips ?? null) : null;
    const county = cols.county ? (r.county ?? null) : null;
    let byKey = this.groups.get(table);
    if (!byKey) this.groups.set(table, (byKey = new Map()));
    const key = `${r.city}|${r.state_code}|${zip}|${fips}|${county}`;
    const g = byKey.get(key);
    if (g) g.n++;
    else byKey.set(key, { city: r.city, state_code: r.state_code, zip, fips, county, n: 1 });
    if (table === "sales" && r.metro_id) this.saleMetros.set(r.metro_id, (this.saleMetros.get(r.metro_id) ?? 0) + 1);
  }

  /** Counts every row of a snapshot table. */
  tally(db: Database.Database, table: PlaceSource): void {
    const cols = PLACE_SOURCES[table];
    const sql = `SELECT city, state_code, ${cols.zip ? "zip" : "NULL AS zip"}, ${cols.county ? "county_fips, county" : "NULL AS county_fips, NULL AS county"}${
      table === "sales" ? ", metro_id" : ""
    } FROM ${table}`;
    for (const r of db.prepare(sql).iterate() as IterableIterator<PlaceColumns>) this.add(table, r);
  }

  /**
   * A table's groups in the order of their columns (nulls first), as a GROUP BY gives them: the
   * first group of a place names it (Tally), so the order is part of the result.
   */
  groupsOf(table: PlaceSource): PlaceGroup[] {
    return [...(this.groups.get(table)?.values() ?? [])].sort(byPlaceColumns);
  }

  /** Sales counted by metro. */
  saleMetroCounts(): [string, number][] {
    return [...this.saleMetros];
  }

  /** What a worker hands back: its tables' groups and sales by metro. */
  part(): PartPlaces {
    return {
      parcels: this.groupsOf("parcels"),
      listings: this.groupsOf("listings"),
      sales: this.groupsOf("sales"),
      saleMetros: this.saleMetroCounts(),
    };
  }
}

/**
 * Fills `places` from every record table. A parallel build passes the groups its worker counted
 * for the tables it wrote (`part`); otherwise each table is scanned here.
 */
export function derivePlaces(db: Database.Database, insert: (row: PlaceRow) => void, part?: PartPlaces): number {
  const states = new Tally<never>();
  const cities = new Tally<"county">();
  const zips = new Tally<"city" | "county">();
  const counties = new Tally<never>();
  const scanned = new PlaceTally();
  const tables: PlaceSource[] = part ? ["properties"] : ["properties", "parcels", "listings", "sales"];
  for (const t of tables) scanned.tally(db, t);
  const groupsOf = (t: PlaceSource) => (part && t !== "properties" ? part[t] : scanned.groupsOf(t));
  for (const table of Object.keys(PLACE_SOURCES) as PlaceSource[]) {
    const isProperty = table === "properties";
    for (const g of groupsOf(table)) {
      const properties = isProperty ? g.n : 0;
      states.add(g.state_code, g.state_code, stateName(g.state_code), properties, g.n);
      cities.add(cityId(g.city, g.state_code), g.state_code, g.city, properties, g.n, { county: g.fips });
      if (g.zip) zips.add(g.zip, g.state_code, g.zip, properties, g.n, { city: g.city, county: g.fips });
      if (g.fips && g.county) counties.add(g.fips, g.state_code, g.county, properties, g.n);
    }
  }
  const metros = db
    .prepare(
      "SELECT metro_id AS id, max(metro_name) AS name, max(state_code) AS state, count(*) AS n FROM properties WHERE metro_id IS NOT NULL GROUP BY metro_id",
    )
    .all() as { id: string; name: string; state: string; n: number }[];
  const saleCounts = new Map(part ? part.saleMetros : scanned.saleMetroCounts());

  let n = 0;
  const emit = (row: PlaceRow) => {
    insert(row);
    n++;
  };
  const ordered = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const base = (code: string, c: Counted & { state: string; local: string }) => ({
    code,
    local_name: c.local,
    key: placeKey(c.local),
    state_code: c.state,
    property_count: c.properties,
    record_count: c.records,
  });
  for (const [id, c] of ordered(states.rows)) emit({ kind: "state", name: c.local, city: null, county_fips: null, ...base(id, c) });
  for (const [id, c] of ordered(counties.rows)) {
    emit({ kind: "county", name: `${c.local} ${countyWord(c.state)}, ${c.state}`, city: null, county_fips: id, ...base(id, c) });
  }
  for (const [id, c] of ordered(cities.rows)) {
    emit({
      kind: "city",
      name: `${c.local}, ${c.state}`,
      city: c.local,
      county_fips: Tally.mostCommon(c.attrs.get("county")),
      ...base(id, c),
    });
  }
  for (const [id, c] of ordered(zips.rows)) {
    emit({
      kind: "zip",
      name: id,
      city: Tally.mostCommon(c.attrs.get("city")),
      county_fips: Tally.mostCommon(c.attrs.get("county")),
      ...base(id, c),
    });
  }
  for (const m of metros.sort((a, b) => (a.id < b.id ? -1 : 1))) {
    // "Austin, TX metro": the principal city and its state.
    const named = /^(.*), ([A-Z]{2}) metro$/.exec(m.name ?? "");
    const local = named ? named[1] : (m.name ?? m.id);
    const state = named ? named[2] : m.state;
    emit({
      kind: "metro",
      code: m.id,
      name: m.name ?? m.id,
      local_name: local,
      key: placeKey(local),
      state_code: state,
      city: null,
      county_fips: null,
      property_count: m.n,
      record_count: m.n + (saleCounts.get(m.id) ?? 0),
    });
  }
  return n;
}
