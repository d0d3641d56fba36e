// Non-null counts of property fields per asset type, read in one pass and shared by the
// asset-input support, the coverage report and the known gaps.
import type Database from "better-sqlite3";
import { CommercialProperty } from "../../contract/records";
import { INPUT_FIELD } from "../../contract/vocabulary";

export type FieldCounts = Map<string, Record<string, number>>;

/** Fields counted besides those the search inputs depend on (INPUT_FIELD). */
const EXTRA_FIELDS = ["building_area_sqft", "land_area_acres", "units", "occupancy_rate", "year_built"];

/** One sequential scan (NOT INDEXED: walking an index here means a random read per row). */
export function countPropertyFields(db: Database.Database): FieldCounts {
  const fields = [...new Set([...Object.values(INPUT_FIELD), ...EXTRA_FIELDS])].sort();
  for (const f of fields) {
    // Field names go into SQL text: only columns of the properties table are allowed.
    if (!(f in CommercialProperty.properties)) throw new Error(`unknown property field ${f}`);
  }
  const sql = `SELECT asset_type, COUNT(*) AS n, ${fields.map((f) => `SUM(${f} IS NOT NULL) AS ${f}`).join(", ")} FROM properties NOT INDEXED GROUP BY asset_type`;
  const out: FieldCounts = new Map();
  for (const r of db.prepare(sql).all() as (Record<string, number> & { asset_type: string })[]) out.set(r.asset_type, r);
  return out;
}
