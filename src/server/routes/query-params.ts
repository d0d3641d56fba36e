// Server-side helpers for query inputs. The inputs themselves (their schemas) are shared with
// the add-in and live in src/shared/contract/queries.ts.
import type { TObject } from "@sinclair/typebox";
import { QueryObject } from "../../shared/contract/queries";
import { PagingQuery } from "../http/list-envelope";

/** An endpoint's query inputs with the paging parameters (`limit`, `offset`) after them. */
export function Paged(query: TObject): TObject {
  return QueryObject({ ...query.properties, ...PagingQuery }, query.required ?? []);
}

/** Splits "Austin, TX" into city and state; a plain "Austin" keeps the given state, if any. */
export function splitCity(city: string | undefined, state?: string): { city?: string; state?: string } {
  if (!city) return { state: state?.toUpperCase() };
  const m = /^(.*\S)\s*,\s*([A-Za-z]{2})$/.exec(city.trim());
  if (m) return { city: m[1], state: m[2].toUpperCase() };
  return { city: city.trim(), state: state?.toUpperCase() };
}

/**
 * Turns free text into a safe FTS5 query: every word must match, as a whole word; a word the
 * user ends with `*` matches as a prefix ("glen*"). Prefixes are opt-in because a prefix of a
 * common word expands to a huge posting list and makes a search 10x slower.
 */
export function ftsQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+\*?/gu);
  if (!words || words.length === 0) return null;
  return words
    .map((w) => (w.endsWith("*") && w.length > 2 ? `"${w.slice(0, -1)}"*` : `"${w.replace(/\*$/, "")}"`))
    .join(" ");
}
