// PROP.CREDITS([item], [options]): the account's credits as the service last reported them
// (the X-Credits-* headers of the latest answer). Makes a free request only when no answer has
// been seen yet, so recalculating it costs nothing.
import type { CreditState } from "../shared/credit-meter";
import type { FunctionContext } from "./call-context";
import { isBlank } from "./argument-parsers";
import { InputError, NoDataError } from "./excel-errors";
import type { FunctionArg, FunctionDef } from "./function-def";
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

/** The item asked for, or null for every item. */
function creditItem(raw: unknown): string | null {
  const item = isBlank(raw) ? null : canonical(String(raw)).replace(/-/g, "_");
  if (item !== null && !(CREDIT_ITEMS as readonly string[]).includes(item)) {
    throw new InputError(`item: "${String(raw).trim()}" is not one of ${CREDIT_ITEMS.join(", ")}.`);
  }
  return item;
}

const ITEM_ARG: FunctionArg = {
  name: "item",
  kind: "name",
  label: "Item",
  help: `One of ${CREDIT_ITEMS.join(", ")}; blank: every item.`,
  required: false,
  in: "query",
  read: (raw) => {
    creditItem(raw);
    return {};
  },
};

/**
 * PROP.CREDITS: its operation is null, as its answer is no operation's: it is the credit meter's
 * state (CreditState), read from the X-Credits-* headers of whatever answers the session has
 * had. Only when there has been none does the function make a free request (CachedApi.checkCredits),
 * for its headers, not its body.
 */
export const CREDITS: FunctionDef<CreditState, null> = {
  name: "CREDITS",
  operation: null,
  args: [ITEM_ARG],
  request(args, options) {
    const item = creditItem(args[0]);
    const parsed = parseOptions(options, item ? VALUE_OPTIONS : [HEADERS_OPTION, ...VALUE_OPTIONS]);
    return { operation: null, params: {}, query: {}, options: parsed, args };
  },
  /** One item's value, or every item as item/value rows. */
  table(state, call) {
    const item = creditItem(call.args[0]);
    const forms = valueForms(call.options);
    const pairs = items(state);
    if (item) {
      const value = pairs.find(([name]) => name === item)![1];
      if (value === null || value === undefined) throw new NoDataError(`The service did not report ${item}.`);
      return [[toCell(value, ITEM_FORMATS[item], forms)]];
    }
    const headers = (call.options.get("headers") as boolean | undefined) ?? true;
    return shapePairs(pairs, ["item", "value"], { headers, cols: null, forms, formats: ITEM_FORMATS }, "No credit figures.");
  },
};

export async function credits(rawItem: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const call = CREDITS.request([rawItem], options);
  const { meter, api } = ctx.session;
  if (!meter.current()) await api.checkCredits(ctx);
  const state = meter.current();
  if (!state) throw new NoDataError("The service did not report credits (no X-Credits headers in its answers).");
  return CREDITS.table(state, call);
}
