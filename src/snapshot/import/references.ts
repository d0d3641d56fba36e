// Referential integrity of an import, checked with SQL once every file is loaded (references
// run both ways between parcels and properties, so no single load order would do).
import type Database from "better-sqlite3";
import type { SnapshotResource } from "../../contract/records";

interface Reference {
  table: SnapshotResource;
  field: string;
  target: SnapshotResource;
}

export const REFERENCES: Reference[] = [
  { table: "properties", field: "owner_id", target: "companies" },
  { table: "properties", field: "parcel_id", target: "parcels" },
  { table: "properties", field: "last_sale_id", target: "sales" },
  { table: "parcels", field: "property_id", target: "properties" },
  { table: "listings", field: "brokerage_id", target: "companies" },
  { table: "listings", field: "parcel_id", target: "parcels" },
  { table: "listings", field: "property_id", target: "properties" },
  { table: "sales", field: "property_id", target: "properties" },
  { table: "sales", field: "buyer_id", target: "companies" },
  { table: "sales", field: "seller_id", target: "companies" },
  { table: "sales", field: "broker_id", target: "companies" },
  { table: "tenancies", field: "tenant_id", target: "companies" },
  { table: "tenancies", field: "property_id", target: "properties" },
];

export interface BrokenReference {
  table: SnapshotResource;
  rowid: number;
  reason: string;
}

/** Rows whose reference names no row of the target table (at most `limit`). */
export function brokenReferences(db: Database.Database, limit: number): BrokenReference[] {
  const out: BrokenReference[] = [];
  for (const r of REFERENCES) {
    if (out.length >= limit) break;
    const rows = db
      .prepare(
        `SELECT rowid AS rid, ${r.field} AS ref FROM ${r.table} WHERE ${r.field} IS NOT NULL AND ${r.field} NOT IN (SELECT id FROM ${r.target}) ORDER BY rowid LIMIT ?`,
      )
      .all(limit - out.length) as { rid: number; ref: string }[];
    for (const row of rows)
      out.push({ table: r.table, rowid: row.rid, reason: `${r.field}: ${row.ref} is not the id of any row in ${r.target}` });
  }
  return out;
}
