// PROP.CREDITS([item], [options]): the account's credits as the service last reported them
// (the X-Credits-* headers of the latest answer). Makes a free request only when no answer has
// been seen yet, so recalculating it costs nothing.
import type { CreditState } from "../shared/credit-meter";
import type { FunctionContext } from "./call-context";
import { isBlank } from "./argument-parsers";
import { InputError, NoDataError } from "./excel-errors";
import { parseOptions } from "./options";
import { canonical } from "./param-values";
import { VALUE_OPTIONS, toCell, valueForms, type ValueFormat } from "./cell-values";
import { HEADERS_OPTION, shapePairs, type Cell } from "./table-shape";

export const CREDIT_ITEMS = ["remaining", "limit", "used", "resets_at", "charged_this_session", "as_of"] as const;

/** The items that are moments: Excel dates with their time, like any date a function returns. */
const ITEM_FORMATS: Record<string, ValueFormat> = { resets_at: "datetime", as_of: "datetime" };

function items(state: CreditState): [string, unknown][] {
  const used = state.limit !== null && state.remaining !== null ? state.limit - state.remaining : null;
  return [
    ["remaining", state.remaining],
    ["limit", state.limit],
    ["used", used],
    ["resets_at", state.resetsAt],
    ["charged_this_session", state.chargedThisSession],
    ["as_of", state.observedAt],
  ];
}

export async function credits(rawItem: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const item = isBlank(rawItem) ? null : canonical(String(rawItem)).replace(/-/g, "_");
  if (item !== null && !(CREDIT_ITEMS as readonly string[]).includes(item)) {
    throw new InputError(`item: "${String(rawItem).trim()}" is not one of ${CREDIT_ITEMS.join(", ")}.`);
  }
  const parsed = parseOptions(options, item ? VALUE_OPTIONS : [HEADERS_OPTION, ...VALUE_OPTIONS]);
  const forms = valueForms(parsed);
  const { meter, api } = ctx.session;
  if (!meter.current()) await api.checkCredits(ctx);
  const state = meter.current();
  if (!state) throw new NoDataError("The service did not report credits (no X-Credits headers in its answers).");
  const pairs = items(state);
  if (item) {
    const value = pairs.find(([name]) => name === item)![1];
    if (value === null || value === undefined) throw new NoDataError(`The service did not report ${item}.`);
    return [[toCell(value, ITEM_FORMATS[item], forms)]];
  }
  const headers = (parsed.get("headers") as boolean | undefined) ?? true;
  return shapePairs(pairs, ["item", "value"], { headers, cols: null, forms, formats: ITEM_FORMATS }, "No credit figures.");
}
