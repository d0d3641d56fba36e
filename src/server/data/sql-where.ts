import type { SnapshotContext } from "./snapshot-context";

// A tiny WHERE-clause builder. Column names come only from our own code, never from a
// request; values are always bound parameters.
export class Where {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sql: string, ...params: unknown[]): this {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }

  /** Adds `sql` only when `value` is given (not undefined/null). */
  when(value: unknown, sql: string): this {
    if (value !== undefined && value !== null) this.add(sql, value);
    return this;
  }

  get isEmpty(): boolean {
    return this.parts.length === 0;
  }

  get sql(): string {
    return this.parts.length ? ` WHERE ${this.parts.join(" AND ")}` : "";
  }
}

/**
 * A LIKE pattern matching `text` anywhere, with LIKE's own wildcards in the text escaped
 * (use with `ESCAPE '\\'`), so a user's "%" or "_" is matched literally.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
}

/** A row of record T as its table stores it: the array-valued fields K are JSON text. */
export type StoredRow<T, K extends keyof T> = Omit<T, K> & Record<K, string>;

/** A stored row back as its record: the array-valued fields read from their JSON text. */
export function decodeArrays<T, K extends keyof T>(row: StoredRow<T, K>, fields: readonly K[]): T {
  const record: Record<PropertyKey, unknown> = { ...row };
  for (const f of fields) record[f] = JSON.parse(row[f]);
  // Every other field is the record's as stored; the arrays were decoded above.
  return record as T;
}

/** Runs a paged query and its count. `from` is `FROM ... WHERE ...` without ORDER/LIMIT. */
export function pagedQuery<T>(
  snapshot: SnapshotContext,
  select: string,
  from: string,
  order: string,
  params: unknown[],
  page: { limit: number; offset: number },
  /** A cheaper FROM that counts the same rows (e.g. the text index alone), with its params. */
  countFrom: { from: string; params: unknown[] } = { from, params },
): { rows: T[]; total: number } {
  const rows = snapshot.all(`${select} ${from} ${order} LIMIT ? OFFSET ?`, [...params, page.limit, page.offset]) as T[];
  // Skip the count when the page itself shows there is nothing beyond it.
  const total =
    rows.length < page.limit && (rows.length > 0 || page.offset === 0)
      ? page.offset + rows.length
      : snapshot.count(countFrom.from, countFrom.params);
  return { rows, total };
}
