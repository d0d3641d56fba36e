// The list functions over properties, parcels and listings: PROP.SEARCH, PROP.ASSETSEARCH,
// PROP.PARCELS, PROP.LISTINGS and PROP.DILIGENCE. Each maps its positional arguments to the
// endpoint's inputs; options carry the other filters and the table options.
import { ENDPOINTS } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { assetTypeArg, geographyArg, isBlank } from "./argument-parsers";
import { listTable } from "./list-table";
import { checkParam } from "./param-values";
import type { Cell } from "./table-shape";

const ANY_GEOGRAPHY = { state: "state_code", city: "city", zip: "zip", metro: "metro_id" } as const;
const TEXT = ENDPOINTS.searchProperties.query.find((q) => q.name === "q")!;

function optionalGeography(raw: unknown, names: Parameters<typeof geographyArg>[1]): Record<string, string> {
  return isBlank(raw) ? {} : geographyArg(raw, names);
}

/** PROP.SEARCH: commercial properties of any asset type. */
export function searchProperties(text: unknown, geography: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const positional = { ...(isBlank(text) ? {} : { q: checkParam(TEXT, text, "text") }), ...optionalGeography(geography, ANY_GEOGRAPHY) };
  return listTable({ spec: ENDPOINTS.searchProperties, positional, options, resource: "property", empty: "No properties match" }, ctx);
}

/** PROP.ASSETSEARCH: properties of one asset type, with the inputs that asset type supports. */
export function searchAssetProperties(assetType: unknown, geography: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const asset_type = assetTypeArg(assetType);
  return listTable(
    {
      spec: ENDPOINTS.searchAssetProperties,
      pathParams: { asset_type },
      positional: optionalGeography(geography, ANY_GEOGRAPHY),
      options,
      resource: "property",
      empty: `No ${asset_type} properties match`,
    },
    ctx,
  );
}

/** PROP.PARCELS: assessor parcels. */
export function parcels(geography: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const positional = optionalGeography(geography, { state: "state_code", city: "city", zip: "zip" });
  return listTable({ spec: ENDPOINTS.listParcels, positional, options, resource: "parcel", empty: "No parcels match" }, ctx);
}

/** PROP.LISTINGS: listings, newest first. */
export function listings(geography: unknown, status: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const statusSpec = ENDPOINTS.searchListings.query.find((q) => q.name === "status")!;
  const positional = {
    ...optionalGeography(geography, { state: "state", city: "city", zip: "zip" }),
    ...(isBlank(status) ? {} : { status: checkParam(statusSpec, status, "status") }),
  };
  return listTable({ spec: ENDPOINTS.searchListings, positional, options, resource: "listing", empty: "No listings match" }, ctx);
}

/** PROP.DILIGENCE: properties ranked by reasons to look closer. */
export function diligence(assetType: unknown, geography: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const positional = {
    ...(isBlank(assetType) ? {} : { asset_type: assetTypeArg(assetType) }),
    ...optionalGeography(geography, { state: "state_code", metro: "metro_id" }),
  };
  return listTable(
    { spec: ENDPOINTS.rankDiligenceCandidates, positional, options, resource: "diligence_candidate", empty: "No diligence candidates match" },
    ctx,
  );
}
