// The list functions over properties, parcels and listings: PROP.SEARCH, PROP.ASSETSEARCH,
// PROP.PARCELS, PROP.LISTINGS and PROP.DILIGENCE. Each maps its positional arguments to the
// endpoint's inputs; options carry the other filters and the table options.
import { ENDPOINTS, type EndpointSpec } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { assetTypeArg, isBlank, placeArg } from "./argument-parsers";
import { listTable } from "./list-table";
import { checkParam } from "./param-values";
import type { Cell } from "./table-shape";

const TEXT = ENDPOINTS.searchProperties.query.find((q) => q.name === "q")!;

/** An optional place argument as the endpoint's `geography` input (nothing when blank). */
function optionalPlace(raw: unknown, spec: EndpointSpec): Record<string, string> {
  return isBlank(raw) ? {} : placeArg(raw, spec);
}

/** PROP.SEARCH: commercial properties of any asset type. */
export function searchProperties(text: unknown, geography: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const positional = {
    ...(isBlank(text) ? {} : { q: checkParam(TEXT, text, "text") }),
    ...optionalPlace(geography, ENDPOINTS.searchProperties),
  };
  return listTable({ spec: ENDPOINTS.searchProperties, positional, options, resource: "property", empty: "No properties match" }, ctx);
}

/** PROP.ASSETSEARCH: properties of one asset type, with the inputs that asset type supports. */
export function searchAssetProperties(assetType: unknown, geography: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const asset_type = assetTypeArg(assetType);
  return listTable(
    {
      spec: ENDPOINTS.searchAssetProperties,
      pathParams: { asset_type },
      positional: optionalPlace(geography, ENDPOINTS.searchAssetProperties),
      options,
      resource: "property",
      empty: `No ${asset_type} properties match`,
    },
    ctx,
  );
}

/** PROP.PARCELS: assessor parcels. */
export function parcels(geography: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const positional = optionalPlace(geography, ENDPOINTS.listParcels);
  return listTable({ spec: ENDPOINTS.listParcels, positional, options, resource: "parcel", empty: "No parcels match" }, ctx);
}

/** PROP.LISTINGS: listings, newest first. */
export function listings(geography: unknown, status: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const statusSpec = ENDPOINTS.searchListings.query.find((q) => q.name === "status")!;
  const positional = {
    ...optionalPlace(geography, ENDPOINTS.searchListings),
    ...(isBlank(status) ? {} : { status: checkParam(statusSpec, status, "status") }),
  };
  return listTable({ spec: ENDPOINTS.searchListings, positional, options, resource: "listing", empty: "No listings match" }, ctx);
}

/** PROP.DILIGENCE: properties ranked by reasons to look closer. */
export function diligence(assetType: unknown, geography: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const positional = {
    ...(isBlank(assetType) ? {} : { asset_type: assetTypeArg(assetType) }),
    ...optionalPlace(geography, ENDPOINTS.rankDiligenceCandidates),
  };
  return listTable(
    {
      spec: ENDPOINTS.rankDiligenceCandidates,
      positional,
      options,
      resource: "diligence_candidate",
      empty: "No diligence candidates match",
    },
    ctx,
  );
}
