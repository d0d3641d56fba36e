import type { SnapshotContext } from "./snapshot-context";
import { VERSION_PARTS, partView } from "../../snapshot/store/store-open";

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

/**
 * A paged query's rows read part by part on an older version of a snapshot store
 * (snapshot/store/store-open.ts): `froms` are the query's FROM over each part, in which the paged
 * table's alias is `alias` (its `rowid` names one row of the version), each with `params`.
 * `partOrder`, when given, orders a part's rows as the query's order does, for an index to give.
 */
export interface PartedFrom {
  alias: string;
  froms: string[];
  params: unknown[];
  partOrder?: string;
}

/** Words that may follow a table in FROM and are not its alias. */
const NOT_ALIAS = new Set(["WHERE", "JOIN", "LEFT", "INNER", "CROSS", "NATURAL", "ON", "USING", "ORDER", "GROUP", "LIMIT"]);

/**
 * `from` read part by part: its leading table (the one the list pages through) taken from each
 * part, everything else as written. Undefined when `from` does not start with a table.
 */
export function partedFrom(from: string, params: unknown[]): PartedFrom | undefined {
  // A table's name, not a subquery or a table-valued function such as json_each(...).
  const head = /^FROM\s+(\w+)\b(?!\s*\()/i.exec(from);
  if (!head) return undefined;
  const table = head[1];
  let rest = from.slice(head[0].length);
  let alias = table;
  const named = /^\s+(?:AS\s+)?(\w+)/i.exec(rest);
  if (named && !NOT_ALIAS.has(named[1].toUpperCase())) {
    alias = named[1];
    rest = rest.slice(named[0].length);
  }
  return { alias, froms: VERSION_PARTS.map((part) => `FROM ${partView(table, part)} AS ${alias}${rest}`), params };
}

/** Where `sql`'s WHERE outside parentheses starts, or -1 when it has none. */
function whereAt(sql: string): number {
  let depth = 0;
  for (const m of sql.matchAll(/[()]|\bWHERE\b/gi)) {
    if (m[0] === "(") depth++;
    else if (m[0] === ")") depth--;
    else if (depth === 0) return m.index;
  }
  return -1;
}

/** The terms of an ORDER BY clause: each expression and what follows it (direction, nulls). */
function orderTerms(order: string): { expr: string; how: string }[] {
  const body = order.replace(/^\s*ORDER\s+BY\s+/i, "");
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      terms.push(body.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(body.slice(start));
  return terms.map((t) => {
    const m = /^\s*(.*?)((?:\s+(?:ASC|DESC))?(?:\s+NULLS\s+(?:FIRST|LAST))?)\s*$/is.exec(t)!;
    return { expr: m[1], how: m[2] };
  });
}

/** A paged query's ORDER BY as columns named "order <i>" and the order of a merge by them. */
function mergeKeys(order: string): { keys: string; merged: string; count: number } {
  const terms = orderTerms(order);
  return {
    keys: terms.map((t, i) => `${t.expr} AS "order ${i}"`).join(", "),
    merged: terms.map((t, i) => `"order ${i}"${t.how}`).join(", "),
    count: terms.length,
  };
}

/**
 * One page of a query read part by part, in one statement: each part's rows in the query's order
 * with their sort keys last, merged by SQLite, which reads from each part only as many rows as
 * the merge takes and builds only those rows. Where an index of the part gives its rows in that
 * order (as a file's index gives its page) the part stops after the page; where none does, the
 * part's matches are sorted, as the file's query sorts its own. The order must name every row
 * apart (end with a unique column), as every paged query's does, so the merge is the file's order.
 */
function mergedPage(
  parted: PartedFrom,
  select: string,
  order: string,
  page: { limit: number; offset: number },
): { sql: string; params: unknown[]; keys: number } {
  const { keys, merged, count } = mergeKeys(order);
  const params: unknown[] = [];
  for (const _ of parted.froms) params.push(...parted.params);
  return {
    sql: `${parted.froms.map((from) => `${select}, ${keys} ${from}`).join(" UNION ALL ")} ORDER BY ${merged} LIMIT ? OFFSET ?`,
    params: [...params, page.limit, page.offset],
    keys: count,
  };
}

/**
 * The rowids of one page of a query read part by part, as a subquery with its parameters: each
 * part's first `offset + limit` rows in the part's own order (`partOrder`), merged in the query's
 * order, and the page taken from the merge. It serves the text search with other filters, whose
 * parts come in the order of their own `"in order"` column rather than in the query's ORDER BY,
 * so a merge of their rows by the query's sort keys would sort each part whole.
 */
function pageRowids(parted: PartedFrom, order: string, page: { limit: number; offset: number }): { sql: string; params: unknown[] } {
  const { keys, merged } = mergeKeys(order);
  const arm = (from: string) =>
    `SELECT * FROM (SELECT ${parted.alias}.rowid AS "row", ${keys} ${from} ${parted.partOrder ?? order} LIMIT ?)`;
  const params: unknown[] = [];
  for (const _ of parted.froms) params.push(...parted.params, page.offset + page.limit);
  return {
    sql: `SELECT "row" FROM (${parted.froms.map(arm).join(" UNION ALL ")} ORDER BY ${merged} LIMIT ? OFFSET ?)`,
    params: [...params, page.limit, page.offset],
  };
}

/**
 * Runs a paged query and its count. `from` is `FROM ... WHERE ...` without ORDER/LIMIT.
 *
 * On an older version of a snapshot store, whose tables are each the union of two parts, the
 * page is read part by part (`parted`, else `from` with its leading table read from each part):
 * a query over the union would compute and sort every match of the part of replaced contents
 * before taking a page. Parts in the query's order are merged with their rows (mergedPage); parts
 * in an order of their own give the page's rowids, whose rows are then read (pageRowids). `from`'s
 * joins must find at most one row for each row of the paged table (as every paged query's do).
 */
export function pagedQuery<T>(
  snapshot: SnapshotContext,
  select: string,
  from: string,
  order: string,
  params: unknown[],
  page: { limit: number; offset: number },
  /** A cheaper FROM that counts the same rows (e.g. the text index alone), with its params. */
  countFrom: { from: string; params: unknown[] } = { from, params },
  /** How to read the page part by part on an older version of a store, when `from` alone does not say. */
  parted?: PartedFrom,
): { rows: T[]; total: number } {
  const byParts = snapshot.readsByParts ? (parted ?? partedFrom(from, params)) : undefined;
  let rows: T[];
  if (byParts && byParts.partOrder === undefined) {
    const merged = mergedPage(byParts, select, order, page);
    rows = snapshot.allBut<T>(merged.sql, merged.params, merged.keys);
  } else if (byParts) {
    const ids = pageRowids(byParts, order, page);
    // The page's rows by rowid, through `from`'s tables and joins but not its WHERE, which the
    // rowids already satisfy and which could lead SQLite to read every match instead (its
    // parameters are the last ones: a WHERE comes after the joins).
    const at = whereAt(from);
    const joins = at < 0 ? from : from.slice(0, at).trimEnd();
    const whereParams = at < 0 ? 0 : (from.slice(at).match(/\?/g) ?? []).length;
    rows = snapshot.all(`${select} ${joins} WHERE ${byParts.alias}.rowid IN (${ids.sql}) ${order}`, [
      ...params.slice(0, params.length - whereParams),
      ...ids.params,
    ]) as T[];
  } else {
    rows = snapshot.all(`${select} ${from} ${order} LIMIT ? OFFSET ?`, [...params, page.limit, page.offset]) as T[];
  }
  return { rows, total: pageTotal(snapshot, rows.length, page, countFrom) };
}

/**
 * The count of all matches of a paged query whose page has `found` rows: from the page itself
 * when it shows there is nothing beyond it, else `SELECT count(*)` over `countFrom` (remembered by
 * the snapshot).
 */
export function pageTotal(
  snapshot: SnapshotContext,
  found: number,
  page: { limit: number; offset: number },
  countFrom: { from: string; params: unknown[] },
): number {
  return found < page.limit && (found > 0 || page.offset === 0) ? page.offset + found : snapshot.count(countFrom.from, countFrom.params);
}
