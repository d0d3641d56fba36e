// "Match a column": the addresses of the selected rows (one column of whole addresses, or the
// street, city, state and ZIP columns of a table; or parcel numbers with their county and state)
// become property ids. Each selected column's part is guessed from its header or its values, and
// the analyst can change it; the rows are read exactly as PROP.MATCH reads its arguments (by=apn
// when a column holds parcel numbers) and asked through the same batched, cached match requests,
// so the formulas inserted afterwards answer from the cache and cost nothing more. Blank rows are
// skipped, not an end. Nothing is written until the analyst has seen the counts and the credits.
import { MATCH_LOW_CONFIDENCE_SCORE, isLowConfidence, type PropertyMatch } from "../contract/property-match";
import { stateCodeOf } from "../contract/states";
import { ADDRESS_FIELDS, MAX_MATCH_ADDRESSES, addressRows, argumentFields, type MatchBy, type MatchField } from "../functions/address-rows";
import { noMatchMessage } from "../functions/property-match";
import type { AddinSession } from "../shared/addin-session";
import { ApiError } from "../shared/api-error";
import type { MatchAsk } from "../shared/match-batching";
import { columnLetters } from "./excel-addresses";
import type { CellInput, CellValue, SheetBlock } from "./workbook-types";

/** What a selected column holds: one part of the address, a parcel number or its county, or nothing the match reads. */
export type ColumnRole = MatchField | "ignore";
export const COLUMN_ROLES: readonly ColumnRole[] = [...ADDRESS_FIELDS, "apn", "county", "ignore"];
export const ROLE_LABELS: Record<ColumnRole, string> = {
  address: "Address or street",
  city: "City",
  state: "State",
  zip: "ZIP code",
  apn: "Parcel number (APN)",
  county: "County",
  ignore: "Not used",
};

/** Most rows one match from the pane reads: what one PROP.MATCH formula takes, so every answer stays cached for the formulas. */
export const MAX_PANE_MATCH_ROWS = MAX_MATCH_ADDRESSES;

/** Header words naming each part, as whole words of the header ("Property Address", "Zip Code", "St", "Parcel Number"). */
const HEADER_WORDS: ReadonlyArray<readonly [MatchField, readonly string[]]> = [
  ["apn", ["apn", "parcel", "parcel number", "parcel no", "pin", "assessor parcel number"]],
  ["county", ["county", "county name", "county fips"]],
  ["zip", ["zip", "zipcode", "zip code", "postal code", "postcode", "post code", "postal"]],
  ["state", ["state", "st", "province"]],
  ["city", ["city", "town", "municipality", "locality"]],
  ["address", ["address", "street", "street address", "addr", "street line", "property address", "location", "site address"]],
];

/** A header's part of the address, when its words name one ("Property Address" is address, "Parcel Number" apn). */
function roleFromHeader(text: CellValue): MatchField | null {
  if (typeof text !== "string") return null;
  const words = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
  if (!words) return null;
  for (const [role, phrases] of HEADER_WORDS) {
    if (phrases.some((phrase) => words === phrase || ` ${words} `.includes(` ${phrase} `))) return role;
  }
  return null;
}

/** A column's part judged by its values: ZIP codes, states, or (text with a house number) addresses. */
function roleFromValues(values: CellValue[]): MatchField | null {
  const filled = values.filter((v) => v !== null && v !== "").slice(0, 50);
  if (filled.length === 0) return null;
  const share = (test: (v: CellValue) => boolean) => filled.filter(test).length / filled.length;
  if (share((v) => /^\d{3,5}(-?\d{4})?$/.test(String(v).trim())) >= 0.8) return "zip";
  if (share((v) => typeof v === "string" && stateCodeOf(v.trim()) !== null) >= 0.8) return "state";
  if (share((v) => typeof v === "string" && /^\s*\d/.test(v)) >= 0.5) return "address";
  return null;
}

/**
 * Each selected column's part of the address: by its header, then by its values, then in the
 * order street, city, state, ZIP for what is left. Each part goes to one column at most; a
 * column left over is not used. A parcel number and its county are taken from their headers
 * only ("APN", "Parcel", "PIN", "County"), and beside an address column they are left unused:
 * the rows are matched by their address, unless the analyst chooses the parcel number.
 */
export function guessRoles(block: SheetBlock): ColumnRole[] {
  const columns = block.selectedColumns;
  const taken = new Set<MatchField>();
  const roles: Array<ColumnRole | null> = columns.map(() => null);
  const claim = (i: number, role: MatchField | null) => {
    if (role && !taken.has(role) && roles[i] === null) {
      roles[i] = role;
      taken.add(role);
    }
  };
  const named = columns.map((c) => roleFromHeader(block.header?.[c] ?? null));
  named.forEach((role, i) => claim(i, role));
  // A column whose header names a part already claimed is a second copy of it: left unused.
  const open = (i: number) => named[i] === null;
  columns.forEach((c, i) => open(i) && claim(i, roleFromValues(block.selectedRows.map((r) => block.rows[r][c]))));
  // Without an address column by header or values, the first column left is the street (unless parcel numbers were found).
  if (!taken.has("apn")) columns.forEach((_, i) => open(i) && claim(i, ADDRESS_FIELDS.find((role) => !taken.has(role)) ?? null));
  const byAddress = roles.includes("address");
  return roles.map((role) => (role === null || (byAddress && (role === "apn" || role === "county")) ? "ignore" : role));
}

/** What the rows are matched by: the parcel number when a column holds it, else the address. */
export function matchByOf(roles: readonly ColumnRole[]): MatchBy {
  return roles.includes("apn") ? "apn" : "address";
}

/** The problem with a choice of parts, or null when the rows can be matched. */
export function rolesProblem(roles: readonly ColumnRole[]): string | null {
  if (roles.includes("address") && roles.includes("apn")) {
    return 'Match by the address or by the parcel number: mark the other "Not used".';
  }
  if (!roles.includes("address") && !roles.includes("apn"))
    return "Say which column holds the address or its street line (or the parcel number).";
  if (roles.includes("apn") && !roles.includes("county") && !roles.includes("state")) {
    return "A parcel number needs its county or state: say which column holds the county or the state.";
  }
  for (const role of COLUMN_ROLES) {
    if (role !== "ignore" && roles.filter((r) => r === role).length > 1)
      return `Two columns are marked "${ROLE_LABELS[role]}": one column a part.`;
  }
  return null;
}

/** One selected row's outcome. `row` is its index in the block's rows. */
export type RowMatch =
  | { row: number; kind: "blank" }
  | { row: number; kind: "refused"; detail: string }
  | { row: number; kind: "answered"; ask: MatchAsk; answer: PropertyMatch }
  | { row: number; kind: "failed"; detail: string };

export interface MatchCounts {
  matched: number;
  ambiguous: number;
  unmatched: number;
  refused: number;
  blank: number;
}

export interface ColumnMatch {
  rows: RowMatch[];
  counts: MatchCounts;
  /**
   * Credits the match requests charged, by the credit meter before and after (rows answered
   * earlier, by a match or a PROP.MATCH cell, come from the cache and cost nothing again).
   */
  charged: number;
}

/**
 * The selected rows as PROP.MATCH reads its four arguments: the cells of each part, by its
 * column (by parcel number: parcel number, county and state; a city or ZIP column is not read).
 */
function readRows(block: SheetBlock, roles: readonly ColumnRole[]) {
  const by = matchByOf(roles);
  const args = argumentFields(by).map((field) => {
    const i = field === null ? -1 : roles.indexOf(field);
    return i < 0 ? null : block.selectedRows.map((r) => [block.rows[r][block.selectedColumns[i]]]);
  });
  return addressRows(args, by);
}

/** How many selected rows hold something to match (blank rows are skipped), for the button's estimate. */
export function rowsToMatch(block: SheetBlock, roles: readonly ColumnRole[]): number {
  if (rolesProblem(roles) || block.selectedRows.length > MAX_PANE_MATCH_ROWS) return block.selectedRows.length;
  return readRows(block, roles).filter((r) => r.kind !== "blank").length;
}

/**
 * Matches the selected rows through the add-in session (the match requests PROP.MATCH uses,
 * up to 1,000 rows each), reporting progress as answers arrive. Throws, having changed
 * nothing, when no row could be answered (no key, no network, no credits).
 */
export async function matchColumn(
  session: AddinSession,
  block: SheetBlock,
  roles: readonly ColumnRole[],
  step: (done: number, total: number) => void = () => {},
): Promise<ColumnMatch> {
  const problem = rolesProblem(roles);
  if (problem) throw new Error(problem);
  if (block.selectedRows.length > MAX_PANE_MATCH_ROWS) {
    throw new Error(
      `The selection covers ${block.selectedRows.length.toLocaleString("en-US")} rows; match at most ${MAX_PANE_MATCH_ROWS.toLocaleString("en-US")} at a time.`,
    );
  }
  const read = readRows(block, roles);
  const asked = read.filter((r) => r.kind === "ask").length;
  const before = session.meter.current()?.chargedThisSession ?? 0;
  let done = 0;
  step(0, asked);
  const rows = await Promise.all(
    read.map(async (r, i): Promise<RowMatch> => {
      const row = block.selectedRows[i];
      if (r.kind === "blank") return { row, kind: "blank" };
      if (r.kind === "refused") return { row, kind: "refused", detail: r.error.message };
      try {
        const answer = await session.api.match(r.ask);
        return { row, kind: "answered", ask: r.ask, answer };
      } catch (err) {
        // The service refused this row alone (its 400): the rest stand.
        if (err instanceof ApiError && err.status === 400) return { row, kind: "refused", detail: err.message };
        return { row, kind: "failed", detail: err instanceof Error ? err.message : String(err) };
      } finally {
        step(++done, asked);
      }
    }),
  );
  const failed = rows.filter((r) => r.kind === "failed");
  if (failed.length > 0 && failed.length === asked) throw new Error(failed[0].detail);
  const counts: MatchCounts = { matched: 0, ambiguous: 0, unmatched: 0, refused: 0, blank: 0 };
  for (const r of rows) {
    if (r.kind === "blank") counts.blank++;
    else if (r.kind === "answered") counts[r.answer.status]++;
    else counts.refused++;
  }
  return { rows, counts, charged: (session.meter.current()?.chargedThisSession ?? 0) - before };
}

/** A row's candidate the analyst picked for an ambiguous match, by the row's index in the block. */
export type Picks = ReadonlyMap<number, string>;

/** The columns "Match a column" inserts beside the block, in order. */
export const INSERTED_HEADERS = ["Property id", "Matched address", "Match score", "Match status"] as const;
/** The fill of an inserted row that is not a match: Excel's "Orange, Lighter 80%". */
export const NO_MATCH_FILL = "#FCE4D6";

export interface Insertion {
  /** Where the first inserted cell goes (zero-based): the header row when the block has one. */
  at: { row: number; column: number };
  cells: CellInput[][];
  /** Per inserted row: NO_MATCH_FILL for a row without a property, else null. */
  fills: Array<string | null>;
}

/**
 * The cells "Match a column" writes right of the block: property id, matched address, score and
 * status for each selected row (under a header row when the block has one and the rows start
 * under it). As formulas, each
 * is PROP.MATCH over the row's own cells (answered from the cache the match just filled); as
 * values, the answer itself. A picked candidate is always a value (a formula cannot hold a
 * choice), its status "picked". A row without a property is filled NO_MATCH_FILL.
 */
export function insertion(
  block: SheetBlock,
  roles: readonly ColumnRole[],
  match: ColumnMatch,
  picks: Picks,
  asFormulas: boolean,
): Insertion {
  const width = block.rows[0]?.length ?? block.header?.length ?? 0;
  const column = block.column + width;
  const by = matchByOf(roles);
  const refs = argumentFields(by).map((field) => {
    const i = field === null ? -1 : roles.indexOf(field);
    return i < 0 ? null : block.column + block.selectedColumns[i];
  });
  const cells: CellInput[][] = [];
  const fills: Array<string | null> = [];
  // The header goes above when the rows start under it (a selection from the middle has none).
  const headed = block.headerRow !== null && match.rows[0]?.row === 0;
  if (headed) {
    cells.push([...INSERTED_HEADERS]);
    fills.push(null);
  }
  for (const r of match.rows) {
    const sheetRow = block.firstRow + r.row;
    const formula = (cols: string | null) => {
      const args = refs.map((c) => (c === null ? "" : `$${columnLetters(c)}${sheetRow + 1}`));
      while (args.length > 1 && args[args.length - 1] === "") args.pop();
      const options = [by === "apn" ? "by=apn" : null, cols ? `cols=${cols}` : null].filter(Boolean);
      if (options.length > 0) args.push(...Array(4 - args.length).fill(""), `"${options.join("; ")}"`);
      return { formula: `=PROP.MATCH(${args.join(",")})` };
    };
    const pick = picks.get(r.row);
    const candidate = r.kind === "answered" && pick ? r.answer.candidates.find((c) => c.property_id === pick) : undefined;
    if (candidate) {
      cells.push([candidate.property_id, candidate.address, candidate.score, "picked"]);
      fills.push(null);
    } else if (r.kind === "blank") {
      cells.push([null, null, null, null]);
      fills.push(null);
    } else if (asFormulas && r.kind !== "failed") {
      cells.push([formula(null), formula("matched_address"), formula("score"), formula("status")]);
      fills.push(r.kind === "answered" && r.answer.status === "matched" ? null : NO_MATCH_FILL);
    } else {
      cells.push(valueCells(r));
      fills.push(r.kind === "answered" && r.answer.status === "matched" ? null : NO_MATCH_FILL);
    }
  }
  const top = headed ? block.headerRow! : block.firstRow + (match.rows[0]?.row ?? 0);
  return { at: { row: top, column }, cells, fills };
}

/** A row's answer as values: the match, or blanks and a status saying why there is none (as the cell's #N/A says it). */
function valueCells(r: RowMatch): CellValue[] {
  if (r.kind === "blank") return [null, null, null, null];
  if (r.kind === "refused") return [null, null, null, `refused: ${r.detail}`];
  if (r.kind === "failed") return [null, null, null, `not answered: ${r.detail}`];
  const { answer } = r;
  if (answer.status === "matched") return [answer.property_id, answer.matched_address, answer.score, "matched"];
  return [null, null, null, noMatchMessage(answer)];
}

/** The ambiguous rows, to pick among their candidates. */
export function ambiguousRows(match: ColumnMatch) {
  return match.rows.flatMap((r) =>
    r.kind === "answered" && r.answer.status === "ambiguous" ? [{ row: r.row, ask: r.ask, candidates: r.answer.candidates }] : [],
  );
}

/** Why a match is low-confidence, in words. */
function lowConfidenceReason(answer: PropertyMatch): string {
  return answer.match === "street_spelling" ? "street spelt differently" : `score below ${MATCH_LOW_CONFIDENCE_SCORE}`;
}

/** The low-confidence matches: "2 matched with low confidence (street spelt differently): check them.", or "" when none. */
export function lowConfidenceText(match: ColumnMatch): string {
  const reasons = new Map<string, number>();
  for (const r of match.rows) {
    if (r.kind !== "answered" || !isLowConfidence(r.answer)) continue;
    const reason = lowConfidenceReason(r.answer);
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const count = [...reasons.values()].reduce((a, b) => a + b, 0);
  if (count === 0) return "";
  const why =
    reasons.size === 1 ? [...reasons.keys()][0] : [...reasons].map(([reason, n]) => `${n.toLocaleString("en-US")} ${reason}`).join(", ");
  return `${count.toLocaleString("en-US")} matched with low confidence (${why}): check ${count === 1 ? "it" : "them"}.`;
}

/** What matching costs, as the pane says it. */
export const MATCH_PRICE_TEXT = "1 per address that names a property: matched, or ambiguous with candidates; unmatched rows are free";

/** What the match found and what it cost, for the pane: counts, blank rows skipped, low-confidence matches, credits. */
export function matchSummary(match: ColumnMatch): string {
  const { counts } = match;
  const parts = [
    `${counts.matched.toLocaleString("en-US")} matched`,
    `${counts.ambiguous.toLocaleString("en-US")} ambiguous`,
    `${counts.unmatched.toLocaleString("en-US")} unmatched`,
  ];
  if (counts.refused > 0) parts.push(`${counts.refused.toLocaleString("en-US")} not readable`);
  const sentences = [`${parts.join(", ")}.`];
  if (counts.blank > 0) sentences.push(`${counts.blank.toLocaleString("en-US")} blank row${counts.blank === 1 ? "" : "s"} skipped.`);
  const low = lowConfidenceText(match);
  if (low) sentences.push(low);
  sentences.push(`${match.charged.toLocaleString("en-US")} credit${match.charged === 1 ? "" : "s"} charged (${MATCH_PRICE_TEXT}).`);
  return sentences.join(" ");
}
