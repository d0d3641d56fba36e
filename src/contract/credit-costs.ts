// Credits a successful call of each operation costs; 304s and errors cost nothing. The
// server's routes charge and publish these (the catalog, the OpenAPI `x-credit-cost`), and the
// add-in counts the credits its calls spend with them. An operation listed in CREDIT_UNITS
// costs that much per unit it answers instead of per call.
export const CREDIT_COSTS = {
  listParcels: 1,
  searchListings: 1,
  getCoverage: 0,
  getCatalog: 0,
  searchProperties: 1,
  getProperty: 1,
  getPropertyHistory: 1,
  compareProperties: 2,
  findSaleComps: 2,
  getMarketSnapshot: 1,
  getMarketSnapshotBatch: 1,
  getMarketHistory: 2,
  analyseAssetType: 2,
  searchAssetProperties: 1,
  getOwnerPortfolio: 2,
  searchCompanies: 1,
  getTenantFootprint: 2,
  rankDiligenceCandidates: 3,
} as const satisfies Record<string, number>;

export type OperationName = keyof typeof CREDIT_COSTS;

/** What an operation charged per unit is charged per (every other operation: per call). */
export const CREDIT_UNITS: Partial<Record<OperationName, string>> = {
  getMarketSnapshotBatch: "market answered",
};
