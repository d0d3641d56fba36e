// PROP.CATALOG([section], [options]): what the API offers over this snapshot. Free. Sections:
// the endpoints with their credit cost (default), asset types with the search inputs each
// supports, company types, listing statuses and property types, metros, paging bounds, and
// the fields of each stored resource.
import { pinCall } from "./snapshot-pin";
import { OPERATIONS } from "../contract/operations";
import type { AnswerOf } from "../contract/operation";
import type { FunctionContext } from "./call-context";
import { CATALOG_VALUE_LIST_NAMES, CATALOG_VALUE_LISTS, isCatalogValueList } from "../contract/responses";
import type { FunctionDef } from "./function-def";
import { parseOptions } from "./options";
import { sectionArg, sectionFunctionArg, sectionTable } from "./section-table";
import { SHAPE_OPTIONS, shapePairs, tableOptions, type Cell } from "./table-shape";

export const CATALOG_SECTIONS = ["endpoints", "asset_types", ...CATALOG_VALUE_LIST_NAMES, "metros", "paging", "fields"] as const;

/** The catalog, as getCatalog answers it. */
type CatalogAnswer = AnswerOf<typeof OPERATIONS.getCatalog>;

function catalogRows(catalog: CatalogAnswer, section: (typeof CATALOG_SECTIONS)[number]): Record<string, unknown>[] {
  if (isCatalogValueList(section)) return catalog[section].map((value) => ({ [CATALOG_VALUE_LISTS[section]]: value }));
  switch (section) {
    case "endpoints":
      return catalog.surfaces;
    case "asset_types":
      return catalog.asset_types.map((a) => ({ ...a, unsupported_inputs: a.unsupported_inputs.map((u) => u.input) }));
    case "metros":
      return catalog.metros;
    case "fields":
      return Object.entries(catalog.fields).map(([resource, fields]) => ({ resource, fields }));
    default:
      return [];
  }
}

const SECTION_ARG = sectionFunctionArg(CATALOG_SECTIONS, "endpoints", `One of ${CATALOG_SECTIONS.join(", ")}; blank: endpoints.`);

/** PROP.CATALOG: one section of getCatalog's answer. Its columns are the section's, so it names no resource. */
export const CATALOG: FunctionDef<CatalogAnswer, "getCatalog"> = {
  name: "CATALOG",
  operation: "getCatalog",
  args: [SECTION_ARG],
  request(args, options) {
    sectionArg(args[0], CATALOG_SECTIONS, "endpoints");
    const parsed = parseOptions(options, SHAPE_OPTIONS);
    return { operation: "getCatalog", params: {}, query: {}, options: parsed, args };
  },
  table(catalog, call) {
    const section = sectionArg(call.args[0], CATALOG_SECTIONS, "endpoints");
    const shape = tableOptions(call.options, null, "catalog");
    if (section === "paging") {
      return shapePairs(
        Object.entries(catalog.paging),
        ["setting", "value"],
        { ...shape, cols: null },
        "The catalog states no paging bounds.",
      );
    }
    return sectionTable(catalogRows(catalog, section), shape, `The catalog lists no ${section.replace(/_/g, " ")}.`);
  },
};

export async function catalogTable(rawSection: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const call = CATALOG.request([rawSection], options);
  const catalog = await ctx.session.api.call(OPERATIONS.getCatalog, {}, pinCall(call.options, ctx));
  return CATALOG.table(catalog, call);
}
