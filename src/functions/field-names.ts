// One vocabulary of field names: wherever a function takes the name of a field, metric or sort
// key (PROP.PROPERTY's field, PROP.MARKET's metric, PROP.MARKETHISTORY's metrics, `cols=`,
// `sort=`), it takes the name ("vacancy_rate") or the label the pane and =PROP.FIELDS show
// ("Vacancy rate"), with or without the label's bracketed unit, in any case and spacing.
import { OLD_FIELD_NAMES, nameKey } from "../contract/vocabulary";
import { fieldLabel } from "./field-labels";
import { RESOURCES, type FieldInfo } from "./record-fields";

/** The keys a field is known by: its name, its label, and its label without the bracketed units. */
export function fieldKeys(field: FieldInfo): string[] {
  const label = fieldLabel(field);
  return [...new Set([nameKey(field.name), nameKey(label), nameKey(label.replace(/\s*\(.*\)\s*$/, ""))])];
}

let byKey: Map<string, Set<string>> | null = null;

/** Every field name of every resource, by each of its keys (built on first use). */
function namesByKey(): Map<string, Set<string>> {
  if (byKey) return byKey;
  byKey = new Map();
  for (const fields of Object.values(RESOURCES) as FieldInfo[][]) {
    for (const field of fields) {
      for (const key of fieldKeys(field)) {
        const names = byKey.get(key) ?? new Set<string>();
        names.add(field.name);
        byKey.set(key, names);
      }
    }
  }
  return byKey;
}

/**
 * The one name of `allowed` that `raw` names (by name, then by a name the field had before,
 * then by label), or null: none does, or a label without its units names two ("Sales volume" of 12 and 24 months).
 */
export function nameIn(allowed: readonly string[], raw: unknown): string | null {
  if (typeof raw !== "string" || raw.trim() === "") return null;
  const key = nameKey(raw);
  const exact = allowed.find((name) => nameKey(name) === key);
  if (exact) return exact;
  const renamed = OLD_FIELD_NAMES[key];
  if (renamed && allowed.includes(renamed)) return renamed;
  const named = [...(namesByKey().get(key) ?? [])].filter((name) => allowed.includes(name));
  return named.length === 1 ? named[0] : null;
}

/** Whether a cell holds a field's name or label (of any resource): a header cell, in a range of values. */
export function isFieldHeader(raw: unknown): boolean {
  return typeof raw === "string" && namesByKey().has(nameKey(raw));
}
