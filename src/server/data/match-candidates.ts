// The candidates of match rows: the property ids the match index's keys find
// (snapshot/match-keys.ts), and each property's row as the snapshot that answers holds it, read
// once for a request and its address read once (street line, city and the names a row may give
// its place by).
import { compactKey, namesOfPlace } from "../../contract/place-aliases";
import { type StreetLine, cityKey, countyKey, streetLine, tokens } from "../../contract/street-address";
import { MATCH_KEYS_TABLE } from "../../snapshot/match-keys";
import type { SnapshotContext } from "./snapshot-context";

/** A candidate property as read from the snapshot, with its address read once. */
export interface Candidate {
  id: string;
  address: string;
  city: string;
  state_code: string;
  zip: string;
  county: string;
  county_fips: string;
  parcel_id: string | null;
  apn: string | null;
  street: StreetLine;
  words: string[];
  cityKey: string;
  /** The county without its spaces (countyKey, then compactKey): DuPage and Du Page are one. */
  countyCompact: string;
  /** The names a row may give its city by, each as its words (cityWord): its own, and those that cover it (place-aliases.ts). */
  cityForms: string[][];
  line: string;
}

/** Most candidates a row's keys may find; a key finding more (a house number on a common street name anywhere) finds none. */
const MAX_KEY_CANDIDATES = 200;
/** Statement sizes for `IN (...)` lists, so that few statements are prepared: a list is padded to the next. */
const LIST_SIZES = [1, 8, 64, 512];

/** The candidates the keys read so far found, each property's row read once. */
export class Found {
  private readonly ids = new Map<string, string[]>();
  private readonly rows = new Map<string, Candidate>();
  constructor(private readonly snapshot: SnapshotContext) {}

  /** Reads the keys not read yet, and the rows of the properties they find (with their parcel numbers for `parcels`). */
  add(keys: string[], parcels = false): void {
    const fresh = [...new Set(keys)].filter((k) => !this.ids.has(k));
    for (const k of fresh) this.ids.set(k, []);
    for (const [key, list] of idsByKey(this.snapshot, fresh)) this.ids.set(key, list);
    const ids = new Set<string>();
    for (const k of fresh) for (const id of this.ids.get(k)!) if (!this.rows.has(id) || parcels) ids.add(id);
    for (const [id, row] of candidateRows(this.snapshot, [...ids], parcels)) this.rows.set(id, row);
  }

  /** The candidates `keys` and `more` found (a key's property that the answering version does not hold is none). */
  near(keys: readonly string[], more: readonly string[]): Candidate[] {
    const out = new Set<Candidate>();
    for (const list of [keys, more]) {
      for (const k of list) {
        for (const id of this.ids.get(k) ?? []) {
          const row = this.rows.get(id);
          if (row) out.add(row);
        }
      }
    }
    return [...out];
  }
}

/** The property ids each key finds, reading the index in statements of a few fixed sizes. */
function idsByKey(snapshot: SnapshotContext, keys: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const chunk of chunks(keys)) {
    const sql = `SELECT key, property_id FROM ${MATCH_KEYS_TABLE} WHERE key IN (${chunk.map(() => "?").join(",")})`;
    for (const row of snapshot.all<{ key: string; property_id: string }>(sql, chunk)) {
      const list = out.get(row.key);
      if (list) list.push(row.property_id);
      else out.set(row.key, [row.property_id]);
    }
  }
  for (const [key, list] of out) if (list.length > MAX_KEY_CANDIDATES) out.delete(key);
  return out;
}

/**
 * The candidates' rows in the snapshot that answers (a key may name a property another version
 * holds: it is not read), with their parcels' numbers when `parcels` asks for them.
 */
function candidateRows(snapshot: SnapshotContext, ids: string[], parcels: boolean): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  const apn = parcels ? "(SELECT pa.apn FROM parcels pa WHERE pa.id = p.parcel_id)" : "NULL";
  for (const chunk of chunks(ids)) {
    const sql =
      `SELECT p.id, p.address, p.city, p.state_code, p.zip, p.county, p.county_fips, p.parcel_id, ${apn} AS apn ` +
      `FROM properties p WHERE p.id IN (${chunk.map(() => "?").join(",")})`;
    for (const row of snapshot.all<Omit<Candidate, "street" | "words" | "cityKey" | "countyCompact" | "cityForms" | "line">>(sql, chunk)) {
      const words = tokens(row.address);
      const city = cityKey(row.city);
      const county = countyKey(row.county);
      out.set(row.id, {
        ...row,
        street: streetLine(words),
        words,
        cityKey: city,
        countyCompact: compactKey(county),
        cityForms: namesOfPlace({ state: row.state_code, city, county }),
        line: `${row.address}, ${row.city}, ${row.state_code} ${row.zip}`,
      });
    }
  }
  return out;
}

/** A list cut into statements' lists of LIST_SIZES, the last padded with nulls (which match nothing). */
function chunks(list: string[]): (string | null)[][] {
  const out: (string | null)[][] = [];
  const max = LIST_SIZES[LIST_SIZES.length - 1];
  for (let i = 0; i < list.length; i += max) {
    const part: (string | null)[] = list.slice(i, i + max);
    const size = LIST_SIZES.find((s) => s >= part.length)!;
    while (part.length < size) part.push(null);
    out.push(part);
  }
  return out;
}

