// "Link a table": a table with a column of property ids (matched, or typed) and columns whose
// headers name property fields in the words analysts use. The typed values are compared with
// the snapshot's first (how many differ, and by how much), and only the columns the analyst
// ticks are replaced by their live formulas (=PROP.PROPERTY($B2,"year_built")). A row without a
// property id, a cell holding a formula, and a row whose property has no value for the field
// keep what they hold.
import { OPERATIONS } from "../contract/operations";
import { parsePropertyId } from "../functions/property-field";
import type { AddinSession } from "../shared/addin-session";
import { COMPARE_BATCH } from "../shared/property-batching";
import { columnLetters } from "./excel-addresses";
import { differenceSummary, differences, type ColumnDifferences } from "./link-differences";
import { linkFormula, linkedColumns, propertyIdColumn, type LinkedColumn } from "./link-fields";
import type { CellReplacement, SheetBlock } from "./workbook-types";

export interface LinkPlan {
  /** The column of property ids (index into a row), and how many rows hold one. */
  idColumn: number;
  rowsWithId: number;
  /** The distinct property ids, each with the rows that name it. */
  ids: string[];
  columns: LinkedColumn[];
}

/** What "Link a table" can link in a block, or why nothing (a message for the pane). */
export function linkPlan(block: SheetBlock): LinkPlan | string {
  if (!block.header) return "The table needs a header row naming its columns (Year Built, Building SF, …).";
  const idColumn = propertyIdColumn(block.header, block.rows);
  if (idColumn === null) return "No column of property ids: match the addresses first (Match a column, above).";
  const columns = linkedColumns(block.header, idColumn);
  if (columns.length === 0) {
    return "No header names a property field (such as Year Built, Building SF, Occupancy, Last Sale Price).";
  }
  const ids = block.rows.map((row) => idIn(row[idColumn]));
  const distinct = [...new Set(ids.filter((id): id is string => id !== null))];
  return { idColumn, rowsWithId: ids.filter(Boolean).length, ids: distinct, columns };
}

/** A cell's property id, or null when it holds none (blank, an error, other text). */
function idIn(value: unknown): string | null {
  try {
    return parsePropertyId(value);
  } catch {
    return null;
  }
}

/** Credits reading the records costs at most: a compare call per 25 properties, a detail call for a lone one left over (the property batcher's calls). */
export function readCost(plan: LinkPlan): number {
  const full = Math.floor(plan.ids.length / COMPARE_BATCH);
  const rest = plan.ids.length % COMPARE_BATCH;
  const last = rest === 0 ? 0 : rest === 1 ? OPERATIONS.getProperty.cost : OPERATIONS.compareProperties.cost;
  return full * OPERATIONS.compareProperties.cost + last;
}

export interface LinkedDifferences extends LinkedColumn {
  differences: ColumnDifferences;
  summary: string;
  /** The typed cells that would be replaced: sheet position, the value read there, and the formula. */
  replacements: CellReplacement[];
}

/**
 * Reads every property's record (through the cache PROP.PROPERTY uses, so the formulas that
 * replace the values answer from it) and compares each linked column's typed values with them.
 */
export async function compareLinked(session: AddinSession, block: SheetBlock, plan: LinkPlan): Promise<LinkedDifferences[]> {
  const records = new Map<string, Record<string, unknown>>();
  await Promise.all(
    plan.ids.map(async (id) => {
      records.set(id, await session.api.property(id));
    }),
  );
  return plan.columns.map((linked) => {
    const typed: Array<(typeof block.rows)[number][number]> = [];
    const live: unknown[] = [];
    const replacements: CellReplacement[] = [];
    const sheetRows: number[] = [];
    block.rows.forEach((row, r) => {
      const id = idIn(row[plan.idColumn]);
      if (id === null || block.formulas[r][linked.column]) return;
      const value = records.get(id)?.[linked.field];
      typed.push(row[linked.column]);
      live.push(value ?? null);
      sheetRows.push(block.firstRow + r + 1);
      // A value the snapshot does not record would become #N/A: the typed one stays.
      if (value === null || value === undefined) return;
      const sheetRow = block.firstRow + r;
      replacements.push({
        row: sheetRow,
        column: block.column + linked.column,
        was: row[linked.column],
        formula: linkFormula(`$${columnLetters(block.column + plan.idColumn)}${sheetRow + 1}`, linked.field),
      });
    });
    const found = differences(linked.field, typed, live);
    return {
      ...linked,
      differences: found,
      summary: differenceSummary(linked.header, found, { rowNumber: (i) => sheetRows[i] }),
      replacements,
    };
  });
}
