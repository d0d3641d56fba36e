// The snapshot's SQLite layout, derived from the record schemas so that a field added to a
// record is a column added to its table, with nothing else to keep in step.
import type { TObject, TSchema } from "@sinclair/typebox";
import { DiligenceCandidate, MarketRecord, SNAPSHOT_RESOURCES } from "../contract/records";
import { PlaceRow } from "./derive/places";
import { CapturedHistoryRow } from "./history-tables";

/** Table name -> the record schema whose fields are its columns. */
export const TABLES = {
  ...SNAPSHOT_RESOURCES,
  markets: MarketRecord,
  diligence: DiligenceCandidate,
  places: PlaceRow,
  captured_market_history: CapturedHistoryRow,
} as const satisfies Record<string, TObject>;
export type TableName = keyof typeof TABLES;

/** Indexes that the service's queries rely on (see src/server/routes and src/server/data). */
const INDEXES: Record<TableName, string[]> = {
  parcels: ["state_code", "county_fips", "city COLLATE NOCASE, state_code", "zip", "apn", "land_use, state_code"],
  listings: ["state_code, status", "city COLLATE NOCASE, state_code, status", "status", "zip"],
  companies: ["company_type, name", "company_type, headquarters_state", "name COLLATE NOCASE"],
  properties: [
    "asset_type, state_code, building_area_sqft",
    "asset_type, building_area_sqft",
    "asset_type, land_area_acres",
    "asset_type, units",
    "asset_type, subtype",
    "state_code, asset_type",
    "city COLLATE NOCASE, state_code",
    "metro_id, asset_type",
    "zip",
    "county_fips",
    "owner_id",
    "parcel_id",
  ],
  sales: [
    // A property's sales in date order, one range of this index (property history).
    "property_id, sale_date",
    "asset_type, state_code, sale_date",
    "asset_type, latitude",
    "metro_id, asset_type",
    "city COLLATE NOCASE, state_code, asset_type",
    "buyer_id",
    "seller_id",
  ],
  tenancies: ["tenant_id", "property_id, lease_start"],
  markets: ["geography_type, geography_id, asset_type", "geography_type, geography_name COLLATE NOCASE, asset_type"],
  diligence: ["score", "asset_type, score", "state_code, score", "metro_id, score"],
  places: ["kind, key", "kind, code"],
  captured_market_history: [],
};

export function columnsOf(schema: TObject): string[] {
  return Object.keys(schema.properties);
}

function sqlType(field: TSchema): string {
  const types = ([] as string[]).concat(field.type ?? "string");
  if (types.includes("integer")) return "INTEGER";
  if (types.includes("number")) return "REAL";
  return "TEXT"; // strings, dates, and arrays (stored as JSON text)
}

function isNullable(field: TSchema): boolean {
  return Array.isArray(field.type) && field.type.includes("null");
}

/** CREATE TABLE for one record schema; `id` is the primary key. */
export function tableDdl(name: TableName): string {
  const schema = TABLES[name];
  const cols = Object.entries(schema.properties).map(([col, field]) => {
    const notNull = isNullable(field as TSchema) ? "" : " NOT NULL";
    const pk = col === "id" ? " PRIMARY KEY" : "";
    return `  ${col} ${sqlType(field as TSchema)}${pk}${notNull}`;
  });
  return `CREATE TABLE ${name} (\n${cols.join(",\n")}\n)`;
}

export function indexDdl(name: TableName): string[] {
  return INDEXES[name].map((cols) => {
    const ixName = `ix_${name}_${cols.replace(/ COLLATE NOCASE/g, "").replace(/[^a-z_]+/g, "_")}`;
    return `CREATE INDEX ${ixName} ON ${name} (${cols})`;
  });
}

/** A row as stored in SQLite back to its record form (array fields are JSON text). */
export function decodeRow(table: TableName, row: Record<string, unknown>): Record<string, unknown> {
  const arrays = arrayFields(table);
  if (!arrays.size) return row;
  const out = { ...row };
  for (const k of arrays) if (typeof out[k] === "string") out[k] = JSON.parse(out[k] as string);
  return out;
}

/** Which fields of a table hold arrays (stored as JSON text). */
export function arrayFields(name: TableName): Set<string> {
  const out = new Set<string>();
  for (const [col, field] of Object.entries(TABLES[name].properties)) {
    if ((field as TSchema).type === "array") out.add(col);
  }
  return out;
}

export const META_DDL = "CREATE TABLE snapshot_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)";

/** The fields of a property a cross-asset text search looks at. */
export const PROPERTIES_FTS_COLUMNS = ["name", "address", "city", "state_code", "owner_name", "subtype", "asset_type"] as const;
/** The text index's tokenizer (the store's index of replaced contents uses the same). */
export const FTS_TOKENIZE = "tokenize='unicode61 remove_diacritics 2'";

/** Full-text index over the fields a cross-asset text search looks at. */
export const PROPERTIES_FTS_DDL = `CREATE VIRTUAL TABLE properties_fts USING fts5(${PROPERTIES_FTS_COLUMNS.join(", ")}, content='properties', content_rowid='rowid', ${FTS_TOKENIZE})`;
export const PROPERTIES_FTS_FILL = `INSERT INTO properties_fts (rowid, ${PROPERTIES_FTS_COLUMNS.join(", ")}) SELECT rowid, ${PROPERTIES_FTS_COLUMNS.join(", ")} FROM properties`;
