// The settings table of docs/deployment.md, written from the environment schema: each variable's
// default, what it accepts and what it means, as the service reads them.
import type { TSchema } from "@sinclair/typebox";
import { allowedText, EnvSchema } from "./config";

/** The markers around the generated table in docs/deployment.md. */
export const TABLE_START = "<!-- settings table: written by `npm run docs:settings` from src/server/config.ts -->";
export const TABLE_END = "<!-- end of settings table -->";

function defaultText(schema: TSchema): string {
  if (typeof schema["x-default-text"] === "string") return schema["x-default-text"];
  if (schema.default === undefined) return "unset";
  return schema.default === "" ? "none" : `\`${String(schema.default)}\``;
}

const cell = (text: string) => text.replace(/\|/g, "\\|");

/** The table, one row a variable in the schema's order. */
export function settingsTable(): string {
  const rows = Object.entries(EnvSchema.properties).map(([name, schema]) => {
    const s = schema as TSchema;
    return `| \`${name}\` | ${cell(defaultText(s))} | ${cell(allowedText(s))} | ${cell(String(s.description ?? ""))} |`;
  });
  return ["| Variable | Default | Accepts | Meaning |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** The document with its settings table replaced by the one the schema gives. */
export function withSettingsTable(doc: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error("docs/deployment.md has no settings table markers");
  return `${doc.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${doc.slice(end)}`;
}
