// Writing import directories for tests: NDJSON or RFC 4180 CSV (quoting when needed).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SNAPSHOT_RESOURCES } from "../../src/contract/records";

export function tempDir(prefix = "snapshot-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(resource: keyof typeof SNAPSHOT_RESOURCES, rows: object[]): string {
  const cols = Object.keys(SNAPSHOT_RESOURCES[resource].properties);
  const lines = [cols.join(",")];
  for (const r of rows) lines.push(cols.map((c) => csvCell((r as Record<string, unknown>)[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}

export function toNdjson(rows: object[]): string {
  return rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/** Writes a dataset: the resources in `csv` as CSV, the rest as NDJSON. */
export function writeDataset(dir: string, data: Record<string, object[]>, csv: string[] = []): void {
  for (const [resource, rows] of Object.entries(data)) {
    const asCsv = csv.includes(resource);
    const text = asCsv ? toCsv(resource as keyof typeof SNAPSHOT_RESOURCES, rows) : toNdjson(rows);
    fs.writeFileSync(path.join(dir, `${resource}.${asCsv ? "csv" : "ndjson"}`), text);
  }
}
