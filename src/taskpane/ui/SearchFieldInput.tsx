// One input of a search form, as the catalog shaped it: a select of the snapshot's values, or a
// text or number box (with the catalog's suggestions, e.g. metros). A disabled input says why
// under it; a bad value says what is wrong.
import { Field, Input, Select } from "@fluentui/react-components";
import type { FormField } from "../search-form";

export interface FieldProps {
  field: FormField;
  value: string;
  error?: string;
  onChange: (name: string, value: string) => void;
}

export function SearchFieldInput({ field: f, value, error, onChange }: FieldProps) {
  const suggestions = f.input !== "select" && f.options?.length ? `${f.name}-suggestions` : undefined;
  return (
    <Field label={f.label} required={f.required} hint={f.disabled ? f.reason : f.help} validationMessage={error || f.error || undefined}>
      {f.input === "select" ? (
        <Select value={value} disabled={f.disabled} onChange={(_, d) => onChange(f.name, d.value)}>
          <option value="">{f.required ? "Choose…" : "Any"}</option>
          {(f.options ?? []).map((o) => (
            <option key={o} value={o}>
              {f.optionLabels?.[o] ?? o}
            </option>
          ))}
        </Select>
      ) : (
        <>
          <Input
            list={suggestions}
            value={value}
            disabled={f.disabled}
            type={f.input === "number" ? "number" : "text"}
            inputMode={f.input === "number" ? "decimal" : undefined}
            min={f.min}
            max={f.max}
            step={f.step}
            onChange={(_, d) => onChange(f.name, d.value)}
          />
          {suggestions && (
            <datalist id={suggestions}>
              {f.options!.map((o) => (
                <option key={o} value={o}>
                  {f.optionLabels?.[o] ?? o}
                </option>
              ))}
            </datalist>
          )}
        </>
      )}
    </Field>
  );
}
