// The settings tables of docs/deployment.md and README.md, written from the environment schema:
// each variable's default, what it accepts (deployment.md) and what it means, as the service
// reads them, so no default is written anywhere by hand.
import type { TSchema } from "@sinclair/typebox";
import { allowedText, EnvSchema } from "./config";

/** The markers around the generated table in docs/deployment.md and README.md. */
export const TABLE_START = "<!-- settings table: written by `npm run docs:settings` from src/server/config.ts -->";
export const TABLE_END = "<!-- end of settings table -->";

function defaultText(schema: TSchema): string {
  if (typeof schema["x-default-text"] === "string") return schema["x-default-text"];
  if (schema.default === undefined) return "unset";
  return schema.default === "" ? "none" : `\`${String(schema.default)}\``;
}

const cell = (text: string) => text.replace(/\|/g, "\\|");

/** The table, one row a variable in the schema's order; `brief` leaves out what each accepts (README.md). */
export function settingsTable(brief = false): string {
  const rows = Object.entries(EnvSchema.properties).map(([name, schema]) => {
    const s = schema as TSchema;
    const accepts = brief ? "" : ` ${cell(allowedText(s))} |`;
    return `| \`${name}\` | ${cell(defaultText(s))} |${accepts} ${cell(String(s.description ?? ""))} |`;
  });
  const head = brief
    ? ["| Variable | Default | Meaning |", "| --- | --- | --- |"]
    : ["| Variable | Default | Accepts | Meaning |", "| --- | --- | --- | --- |"];
  return [...head, ...rows].join("\n");
}

/** The document with its settings table replaced by the one the schema gives (`brief` as settingsTable takes it). */
export function withSettingsTable(doc: string, brief = false): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error("the document has no settings table markers");
  return `${doc.slice(0, start + TABLE_START.length)}\n${settingsTable(brief)}\n${doc.slice(end)}`;
}
