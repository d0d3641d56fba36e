// Spills one section of a free report (coverage, catalog) whose rows the service shapes: the
// columns are the rows' own keys, in the order first seen. Because the report is free, `cols`
// is checked against the answer rather than before the request.
import { InputError } from "./excel-errors";
import { canonical } from "./param-values";
import { nameIn } from "./field-names";
import { shapeTable, type Cell, type TableOptions } from "./table-shape";
import type { FunctionArg } from "./function-def";

export function sectionArg<T extends string>(raw: unknown, sections: readonly T[], fallback: T): T {
  if (raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "")) return fallback;
  const wanted = canonical(String(raw)).replace(/-/g, "_");
  const found = sections.find((s) => s === wanted);
  if (!found) throw new InputError(`section: "${String(raw).trim()}" is not a section; use one of ${sections.join(", ")}.`);
  return found;
}

/** A report function's optional `section` argument: read by the function from the whole report, not sent. */
export function sectionFunctionArg<T extends string>(sections: readonly T[], fallback: T, help: string): FunctionArg {
  return {
    name: "section",
    kind: "name",
    label: "Section",
    help,
    required: false,
    in: "query",
    read: (raw) => {
      sectionArg(raw, sections, fallback);
      return {};
    },
  };
}

export function sectionTable(rows: Record<string, unknown>[], options: TableOptions, emptyMessage: string): Cell[][] {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const unknown = (options.cols ?? []).filter((c) => nameIn(columns, c) === null);
  if (unknown.length && rows.length) throw new InputError(`cols: ${unknown.join(", ")} not in this section; it has ${columns.join(", ")}.`);
  const cols = options.cols && rows.length ? options.cols.map((c) => nameIn(columns, c)!) : options.cols;
  return shapeTable(rows, columns, { ...options, cols }, emptyMessage);
}
