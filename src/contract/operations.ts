// Every operation of the v1 API: its method, its path (OpenAPI syntax, `{name}` for a path
// parameter) and whether it answers a paged list. The service registers its routes at these
// paths (src/server/routes/route-def.ts) and the add-in calls them (src/shared/endpoints.ts).
import type { OperationName } from "./credit-costs";

export interface Operation {
  method: "GET" | "POST";
  path: string;
  /** Answers a list envelope paged by `limit` and `offset`. */
  paged: boolean;
}

export const OPERATIONS = {
  listParcels: { method: "GET", path: "/v1/parcels", paged: true },
  searchListings: { method: "GET", path: "/v1/listings/search", paged: true },
  getCoverage: { method: "GET", path: "/v1/commercial/coverage", paged: false },
  getCatalog: { method: "GET", path: "/v1/commercial/catalog", paged: false },
  searchProperties: { method: "GET", path: "/v1/commercial/properties", paged: true },
  getProperty: { method: "GET", path: "/v1/commercial/properties/{property_id}", paged: false },
  getPropertyHistory: { method: "GET", path: "/v1/commercial/properties/{property_id}/history", paged: true },
  compareProperties: { method: "POST", path: "/v1/commercial/properties/compare", paged: false },
  findSaleComps: { method: "GET", path: "/v1/commercial/sale-comps", paged: true },
  getMarketSnapshot: { method: "GET", path: "/v1/commercial/markets/snapshot", paged: false },
  getMarketSnapshotBatch: { method: "POST", path: "/v1/commercial/markets/batch", paged: false },
  getMarketHistory: { method: "GET", path: "/v1/commercial/markets/history", paged: false },
  analyseAssetType: { method: "GET", path: "/v1/commercial/assets/{asset_type}/analysis", paged: false },
  searchAssetProperties: { method: "GET", path: "/v1/commercial/assets/{asset_type}/properties", paged: true },
  getOwnerPortfolio: { method: "GET", path: "/v1/commercial/owners/portfolio", paged: true },
  searchCompanies: { method: "GET", path: "/v1/commercial/companies/{company_type}", paged: true },
  getTenantFootprint: { method: "GET", path: "/v1/commercial/tenants/footprint", paged: true },
  rankDiligenceCandidates: { method: "GET", path: "/v1/commercial/diligence/candidates", paged: true },
} as const satisfies Record<OperationName, Operation>;
