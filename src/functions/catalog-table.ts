// PROP.CATALOG([section], [options]): what the API offers over this snapshot. Free. Sections:
// the endpoints with their credit cost (default), asset types with the search inputs each
// supports, company types, listing statuses and property types, metros, paging bounds, and
// the fields of each stored resource.
import { pinCall } from "./snapshot-pin";
import { ENDPOINTS } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { CATALOG_VALUE_LIST_NAMES, CATALOG_VALUE_LISTS, isCatalogValueList, type Catalog } from "../contract/responses";
import { parseOptions } from "./options";
import { sectionArg, sectionTable } from "./section-table";
import { SHAPE_OPTIONS, shapePairs, tableOptions, type Cell } from "./table-shape";

export const CATALOG_SECTIONS = ["endpoints", "asset_types", ...CATALOG_VALUE_LIST_NAMES, "metros", "paging", "fields"] as const;

function catalogRows(catalog: Catalog, section: (typeof CATALOG_SECTIONS)[number]): Record<string, unknown>[] {
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

export async function catalogTable(rawSection: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const section = sectionArg(rawSection, CATALOG_SECTIONS, "endpoints");
  const parsed = parseOptions(options, SHAPE_OPTIONS);
  ctx = pinCall(parsed, ctx);
  const shape = tableOptions(parsed, null, "catalog");
  const catalog = await ctx.session.api.get<Catalog>(ENDPOINTS.getCatalog, {}, {}, ctx);
  if (section === "paging") {
    return shapePairs(
      Object.entries(catalog.paging),
      ["setting", "value"],
      { ...shape, cols: null },
      "The catalog states no paging bounds.",
    );
  }
  return sectionTable(catalogRows(catalog, section), shape, `The catalog lists no ${section.replace(/_/g, " ")}.`);
}
