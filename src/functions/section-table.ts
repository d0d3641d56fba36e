// Spills one section of a free report (coverage, catalog) whose rows the service shapes: the
// columns are the rows' own keys, in the order first seen. Because the report is free, `cols`
// is checked against the answer rather than before the request.
import { InputError } from "./excel-errors";
import { canonical } from "./param-values";
import { nameIn } from "./field-names";
import { shapeTable, type Cell, type TableOptions } from "./table-shape";

export function sectionArg<T extends string>(raw: unknown, sections: readonly T[], fallback: T): T {
  if (raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "")) return fallback;
  const wanted = canonical(String(raw)).replace(/-/g, "_");
  const found = sections.find((s) => s === wanted);
  if (!found) throw new InputError(`section: "${String(raw).trim()}" is not a section; use one of ${sections.join(", ")}.`);
  return found;
}

export function sectionTable(rows: Record<string, unknown>[], options: TableOptions, emptyMessage: string): Cell[][] {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const unknown = (options.cols ?? []).filter((c) => nameIn(columns, c) === null);
  if (unknown.length && rows.length) throw new InputError(`cols: ${unknown.join(", ")} not in this section; it has ${columns.join(", ")}.`);
  const cols = options.cols && rows.length ? options.cols.map((c) => nameIn(columns, c)!) : options.cols;
  return shapeTable(rows, columns, { ...options, cols }, emptyMessage);
}
