// How the stand-in reads what is written into a cell through Range.values or Range.formulas
// (or typed, in the scripting API), modelled on Excel: a leading apostrophe makes text and is
// dropped; "=" starts a formula, and so do "+", "-" and "@" unless a number follows; numbers,
// TRUE/FALSE, error codes and ISO dates become numbers, booleans, errors and date serials; a
// cell formatted as Text ("@") keeps whatever it is given as text.
import type { Cell } from "./workbook-model";

/** A cell's new contents; a date typed into a General cell also gets a date format, as in Excel. */
export type Content = Pick<Cell, "formula" | "value" | "error" | "prefixed" | "numberFormat">;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const ERROR_CODES = ["#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#SPILL!", "#CALC!", "#BUSY!"];

export function parseInput(input: unknown, numberFormat = "General"): Content {
  if (input === null || input === undefined || input === "") return {};
  if (typeof input === "number" || typeof input === "boolean") return { value: input };
  if (typeof input !== "string") throw Object.assign(new Error(`cannot write ${typeof input} into a cell`), { code: "InvalidArgument" });
  if (numberFormat === "@") return { value: input };
  if (input.startsWith("'")) return { value: input.slice(1), prefixed: true };
  if (NUMBER.test(input)) return { value: Number(input) };
  if (input.startsWith("=") && input.length > 1) return { formula: input };
  if (/^[+\-@]/.test(input) && input.length > 1) return { formula: `=${input}` };
  if (/^(true|false)$/i.test(input)) return { value: input.toLowerCase() === "true" };
  if (ERROR_CODES.includes(input.toUpperCase())) return { error: input.toUpperCase() };
  const date = ISO_DATE.exec(input);
  if (date) {
    const serial = (Date.UTC(+date[1], +date[2] - 1, +date[3]) - Date.UTC(1899, 11, 30)) / 86_400_000;
    return numberFormat === "General" ? { value: serial, numberFormat: "yyyy-mm-dd" } : { value: serial };
  }
  return { value: input };
}
