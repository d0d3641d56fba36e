// A place index over a few places written out in a test: kind, code, name, local name, state and
// property count (the key is the local name's, as the snapshot build writes it).
import Database from "better-sqlite3";
import { placeKey, type PlaceKind } from "../../src/contract/places";
import { PlaceIndex } from "../../src/server/data/place-index";

export type PlaceRow = [kind: PlaceKind, code: string, name: string, local: string, state: string, properties: number];

export function placeIndexOf(rows: readonly PlaceRow[]): PlaceIndex {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE places (kind, code, name, local_name, key, state_code, city, county_fips, property_count, record_count)");
  const insert = db.prepare("INSERT INTO places VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)");
  for (const [kind, code, name, local, state, n] of rows) insert.run(kind, code, name, local, placeKey(local), state, n, n);
  return new PlaceIndex(db);
}
