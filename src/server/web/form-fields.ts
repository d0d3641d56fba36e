// Accessible form fields: a label for every input, and an error tied to its field with
// aria-describedby and aria-invalid, so screen readers announce it with the field.
import { html, type SafeHtml } from "./html";

export interface FieldOptions {
  id: string;
  label: string;
  type: "email" | "password" | "text";
  value?: string;
  error?: string;
  hint?: string;
  autocomplete: string;
  maxlength?: number;
  /** Put the cursor here when the page opens (the first field with an error, or the first field). */
  autofocus?: boolean;
}

export function field(o: FieldOptions): SafeHtml {
  const describedBy = [o.error ? `${o.id}-error` : "", o.hint ? `${o.id}-hint` : ""].filter(Boolean).join(" ");
  return html`<div class="field">
  <label for="${o.id}">${o.label}</label>
  <input id="${o.id}" name="${o.id}" type="${o.type}" autocomplete="${o.autocomplete}" required
    ${o.type === "password" ? "" : html`value="${o.value ?? ""}"`}
    ${o.maxlength ? html`maxlength="${o.maxlength}"` : ""}
    ${describedBy ? html`aria-describedby="${describedBy}"` : ""}
    ${o.error ? html`aria-invalid="true"` : ""} ${o.autofocus ? html`autofocus` : ""}>
  ${o.hint ? html`<p class="hint" id="${o.id}-hint">${o.hint}</p>` : ""}
  ${o.error ? html`<p class="field-error" id="${o.id}-error">${o.error}</p>` : ""}
</div>`;
}

/** A message about the whole form (wrong credentials, too many attempts), announced at once. */
export function formAlert(message: string | undefined): SafeHtml {
  return message ? html`<div class="alert error" role="alert">${message}</div>` : html``;
}

export const csrfInput = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

/** A text field of a posted form: forms send strings; anything else (a repeated field is an array) counts as empty. */
export function formText(body: unknown, name: string): string {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  return typeof v === "string" ? v : "";
}
