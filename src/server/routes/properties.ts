// Commercial property search (cross-asset and by asset type), detail and compare.
import { ASSET_TYPES, assetTypeOf, type AssetType } from "../../contract/vocabulary";
import { notFound } from "../http/problem";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import { searchProperties } from "../data/property-search";
import { listEnvelopeText } from "../data/list-envelope";
import { etagOf } from "../http/etag";
import { JsonText } from "../data/json-text";
import { PLACE_PROBLEMS, queryPlaces } from "./place-params";

/** An asset type in the path, in any of its spellings ("Multi-Family" is multifamily). */
export function assetTypeParam(given: string): AssetType {
  const value = assetTypeOf(given) ?? given;
  if (!(ASSET_TYPES as readonly string[]).includes(value)) {
    throw notFound(`There is no asset type '${value}'. Valid asset types: ${ASSET_TYPES.join(", ")}.`, {
      valid_values: [...ASSET_TYPES],
    });
  }
  return value as AssetType;
}

/** The 404 of routes with an asset type in their path (RouteDef.notFound). */
export const UNKNOWN_ASSET_TYPE = "No such asset type; `valid_values` lists them";

const UNSUPPORTED_FILTER = `a search input the snapshot does not support for the asset type (\`unsupported_filter\`, with \`supported_filters\`); or ${PLACE_PROBLEMS}`;

export const propertySearchRoute = defineRoute(OPERATIONS.searchProperties, {
  tag: "Commercial properties",
  summary: "Search commercial properties across asset types",
  description:
    "Cross-asset property search, in a stable order. `q` matches whole words of the name, address, city, state, owner, subtype and asset type (all words must match; end a word with `*` to match its start). " +
    "When `asset_type` is given, inputs that asset type does not support give `400 unsupported_filter`.",
  badRequest: UNSUPPORTED_FILTER,
  handler: ({ snapshot, query }) => {
    const places = queryPlaces(snapshot, "searchProperties", query);
    const { records, total } = searchProperties(snapshot, { ...query, places });
    return listEnvelopeText(records, query, total, snapshot.ref);
  },
});

export const assetPropertiesRoute = defineRoute(OPERATIONS.searchAssetProperties, {
  tag: "Commercial properties",
  summary: "Search properties of one asset type",
  description:
    "Asset-oriented search. Each input is accepted only where the snapshot supports it " +
    "for this asset type (see the catalog's `asset_types[].supported_inputs`); others give `400 unsupported_filter`.",
  notFound: UNKNOWN_ASSET_TYPE,
  badRequest: UNSUPPORTED_FILTER,
  handler: ({ snapshot, query, params }) => {
    const asset_type = assetTypeParam(params.asset_type);
    const places = queryPlaces(snapshot, "searchAssetProperties", query);
    const { records, total } = searchProperties(snapshot, { ...query, asset_type, places });
    return listEnvelopeText(records, query, total, snapshot.ref);
  },
});

export const propertyDetailRoute = defineRoute(OPERATIONS.getProperty, {
  tag: "Commercial properties",
  summary: "Property detail",
  description: "One commercial property, with links to its parcel, owner and last sale.",
  notFound: "No property with this id in the snapshot",
  handler: ({ snapshot, params }) => {
    // The document rendered when the snapshot was built (snapshot/property-docs.ts says why).
    const json = snapshot.propertyDoc(params.property_id);
    if (json === undefined) throw notFound(`There is no commercial property '${params.property_id}' in this snapshot.`);
    return new JsonText(json, etagOf(json));
  },
});
