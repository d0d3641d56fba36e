// What "Explain this cell" reads from a formula and its spill: the PROP call (its name and
// arguments as typed) and the field the cell holds, described from the add-in's copy of the
// contract (record-fields.ts: the same words and units =PROP.FIELDS gives).
import { ANALYSIS } from "../functions/asset-analysis";
import { COMPANIES, FOOTPRINT, PORTFOLIO } from "../functions/company-tables";
import { COMPARE } from "../functions/compare-table";
import { fieldLabel } from "../functions/field-labels";
import { nameIn } from "../functions/field-names";
import { MARKET } from "../functions/market";
import { MARKETHISTORY } from "../functions/market-history";
import { DETAILS } from "../functions/property-details";
import { PROPERTY } from "../functions/property-field";
import { HISTORY } from "../functions/property-history";
import { ASSETSEARCH, DILIGENCE, LISTINGS, PARCELS, SEARCH } from "../functions/property-searches";
import { RESOURCES, type FieldInfo, type ResourceName } from "../functions/record-fields";
import { SALECOMPS } from "../functions/sale-comps";
import type { CellSource } from "./workbook-types";

/** The functions whose answers are a resource's records, by name. */
const RESOURCE_OF: Record<string, ResourceName | undefined> = Object.fromEntries(
  [ANALYSIS, COMPANIES, FOOTPRINT, PORTFOLIO, COMPARE, MARKET, MARKETHISTORY, DETAILS, PROPERTY, HISTORY, ASSETSEARCH]
    .concat([DILIGENCE, LISTINGS, PARCELS, SEARCH, SALECOMPS])
    .map((def) => [`PROP.${def.name}`, "resource" in def ? def.resource : undefined]),
);

export interface FormulaCall {
  /** "PROP.MARKET" */
  name: string;
  /** The arguments as typed ('"TX"', "A2", '"as_of=2026"'). */
  args: string[];
}

/** The first PROP call in a formula, with its arguments as typed; null when it has none. */
export function formulaCall(formula: string): FormulaCall | null {
  const match = /PROP\.([A-Z]+)\s*\(/i.exec(formula);
  if (!match) return null;
  const args: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = "";
  for (let i = match.index + match[0].length; i < formula.length; i++) {
    const ch = formula[i];
    if (ch === '"') quoted = !quoted;
    if (!quoted && ch === "(") depth++;
    if (!quoted && ch === ")" && depth-- === 0) break;
    if (!quoted && depth === 0 && ch === ",") {
      args.push(current.trim());
      current = "";
      continue;
    }
    current += ch;
  }
  if (current.trim() !== "" || args.length > 0) args.push(current.trim());
  return { name: `PROP.${match[1].toUpperCase()}`, args };
}

/** A typed text argument without its quotes ('"vacancy_rate"' -> "vacancy_rate"); null for a reference or a blank. */
function literal(arg: string | undefined): string | null {
  const m = arg ? /^"((?:[^"]|"")*)"$/.exec(arg) : null;
  return m ? m[1].replace(/""/g, '"') : null;
}

/** The field (or metric) the cell holds, with its meaning and unit; null when it cannot be told. */
export function fieldOfCell(call: FormulaCall, cell: CellSource): string | null {
  const resource = RESOURCE_OF[call.name];
  if (!resource) return null;
  let raw: unknown = null;
  if (cell.header && cell.rowValues && cell.row > 0) {
    const pairs = cell.header.length === 2 && ["field", "metric"].includes(String(cell.header[0]).toLowerCase());
    raw = pairs ? cell.rowValues[0] : cell.header[cell.column];
  } else if (call.name === "PROP.PROPERTY") raw = literal(call.args[1]);
  else if (call.name === "PROP.MARKET") raw = literal(call.args[2]);
  const fields: FieldInfo[] = RESOURCES[resource];
  const name = nameIn(
    fields.map((f) => f.name),
    raw,
  );
  const field = fields.find((f) => f.name === name);
  return field ? fieldText(field) : null;
}

/** "Vacancy rate (vacancy_rate), percentage (a fraction: 0.065 is 6.5%): 1 - occupancy_rate." */
export function fieldText(field: FieldInfo): string {
  return `${fieldLabel(field)} (${field.name}), ${field.type}: ${field.description}`;
}
