// The trailing `options` argument: "key=value; key=value". New options can be added without
// breaking old formulas, and every key and value is checked before any request, so a typo
// gets #VALUE! naming what is accepted instead of silently matching everything.
import { InputError } from "./excel-errors";
import { checkParam } from "./param-values";
import type { OptionSpec, OptionValue } from "./option-specs";
import { parsePin } from "./snapshot-pin";
import { nearestInputName } from "../contract/near-names";
import { nameKey } from "../contract/vocabulary";

const TRUE_WORDS = ["true", "yes", "1", "on"];
const FALSE_WORDS = ["false", "no", "0", "off"];

export function parseOptions(raw: unknown, specs: readonly OptionSpec[]): Map<string, OptionValue> {
  const out = new Map<string, OptionValue>();
  if (raw === null || raw === undefined) return out;
  if (typeof raw !== "string") {
    throw new InputError(`options must be text such as "limit=50; headers=false", not ${String(raw)}.`);
  }
  // Option names in any case and spacing ("Min Sale Date" is min_sale_date).
  const byName = new Map(specs.map((s) => [nameKey(s.name), s]));
  for (const part of raw.split(/[;\n]/)) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    if (eq < 0) throw new InputError(`options: "${part.trim()}" has no "=": write key=value pairs separated by ";".`);
    const typed = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    const spec = byName.get(nameKey(typed));
    if (!spec) {
      const near = nearestInputName(
        typed,
        specs.map((s) => s.name),
      );
      throw new InputError(
        specs.length === 0
          ? `options: this call takes no options ("${typed}" given).`
          : `options: "${typed}" is not an option here; ${near ? `did you mean ${near}? Or use` : "use"} ${specs.map((s) => s.name).join(", ")}.`,
      );
    }
    const name = spec.name;
    if (out.has(name)) throw new InputError(`options: ${name} is given twice.`);
    if (value === "") throw new InputError(`options: ${name} has no value.`);
    out.set(name, checkOption(spec, value));
  }
  return out;
}

function checkOption(spec: OptionSpec, value: string): OptionValue {
  switch (spec.kind) {
    case "boolean": {
      const word = value.toLowerCase();
      if (TRUE_WORDS.includes(word)) return true;
      if (FALSE_WORDS.includes(word)) return false;
      throw new InputError(`options: ${spec.name} must be true or false, not "${value}".`);
    }
    case "list": {
      const items = value
        .split(",")
        .map((v) => v.trim().toLowerCase())
        .filter(Boolean);
      if (items.length === 0) throw new InputError(`options: ${spec.name} lists nothing.`);
      const twice = items.find((item, i) => items.indexOf(item) !== i);
      if (twice) throw new InputError(`options: ${spec.name} names ${twice} twice.`);
      return items;
    }
    case "choice": {
      const found = spec.values?.find((v) => v === value.toLowerCase());
      if (!found) throw new InputError(`options: ${spec.name} must be one of ${spec.values?.join(", ")}, not "${value}".`);
      return found;
    }
    case "count": {
      const n = Number(value.replace(/[,_]/g, ""));
      if (!Number.isInteger(n)) throw new InputError(`options: ${spec.name} must be a whole number, not "${value}".`);
      if (spec.min !== undefined && n < spec.min) throw new InputError(`options: ${spec.name} must be at least ${spec.min}.`);
      if (spec.max !== undefined && n > spec.max) throw new InputError(`options: ${spec.name} must be at most ${spec.max} (${spec.help})`);
      return n;
    }
    case "pin":
      // Checked (and read) by snapshot-pin.ts; kept as written here.
      parsePin(value);
      return value;
    default:
      return checkParam(spec, value, `options: ${spec.name}`);
  }
}
