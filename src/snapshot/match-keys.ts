// The match index: the keys by which an analyst's address or parcel number finds the properties
// it may name, built with the snapshot (the builder and the importer) and kept up to date by a
// store of snapshots at each publish. Each key names the properties that have it:
// - `Z|<zip>|<number>`: the house number in a ZIP code;
// - `C|<state>|<city>|<number>`: the house number in a city;
// - `N|<street name>|<number>`: the house number on a street of that name, anywhere;
// - `A|<apn>`: the property on the parcel with that number (letters and digits only).
// The index only finds candidates: the matcher reads each candidate's row in the snapshot that
// answers and compares the address itself, so a store keeps one index for all its versions
// (the keys of every version's properties) and a key left from an older version finds nothing
// wrong.
import type Database from "better-sqlite3";
import { apnKey, cityKey, nameKey, streetLine, tokens } from "../contract/street-address";

export const MATCH_KEYS_TABLE = "match_keys";
export const MATCH_KEYS_DDL = `CREATE TABLE IF NOT EXISTS ${MATCH_KEYS_TABLE} (key TEXT NOT NULL, property_id TEXT NOT NULL, PRIMARY KEY (key, property_id)) WITHOUT ROWID`;

/** What the keys of a property are made from. */
export interface MatchKeyRow {
  id: string;
  address: string;
  city: string;
  state_code: string;
  zip: string | null;
  apn: string | null;
}

export const zipKey = (zip: string, number: string) => `Z|${zip}|${number}`;
export const cityNumberKey = (state: string, city: string, number: string) => `C|${state}|${city}|${number}`;
export const streetKey = (name: string, number: string) => `N|${name}|${number}`;
export const parcelKey = (apn: string) => `A|${apn}`;

/** The keys of one property. */
export function matchKeysOf(row: MatchKeyRow): string[] {
  const street = streetLine(tokens(row.address));
  const keys = [cityNumberKey(row.state_code, cityKey(row.city), street.number), streetKey(nameKey(street.name), street.number)];
  if (row.zip) keys.push(zipKey(row.zip, street.number));
  const apn = row.apn ? apnKey(row.apn) : "";
  if (apn) keys.push(parcelKey(apn));
  return keys;
}

/** How many properties addMatchKeys reads at a time. */
const KEY_ROWS_PAGE = 20_000;

/** The rows the keys are made from: `from` names the properties (a table, or a query in parentheses) and `where` picks among them. */
function keyRowsSql(from: string, where = "1"): string {
  return (
    `SELECT p.rowid, p.id, p.address, p.city, p.state_code, p.zip, (SELECT pa.apn FROM parcels pa WHERE pa.id = p.parcel_id) AS apn ` +
    `FROM ${from} p WHERE ${where}`
  );
}

/**
 * Adds the keys of the properties `from` and `where` select (all of a snapshot's, or those a
 * publish added or changed) to the index, made if missing. The keys are gathered in a temporary
 * table and written in key order, so the index's b-tree is filled in order and SQLite's sorter,
 * not a list in memory, holds a million properties' keys. Answers the number of keys added.
 */
export function addMatchKeys(db: Database.Database, from = "properties", where = "1"): number {
  db.exec(MATCH_KEYS_DDL);
  db.exec(
    "DROP TABLE IF EXISTS temp.match_keys_pending; CREATE TEMP TABLE match_keys_pending (key TEXT NOT NULL, property_id TEXT NOT NULL)",
  );
  try {
    const pending = db.prepare("INSERT INTO temp.match_keys_pending (key, property_id) VALUES (?, ?)");
    // Read a page at a time: better-sqlite3 writes nothing while a statement iterates.
    const page = db.prepare(`${keyRowsSql(from, `(${where}) AND p.rowid > ?`)} ORDER BY p.rowid LIMIT ${KEY_ROWS_PAGE}`);
    return db.transaction(() => {
      for (let after = 0, rows: (MatchKeyRow & { rowid: number })[]; (rows = page.all(after) as typeof rows).length;) {
        for (const row of rows) for (const key of matchKeysOf(row)) pending.run(key, row.id);
        after = rows[rows.length - 1].rowid;
      }
      return db
        .prepare(
          `INSERT OR IGNORE INTO main.${MATCH_KEYS_TABLE} (key, property_id) SELECT key, property_id FROM temp.match_keys_pending ORDER BY key, property_id`,
        )
        .run().changes;
    })();
  } finally {
    db.exec("DROP TABLE IF EXISTS temp.match_keys_pending");
  }
}

/** Whether a database has the match index. */
export function hasMatchKeys(db: Database.Database, schema = "main"): boolean {
  return db.prepare(`SELECT 1 FROM ${schema}.sqlite_schema WHERE type = 'table' AND name = ?`).get(MATCH_KEYS_TABLE) !== undefined;
}
