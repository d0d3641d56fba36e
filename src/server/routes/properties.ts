// Commercial property search (cross-asset and by asset type), detail and compare.
import { ASSET_TYPES, assetTypeOf, type AssetType } from "../../contract/vocabulary";
import { notFound } from "../http/problem";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import { searchProperties } from "../data/property-search";
import { listEnvelopeText } from "../data/list-envelope";
import { etagOf } from "../http/etag";
import { JsonText } from "../data/json-text";
import { queryPlaces } from "./place-params";

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

export const propertySearchRoute = defineRoute(OPERATIONS.searchProperties, {
  handler: ({ snapshot, query }) => {
    const places = queryPlaces(snapshot, "searchProperties", query);
    const { records, total } = searchProperties(snapshot, { ...query, places });
    return listEnvelopeText(records, query, total, snapshot.ref);
  },
});

export const assetPropertiesRoute = defineRoute(OPERATIONS.searchAssetProperties, {
  handler: ({ snapshot, query, params }) => {
    const asset_type = assetTypeParam(params.asset_type);
    const places = queryPlaces(snapshot, "searchAssetProperties", query);
    const { records, total } = searchProperties(snapshot, { ...query, asset_type, places });
    return listEnvelopeText(records, query, total, snapshot.ref);
  },
});

export const propertyDetailRoute = defineRoute(OPERATIONS.getProperty, {
  handler: ({ snapshot, params }) => {
    // The document rendered when the snapshot was built (snapshot/property-docs.ts says why).
    const json = snapshot.propertyDoc(params.property_id);
    if (json === undefined) throw notFound(`There is no commercial property '${params.property_id}' in this snapshot.`);
    return new JsonText(json, etagOf(json));
  },
});
