// The list functions over properties, parcels and listings: PROP.SEARCH, PROP.ASSETSEARCH,
// PROP.PARCELS, PROP.LISTINGS and PROP.DILIGENCE, each one FunctionDef (function-def.ts):
// its positional arguments and the endpoint's inputs they fill; options carry the other
// filters and the table options.
import { inputArg } from "./function-def";
import { assetTypeArgOf, placeArgOf } from "./function-args";
import { listFunction } from "./list-table";
import { PROPERTY_CARD } from "./property-card";

/** PROP.SEARCH: commercial properties of any asset type. */
export const SEARCH = listFunction({
  name: "SEARCH",
  operation: "searchProperties",
  resource: "property",
  args: [
    inputArg("searchProperties", { name: "text", label: "Text", required: false, input: "q" }),
    placeArgOf("searchProperties", { required: false }),
  ],
  empty: () => "No properties match",
  cards: PROPERTY_CARD,
});

/** PROP.ASSETSEARCH: properties of one asset type, with the inputs that asset type supports. */
export const ASSETSEARCH = listFunction({
  name: "ASSETSEARCH",
  operation: "searchAssetProperties",
  resource: "property",
  args: [
    assetTypeArgOf("searchAssetProperties", {
      required: true,
      in: "path",
      help: "Asset type, e.g. industrial; the filters below depend on it.",
    }),
    placeArgOf("searchAssetProperties", { required: false }),
  ],
  empty: (params) => `No ${params.asset_type} properties match`,
  cards: PROPERTY_CARD,
});

/** PROP.PARCELS: assessor parcels. */
export const PARCELS = listFunction({
  name: "PARCELS",
  operation: "listParcels",
  resource: "parcel",
  args: [placeArgOf("listParcels", { required: false })],
  empty: () => "No parcels match",
});

/** PROP.LISTINGS: listings, newest first. */
export const LISTINGS = listFunction({
  name: "LISTINGS",
  operation: "searchListings",
  resource: "listing",
  args: [
    placeArgOf("searchListings", { required: false }),
    inputArg("searchListings", { name: "status", label: "Status", required: false, input: "status" }),
  ],
  empty: () => "No listings match",
});

/** PROP.DILIGENCE: properties ranked by reasons to look closer. */
export const DILIGENCE = listFunction({
  name: "DILIGENCE",
  operation: "rankDiligenceCandidates",
  resource: "diligence_candidate",
  args: [assetTypeArgOf("rankDiligenceCandidates", { required: false }), placeArgOf("rankDiligenceCandidates", { required: false })],
  empty: () => "No diligence candidates match",
});
