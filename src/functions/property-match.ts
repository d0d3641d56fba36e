// PROP.MATCH(address, [city], [state], [zip], [options]): an analyst's addresses to property ids.
// One address gives its property id (or the columns cols= asks for); a range of addresses spills
// one row per address, in order, a blank address a blank row. With by=apn the same arguments are
// parcel numbers, their county and their state. The rows of every MATCH cell calculated together
// travel to the service in match requests of up to 1,000 rows (CachedApi.match), each row cached
// as the single form's answer, so a recalculation asks nothing. A row that is not a unique match
// is an error in its own row: #N/A with the service's `detail` (why, what would make it match,
// and for an ambiguous row its candidates), #VALUE! for a row the service cannot read (refused);
// the columns that describe the match (status, candidates, detail) say it in text as well, and
// `confidence` (quality=true adds it with status, score and match) flags a low-confidence match.
import { isLowConfidence, type PropertyMatch } from "../contract/property-match";
import { ApiError } from "../shared/api-error";
import { askText, matchKey, type MatchAsk } from "../shared/match-batching";
import { ADDRESS_FIELDS, MATCH_BY, addressRows, readAddressCell, type AddressField, type AddressRow, type MatchBy } from "./address-rows";
import type { FunctionContext } from "./call-context";
import { InputError, NoDataError, isErrorCell, toExcelError, type SpillCell } from "./excel-errors";
import { inputSpec, type FunctionArg, type FunctionDef } from "./function-def";
import { parseOptions } from "./options";
import type { LocalOption, OptionValue } from "./option-specs";
import { fieldNames } from "./record-fields";
import { AS_OF_OPTION, pinCall } from "./snapshot-pin";
import { COLS_OPTION, colsNamed } from "./table-shape";

export const MATCH_COLUMNS: readonly string[] = fieldNames("property_match");
/** What =PROP.MATCH(A2) shows: the property id alone. */
const DEFAULT_COLUMNS = ["property_id"];
/** The columns that describe the match rather than the property: text in every row, matched or not. */
const DESCRIBING = new Set(["status", "candidates", "detail"]);
/** What quality=true adds after the columns asked for: how the match was made and how sure it is. */
export const QUALITY_COLUMNS = ["status", "score", "match", "confidence"] as const;

/** What the rows name a property by: by=apn reads the arguments as parcel number, county, state. */
const MATCH_BY_OPTION: LocalOption = {
  name: "by",
  kind: "choice",
  values: MATCH_BY,
  help: "address (default), or apn: the first argument holds parcel numbers, the second their county (name or 5-digit FIPS code), the third their state.",
};

const QUALITY_OPTION: LocalOption = {
  name: "quality",
  kind: "boolean",
  help: "true adds the columns status, score, match and confidence (low for a low-confidence match) after the others.",
};

/** Off by default: without a header, each row of the spill lines up with its address. */
const MATCH_HEADERS_OPTION: LocalOption = {
  name: "headers",
  kind: "boolean",
  help: "true adds a header row naming the columns (default false: each row lines up with its address).",
};

/** Each distinct address's answer, or why there is none, by its matchKey (without a pin). */
export type MatchAnswers = ReadonlyMap<string, PropertyMatch | Error>;

const ARG_TEXT: Record<AddressField, Pick<FunctionArg, "label" | "help" | "required">> = {
  address: {
    label: "Address",
    help: 'An address ("623 Washington Blvd, Austin, TX 78721") or its street line, or a one-column range of them.',
    required: true,
  },
  city: { label: "City", help: "The city: one value for every address, or a range beside them.", required: false },
  state: { label: "State", help: 'The state ("TX" or "Texas"): one value, or a range beside the addresses.', required: false },
  zip: { label: "ZIP code", help: 'The ZIP code ("78721", or the number 2134 for 02134): one value, or a range.', required: false },
};

const MATCH_OPTIONS = [MATCH_HEADERS_OPTION, COLS_OPTION, MATCH_BY_OPTION, QUALITY_OPTION, AS_OF_OPTION];

/** One of the address fields, as the single form's input of that name; a cell read as one row's field. */
function addressArg(field: AddressField): FunctionArg {
  return {
    name: field,
    kind: "input",
    ...ARG_TEXT[field],
    input: field,
    in: "query",
    param: inputSpec("matchProperty", field),
    read: (raw, label = field) => {
      const value = readAddressCell(field, raw, label);
      if (value === null && ARG_TEXT[field].required) throw new InputError(`${label} is empty: ${ARG_TEXT[field].help}`);
      return value === null ? {} : { [field]: value };
    },
  };
}

/** The columns and header the options ask for, checked before any request. */
function matchShape(options: Map<string, OptionValue>): { columns: string[]; headers: boolean } {
  const cols = options.get("cols") as string[] | undefined;
  const columns = cols ? colsNamed(cols, MATCH_COLUMNS, "property_match") : DEFAULT_COLUMNS;
  const quality = (options.get("quality") as boolean | undefined) ?? false;
  return {
    columns: quality ? [...columns, ...QUALITY_COLUMNS.filter((c) => !columns.includes(c))] : columns,
    headers: (options.get("headers") as boolean | undefined) ?? false,
  };
}

/** What the rows name a property by (the by= option). */
export function matchBy(options: Map<string, OptionValue>): MatchBy {
  return (options.get("by") as MatchBy | undefined) ?? "address";
}

/**
 * PROP.MATCH: its request is the match request of its own distinct addresses (each with its row
 * number as `ref`); the add-in sends them with the other cells' addresses (CachedApi.match), and
 * `table` reads each row's answer by its address.
 */
export const MATCH: FunctionDef<MatchAnswers, "matchProperties", SpillCell> = {
  name: "MATCH",
  operation: "matchProperties",
  resource: "property_match",
  columns: DEFAULT_COLUMNS,
  args: ADDRESS_FIELDS.map(addressArg),
  request(args, options) {
    const parsed = parseOptions(options, MATCH_OPTIONS);
    matchShape(parsed);
    const asks = new Map<string, { ref: string } & MatchAsk>();
    addressRows(args, matchBy(parsed)).forEach((row, i) => {
      if (row.kind === "ask" && !asks.has(matchKey(row.ask))) asks.set(matchKey(row.ask), { ref: String(i + 1), ...row.ask });
    });
    return { operation: "matchProperties", params: {}, query: {}, body: { addresses: [...asks.values()] }, options: parsed, args };
  },
  /** One row per address, in order: its columns, a blank row for a blank address, errors where it is no match. */
  table(answers, call) {
    const { columns, headers } = matchShape(call.options);
    const rows = addressRows(call.args, matchBy(call.options)).map((row) => rowCells(row, answers, columns));
    return headers ? [[...columns], ...rows] : rows;
  },
};

function rowCells(row: AddressRow, answers: MatchAnswers, columns: readonly string[]): SpillCell[] {
  if (row.kind === "blank") return columns.map(() => "");
  if (row.kind === "refused") return refusedCells(row.error.message, columns);
  const answer = answers.get(matchKey(row.ask)) ?? new NoDataError(`${askText(row.ask)} was not asked for.`);
  // The single form's 400: an address the service cannot read, refused on its own.
  if (answer instanceof ApiError && answer.status === 400) return refusedCells(answer.message, columns);
  if (answer instanceof Error) {
    const error = toExcelError(answer);
    return columns.map(() => error);
  }
  const described: Record<string, string> = {
    status: answer.status,
    candidates: candidatesText(answer),
    detail: answer.detail ?? "",
  };
  const fields = answer as unknown as Record<string, unknown>;
  if (answer.status === "matched") {
    described.confidence = isLowConfidence(answer) ? "low" : "high";
    return columns.map((c) => described[c] ?? (fields[c] as string | number | null) ?? "");
  }
  // Ambiguous or unmatched: no property to give, and the cell says why.
  const error = toExcelError(new NoDataError(noMatchMessage(answer)));
  return columns.map((c) => (DESCRIBING.has(c) ? described[c] : error));
}

function candidatesText(answer: Pick<PropertyMatch, "candidates">): string {
  return answer.candidates.map((c) => `${c.address} (${c.property_id})`).join("; ");
}

/**
 * The #N/A message of a row that is not a match: its status and the service's detail (why, and
 * what would make it match), with the candidates when the detail does not list them already.
 */
export function noMatchMessage(answer: Pick<PropertyMatch, "status" | "detail" | "candidates">): string {
  const detail = answer.detail?.trim() || (answer.candidates.length > 0 ? "" : "no property at this address in the snapshot.");
  const listed = answer.candidates.every((c) => detail.includes(c.property_id));
  const candidates = listed ? "" : `Candidates: ${candidatesText(answer)}`;
  return `${answer.status}: ${[detail, candidates].filter(Boolean).join(" ")}`;
}

function refusedCells(detail: string, columns: readonly string[]): SpillCell[] {
  const error = toExcelError(new InputError(detail));
  const described: Record<string, string> = { status: "refused", candidates: "", detail };
  return columns.map((c) => (DESCRIBING.has(c) ? described[c] : error));
}

export async function matchAddresses(
  address: unknown,
  city: unknown,
  state: unknown,
  zip: unknown,
  options: unknown,
  ctx: FunctionContext,
): Promise<SpillCell[][]> {
  const call = MATCH.request([address, city, state, zip], options);
  const rows = addressRows(call.args, matchBy(call.options));
  const asks = new Map<string, MatchAsk>();
  for (const row of rows) if (row.kind === "ask") asks.set(matchKey(row.ask), row.ask);
  const pinned = pinCall(call.options, ctx);
  // Every address of every MATCH cell calculated meanwhile travels in the same match requests.
  const settled = await Promise.all(
    [...asks.values()].map((ask) =>
      ctx.session.api.match(ask, pinned).then(
        (answer): PropertyMatch | Error => answer,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      ),
    ),
  );
  // Nothing answered for the reason the request failed (no key, no network, a preview): one error for the cell.
  const failed = settled.filter((s) => s instanceof Error && !(s instanceof ApiError && s.status === 400));
  if (settled.length > 0 && failed.length === settled.length) throw failed[0];
  const spill = MATCH.table(new Map([...asks.keys()].map((key, i) => [key, settled[i]])), call);
  // One address that is no match: its error is the cell's own (the pane lists it with its message).
  const last = spill[spill.length - 1];
  if (rows.length === 1 && last.every(isErrorCell)) throw last[0];
  return spill;
}
