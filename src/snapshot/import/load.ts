// Loads one resource file into the snapshot being built, row by row: parse, coerce, check
// against the schema, insert. Bad rows are collected as errors (file, line, reason) and not
// inserted; a duplicate id is caught by the primary key and reported with the first line.
import type { Hash } from "node:crypto";
import type { SnapshotWriter } from "../snapshot-file";
import { CsvParser, CsvSyntaxError } from "./csv";
import { LineSplitter, readTextChunks } from "./read-text";
import { csvRows, ndjsonRow, type RowResult } from "./rows";
import type { ImportedTable } from "./tables-imported";

export interface ImportError {
  file: string;
  line: number;
  reason: string;
}

export interface ResourceFile {
  /** The table its rows go to. */
  resource: ImportedTable;
  path: string;
  name: string;
  format: "ndjson" | "csv";
}

/** Source line of each inserted row, by rowid (rows are appended, so rowid n is row n). */
export class LineIndex {
  private lines = new Int32Array(1024);
  private n = 0;

  add(line: number): void {
    if (this.n === this.lines.length) {
      const next = new Int32Array(this.lines.length * 2);
      next.set(this.lines);
      this.lines = next;
    }
    this.lines[this.n++] = line;
  }

  lineOf(rowid: number): number {
    return this.lines[rowid - 1] ?? 0;
  }
}

export interface LoadContext {
  w: SnapshotWriter;
  hash: Hash;
  errors: ImportError[];
  maxErrors: number;
}

class StopLoading extends Error {}

export function loadFile(ctx: LoadContext, f: ResourceFile): LineIndex {
  const index = new LineIndex();
  const fail = (line: number, reason: string) => {
    ctx.errors.push({ file: f.name, line, reason });
    if (ctx.errors.length >= ctx.maxErrors) throw new StopLoading();
  };
  // Prepared when first needed: captured history has no id (its rows are checked for repeats after loading).
  let firstLine: { get(id: unknown): unknown } | undefined;
  const accept = (result: RowResult, line: number) => {
    if (!result.ok) return fail(line, result.reason);
    try {
      ctx.w.insert(f.resource, result.row);
      index.add(line);
    } catch (err) {
      if ((err as { code?: string }).code !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw err;
      firstLine ??= ctx.w.db.prepare(`SELECT rowid AS rid FROM ${f.resource} WHERE id = ?`);
      const first = firstLine.get(result.row.id) as { rid: number } | undefined;
      fail(line, `id: ${String(result.row.id)} is used more than once (first on line ${first ? index.lineOf(first.rid) : "?"})`);
    }
  };
  try {
    if (f.format === "ndjson") {
      const lines = new LineSplitter((text, line) => accept(ndjsonRow(f.resource, text), line));
      readTextChunks(f.path, ctx.hash, (t) => lines.push(t));
      lines.end();
    } else {
      let toRow: ((cells: string[]) => RowResult) | null = null;
      const parser = new CsvParser((rec) => {
        if (toRow) return accept(toRow(rec.fields), rec.line);
        const header = csvRows(f.resource, rec.fields);
        if ("error" in header) {
          fail(rec.line, header.error);
          throw new StopLoading(); // without a usable header no row can be read
        }
        toRow = header.toRow;
      });
      readTextChunks(f.path, ctx.hash, (t) => parser.push(t));
      parser.end();
    }
  } catch (err) {
    // A syntax error leaves the rest of the file unreadable: report it and move on.
    if (err instanceof CsvSyntaxError) ctx.errors.push({ file: f.name, line: err.line, reason: `CSV syntax: ${err.message}` });
    else if (!(err instanceof StopLoading)) throw err;
  }
  return index;
}

export function isStopped(ctx: LoadContext): boolean {
  return ctx.errors.length >= ctx.maxErrors;
}
