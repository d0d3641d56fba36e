// Every operation of the v1 API, each defined once (contract/operation.ts says what a definition
// holds). The service registers a route per operation (src/server/routes), the OpenAPI document
// is built from those routes, the catalog lists them, and the add-in calls them by these names.
import { defineOperation, type Operation } from "./operation";
import { QUERIES } from "./queries";
import { MarketHistory, MarketHistoryQuery, PropertyEvent, PropertyHistoryQuery } from "./history";
import { ListOf } from "./list-envelope";
import { CommercialProperty, Company, DiligenceCandidate, Listing, MarketSnapshot, Parcel } from "./records";
import {
  AssetAnalysis,
  Catalog,
  CompanySummary,
  ListStatistics,
  PortfolioHolding,
  PropertyComparison,
  SaleCompRow,
  SaleCompsSubject,
  TenantLocation,
} from "./responses";
import { CoverageReport } from "./coverage";
import { MarketBatch, MarketBatchRequest } from "./market-batch";
import { CompareRequest } from "./compare";
import { AssetTypePath, CompanyTypePath, PropertyIdPath } from "./path-params";
import { Nullable, Ref } from "./schema-helpers";

export const OPERATIONS = {
  listParcels: defineOperation("listParcels", {
    method: "GET",
    path: "/v1/parcels",
    paged: true,
    cost: 1,
    inputs: QUERIES.listParcels,
    response: ListOf(Ref(Parcel)),
  }),
  searchListings: defineOperation("searchListings", {
    method: "GET",
    path: "/v1/listings/search",
    paged: true,
    cost: 1,
    inputs: QUERIES.searchListings,
    response: ListOf(Ref(Listing)),
  }),
  getCoverage: defineOperation("getCoverage", {
    method: "GET",
    path: "/v1/commercial/coverage",
    paged: false,
    cost: 0,
    response: CoverageReport,
  }),
  getCatalog: defineOperation("getCatalog", {
    method: "GET",
    path: "/v1/commercial/catalog",
    paged: false,
    cost: 0,
    response: Catalog,
  }),
  searchProperties: defineOperation("searchProperties", {
    method: "GET",
    path: "/v1/commercial/properties",
    paged: true,
    cost: 1,
    inputs: QUERIES.searchProperties,
    response: ListOf(Ref(CommercialProperty)),
  }),
  getProperty: defineOperation("getProperty", {
    method: "GET",
    path: "/v1/commercial/properties/{property_id}",
    paged: false,
    cost: 1,
    params: PropertyIdPath,
    response: Ref(CommercialProperty),
  }),
  getPropertyHistory: defineOperation("getPropertyHistory", {
    method: "GET",
    path: "/v1/commercial/properties/{property_id}/history",
    paged: true,
    cost: 1,
    params: PropertyIdPath,
    inputs: PropertyHistoryQuery,
    response: ListOf(Ref(PropertyEvent)),
  }),
  compareProperties: defineOperation("compareProperties", {
    method: "POST",
    path: "/v1/commercial/properties/compare",
    paged: false,
    cost: 2,
    body: CompareRequest,
    response: PropertyComparison,
  }),
  findSaleComps: defineOperation("findSaleComps", {
    method: "GET",
    path: "/v1/commercial/sale-comps",
    paged: true,
    cost: 2,
    inputs: QUERIES.findSaleComps,
    response: ListOf(Ref(SaleCompRow), { subject: Nullable(SaleCompsSubject), statistics: ListStatistics }),
  }),
  getMarketSnapshot: defineOperation("getMarketSnapshot", {
    method: "GET",
    path: "/v1/commercial/markets/snapshot",
    paged: false,
    cost: 1,
    inputs: QUERIES.getMarketSnapshot,
    response: Ref(MarketSnapshot),
  }),
  getMarketSnapshotBatch: defineOperation("getMarketSnapshotBatch", {
    method: "POST",
    path: "/v1/commercial/markets/batch",
    paged: false,
    cost: 1,
    costPer: "market answered",
    body: MarketBatchRequest,
    response: Ref(MarketBatch),
  }),
  getMarketHistory: defineOperation("getMarketHistory", {
    method: "GET",
    path: "/v1/commercial/markets/history",
    paged: false,
    cost: 2,
    inputs: MarketHistoryQuery,
    response: Ref(MarketHistory),
  }),
  analyseAssetType: defineOperation("analyseAssetType", {
    method: "GET",
    path: "/v1/commercial/assets/{asset_type}/analysis",
    paged: false,
    cost: 2,
    params: AssetTypePath,
    inputs: QUERIES.analyseAssetType,
    response: Ref(AssetAnalysis),
  }),
  searchAssetProperties: defineOperation("searchAssetProperties", {
    method: "GET",
    path: "/v1/commercial/assets/{asset_type}/properties",
    paged: true,
    cost: 1,
    params: AssetTypePath,
    inputs: QUERIES.searchAssetProperties,
    response: ListOf(Ref(CommercialProperty)),
  }),
  getOwnerPortfolio: defineOperation("getOwnerPortfolio", {
    method: "GET",
    path: "/v1/commercial/owners/portfolio",
    paged: true,
    cost: 2,
    inputs: QUERIES.getOwnerPortfolio,
    response: ListOf(Ref(PortfolioHolding), { owner: Ref(CompanySummary) }),
  }),
  searchCompanies: defineOperation("searchCompanies", {
    method: "GET",
    path: "/v1/commercial/companies/{company_type}",
    paged: true,
    cost: 1,
    params: CompanyTypePath,
    inputs: QUERIES.searchCompanies,
    response: ListOf(Ref(Company)),
  }),
  getTenantFootprint: defineOperation("getTenantFootprint", {
    method: "GET",
    path: "/v1/commercial/tenants/footprint",
    paged: true,
    cost: 2,
    inputs: QUERIES.getTenantFootprint,
    response: ListOf(Ref(TenantLocation), { tenant: Ref(CompanySummary) }),
  }),
  rankDiligenceCandidates: defineOperation("rankDiligenceCandidates", {
    method: "GET",
    path: "/v1/commercial/diligence/candidates",
    paged: true,
    cost: 3,
    inputs: QUERIES.rankDiligenceCandidates,
    response: ListOf(Ref(DiligenceCandidate)),
  }),
};

export type Operations = typeof OPERATIONS;
export type OperationName = keyof Operations;

/** Every operation, in the order the documentation lists them. */
export const OPERATION_LIST: readonly Operation[] = Object.values(OPERATIONS);

/** Credits a successful call of each operation costs (per unit for those with `costPer`). */
export const CREDIT_COSTS = Object.fromEntries(OPERATION_LIST.map((o) => [o.name, o.cost])) as Record<OperationName, number>;
