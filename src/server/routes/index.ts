// Every route of the public API, in the order the documentation lists them.
import type { RouteDef } from "./route-def";
import { listingsRoute, parcelsRoute } from "./parcels-listings";
import { assetPropertiesRoute, propertyDetailRoute, propertySearchRoute } from "./properties";
import { compareRoute } from "./compare";
import { saleCompsRoute } from "./sale-comps";
import { marketBatchRoute, marketSnapshotRoute } from "./markets";
import { marketHistoryRoute } from "./market-history";
import { propertyHistoryRoute } from "./property-history";
import { assetAnalysisRoute } from "./asset-analysis";
import { ownerPortfolioRoute, tenantFootprintRoute } from "./owners-tenants";
import { companiesRoute, diligenceRoute } from "./companies-diligence";
import { catalogRoute, coverageRoute } from "./coverage-catalog";

export const API_ROUTES: RouteDef[] = [
  parcelsRoute,
  listingsRoute,
  coverageRoute,
  catalogRoute(() => API_ROUTES),
  propertySearchRoute,
  propertyDetailRoute,
  propertyHistoryRoute,
  compareRoute,
  saleCompsRoute,
  marketSnapshotRoute,
  marketBatchRoute,
  marketHistoryRoute,
  assetAnalysisRoute,
  assetPropertiesRoute,
  ownerPortfolioRoute,
  companiesRoute,
  tenantFootprintRoute,
  diligenceRoute,
];
