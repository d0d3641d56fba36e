// The as_of option every commercial function takes: the snapshot its requests name, so a model
// can be pinned to the data it was built on. A snapshot id (as answers and the pane name it)
// pins one snapshot for good; a date asks for the newest snapshot captured on or before it.
import { SNAPSHOT_SELECTORS } from "../contract/snapshot-select";
import {
  DATE_FORMS,
  DATE_INPUT_BOUNDS,
  DateSyntaxError,
  FIXED_DATE_FORMS,
  isRelativeDate,
  parseDateInput,
  resolveDateInput,
} from "../contract/dates";
import type { SnapshotPin } from "../shared/request-keys";
import type { FunctionContext } from "./call-context";
import { InputError } from "./excel-errors";
import type { LocalOption, OptionValue } from "./option-specs";

export const AS_OF_OPTION: LocalOption = {
  name: "as_of",
  kind: "pin",
  help:
    "as_of=2026-10-01 (the newest snapshot captured on or before that day; also a date cell's number, a year, a quarter " +
    "or a month, standing for its last day) or as_of=snap_… (that snapshot).",
};

const SNAPSHOT_ID = new RegExp(SNAPSHOT_SELECTORS.snapshot.pattern!);

/**
 * The pin an as_of value names: a snapshot id, or a fixed date in the date grammar (a date, a
 * date cell's serial, a year, a quarter, a month) as its last day. A relative date is refused:
 * it would move with every snapshot, so the model would not stay pinned. InputError otherwise.
 */
export function parsePin(value: string | number): SnapshotPin {
  const text = String(value).trim();
  if (/^snap_/.test(text)) {
    if (SNAPSHOT_ID.test(text)) return { snapshot: text };
    throw new InputError(`options: as_of "${text}" is not a snapshot id (letters, digits and _ . : - only).`);
  }
  try {
    const input = parseDateInput(value);
    if (isRelativeDate(input)) {
      throw new InputError(
        `options: as_of names a fixed day, and "${text}" would move with every snapshot; write ${FIXED_DATE_FORMS}, or a snapshot id such as snap_….`,
      );
    }
    return { as_of: resolveDateInput(input, DATE_INPUT_BOUNDS.as_of) };
  } catch (err) {
    if (!(err instanceof DateSyntaxError)) throw err;
    // as_of takes the fixed forms only: the refusal names those.
    const message = err.message.replace(DATE_FORMS, FIXED_DATE_FORMS).replace(/\.$/, "");
    throw new InputError(`options: as_of ${message}, or a snapshot id such as snap_….`);
  }
}

/** The call's context with the pin its parsed options name (a function takes it before any request). */
export function pinCall(parsed: Map<string, OptionValue>, ctx: FunctionContext): FunctionContext {
  const value = parsed.get(AS_OF_OPTION.name);
  return typeof value === "string" ? { ...ctx, pin: parsePin(value) } : ctx;
}
