// The as_of option every commercial function takes: the snapshot its requests name, so a model
// can be pinned to the data it was built on. A snapshot id (as answers and the pane name it)
// pins one snapshot for good; a date asks for the newest snapshot captured on or before it.
import { SNAPSHOT_SELECTORS } from "../shared/contract/snapshot-select";
import type { SnapshotPin } from "../shared/request-keys";
import type { FunctionContext } from "./call-context";
import { InputError } from "./excel-errors";
import type { LocalOption, OptionValue } from "./options";

export const AS_OF_OPTION: LocalOption = {
  name: "as_of",
  kind: "pin",
  help: "as_of=2026-10-01 (the newest snapshot captured on or before that day) or as_of=snap_… (that snapshot).",
};

const SNAPSHOT_ID = new RegExp(SNAPSHOT_SELECTORS.snapshot.pattern!);
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The pin an as_of value names; InputError when it is neither a real date nor a snapshot id. */
export function parsePin(value: string): SnapshotPin {
  const date = ISO_DATE.exec(value);
  if (date) {
    const [y, m, d] = date.slice(1).map(Number);
    const day = new Date(Date.UTC(y, m - 1, d));
    if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) {
      throw new InputError(`options: as_of ${value} is not a date.`);
    }
    return { as_of: value };
  }
  if (/^snap_/.test(value) && SNAPSHOT_ID.test(value)) return { snapshot: value };
  throw new InputError(`options: as_of must be a date such as 2026-10-01 or a snapshot id such as snap_…, not "${value}".`);
}

/** The call's context with the pin its parsed options name (a function takes it before any request). */
export function pinCall(parsed: Map<string, OptionValue>, ctx: FunctionContext): FunctionContext {
  const value = parsed.get(AS_OF_OPTION.name);
  return typeof value === "string" ? { ...ctx, pin: parsePin(value) } : ctx;
}
