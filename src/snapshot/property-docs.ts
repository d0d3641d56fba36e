// Each property's detail answer, rendered once when the snapshot is built.
//
// Why: property detail is the hottest authenticated call. Rendering 32 fields with SQLite's
// json_object on every request, after a seek in the id index and another in the table, was
// the largest part of its cost under load. A snapshot never changes once built, so the builder
// (and the importer) render every property once into `property_docs`, and a detail request is
// one seek that returns finished JSON text (docs/benchmarks.md has figures).
//
// Why keyed by a hash of the id rather than by the id: a table keyed by text keeps whole rows
// in its interior pages, so a million documents made a b-tree eight levels deep; keyed by an
// integer it is three, and each seek costs less (docs/benchmarks.md has the figures).
//
// The SQL is derived from the same record schema the OpenAPI document publishes (field order
// included), and a test holds every stored document equal to the schema serialiser's output.
import type { TObject, TSchema } from "@sinclair/typebox";
import type Database from "better-sqlite3";
import { CommercialProperty } from "../contract/records";

/** The JSON value of one column, in the form the schema serialiser would write it. */
function columnJson(name: string, field: TSchema, table?: string): string {
  const column = table ? `${table}.${name}` : name;
  const types = ([] as string[]).concat(field.type ?? "string");
  // A REAL holding a whole number would print as 404121.0; JavaScript writes 404121.
  if (types.includes("number")) {
    return `IIF(${column} = CAST(${column} AS INTEGER), CAST(${column} AS INTEGER), ${column})`;
  }
  if (types.includes("array")) return `json(${column})`; // stored as JSON text
  if (types.includes("string") || types.includes("integer")) return column;
  throw new Error(`property-docs: field '${name}' has a type json_object cannot render (${types.join(", ")})`);
}

/**
 * `json_object('id', id, ...)` over every field of `schema`, in the schema's order; with
 * `table`, its columns are named through it (`p.id`), for queries that join other tables.
 */
export function jsonObjectSql(schema: TObject, table?: string): string {
  const parts = Object.entries(schema.properties).map(([column, field]) => `'${column}', ${columnJson(column, field as TSchema, table)}`);
  return `json_object(${parts.join(", ")})`;
}

/**
 * A property id's home key in property_docs: a 52-bit hash of it (two FNV-1a-style lanes with
 * different multipliers, finished with MurmurHash3's mixer), so a million ids almost never
 * share one. Ids are not
 * secret and a wrong guess costs one seek, so no keyed hash is needed.
 */
export function docKey(id: string): number {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  a = mix32(a ^ b);
  b = mix32(b + a);
  return (b & 0xfffff) * 0x1_0000_0000 + (a >>> 0);
}

function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

export const PROPERTY_DOCS_DDL = "CREATE TABLE property_docs (key INTEGER PRIMARY KEY, id TEXT NOT NULL, json TEXT NOT NULL)";

/**
 * Renders every property into property_docs and returns the probe distance: how far past its
 * home key (docKey) any document had to move because another id hashed to the same key (0
 * unless two ids collide). Documents go in by home key, so the b-tree is written in order; of
 * ids sharing a key the first by id keeps it, so the same data always gives the same file.
 */
export function fillPropertyDocs(db: Database.Database, keyOf: (id: string) => number = docKey): number {
  const json = jsonObjectSql(CommercialProperty);
  db.function("doc_key", { deterministic: true }, keyOf);
  db.exec(PROPERTY_DOCS_DDL);
  const placed = db
    .prepare(`INSERT OR IGNORE INTO property_docs (key, id, json) SELECT doc_key(id), id, ${json} FROM properties ORDER BY 1, 2`)
    .run().changes;
  if (placed === db.prepare("SELECT count(*) FROM properties").pluck().get()) return 0;
  // Each id whose home key another took goes to the first free key after it. A free key is
  // nobody's home (every home was filled above), so a lookup finds it within the probe distance.
  const displaced = db
    .prepare("SELECT id FROM properties WHERE id NOT IN (SELECT id FROM property_docs) ORDER BY id")
    .pluck()
    .all() as string[];
  const taken = db.prepare("SELECT 1 FROM property_docs WHERE key = ?").pluck();
  const insert = db.prepare(`INSERT INTO property_docs (key, id, json) SELECT ?, id, ${json} FROM properties WHERE id = ?`);
  const nextTry = new Map<number, number>(); // per home key, where its next displaced id starts looking
  let probe = 0;
  db.transaction(() => {
    for (const id of displaced) {
      const home = keyOf(id);
      let key = nextTry.get(home) ?? home + 1;
      while (taken.get(key)) key++;
      insert.run(key, id);
      nextTry.set(home, key + 1);
      probe = Math.max(probe, key - home);
    }
  })();
  return probe;
}

/**
 * The stored detail answer of a property id, or undefined: a seek on the id's home key (and
 * the `probe` keys after it, when the file has collisions) that checks the id.
 */
export function propertyDocLookup(
  db: Database.Database,
  probe: number,
  keyOf: (id: string) => number = docKey,
): (id: string) => string | undefined {
  if (probe === 0) {
    const exact = db.prepare("SELECT json FROM property_docs WHERE key = ? AND id = ?").pluck();
    return (id) => exact.get(keyOf(id), id) as string | undefined;
  }
  const near = db.prepare("SELECT json FROM property_docs WHERE key BETWEEN ? AND ? AND id = ?").pluck();
  return (id) => {
    const home = keyOf(id);
    return near.get(home, home + probe, id) as string | undefined;
  };
}
