// Rows as plain objects, built by a function compiled once per statement.
//
// Why: better-sqlite3 builds each row object one column at a time, looking up and adding every
// column name as a new property, which is a large part of the cost of fetching a page
// (docs/benchmarks.md has the figures). An object literal with the columns
// written out gives every row the same hidden class at once. Same keys, same order, same values:
// a column named twice keeps the last value, as better-sqlite3 does.
import type Database from "better-sqlite3";

export type Row = Record<string, unknown>;

export interface RowReader {
  statement: Database.Statement;
  toRow: (values: unknown[]) => Row;
}

/**
 * A statement that returns arrays, and the function that turns one into its row object: every
 * column but the last `omitLast` (columns the query needs only to order its rows).
 */
export function rowReader(db: Database.Database, sql: string, omitLast = 0): RowReader {
  const statement = db.prepare(sql).raw();
  const columns = statement.columns();
  const names = columns.slice(0, columns.length - omitLast).map((c) => c.name);
  // Column names come from our own SQL and the snapshot schema, never from a request, and
  // JSON.stringify quotes each one, so the compiled source cannot be anything but this literal.
  const body = `return { ${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(", ")} };`;
  return { statement, toRow: new Function("v", body) as RowReader["toRow"] };
}

/** Every row of `reader` for `params`, as objects. */
export function readAll(reader: RowReader, params: unknown[]): Row[] {
  const values = reader.statement.all(...params) as unknown[][];
  const rows = new Array<Row>(values.length);
  for (let i = 0; i < values.length; i++) rows[i] = reader.toRow(values[i]);
  return rows;
}

/** The first row of `reader` for `params`, or undefined. */
export function readOne(reader: RowReader, params: unknown[]): Row | undefined {
  const values = reader.statement.get(...params) as unknown[] | undefined;
  return values === undefined ? undefined : reader.toRow(values);
}
