// String formats the record schemas use. TypeBox checks `format` only through its registry,
// which starts empty, so the validator registers these before compiling (idempotent; an
// existing registration by another module is left alone).
import { FormatRegistry } from "@sinclair/typebox";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A real calendar date in YYYY-MM-DD form (2026-02-30 is rejected). */
export function isIsoDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function isIsoDateTime(value: string): boolean {
  return DATE_TIME.test(value) && isIsoDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value));
}

export function registerFormats(): void {
  if (!FormatRegistry.Has("date")) FormatRegistry.Set("date", isIsoDate);
  if (!FormatRegistry.Has("date-time")) FormatRegistry.Set("date-time", isIsoDateTime);
}
