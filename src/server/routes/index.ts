// The public API's routes, found in the route modules of its areas: every RouteDef a module
// exports is the route of its operation. Each operation of the contract (OPERATIONS) has
// exactly one, and they are listed in the contract's order (the documentation's). Adding an
// operation to an area touches its definition in src/contract/operations.ts and the area's
// module; only a new area is added here.
import { OPERATION_LIST } from "../../contract/operations";
import type { Operation } from "../../contract/operation";
import type { RouteDef } from "./route-def";
import * as assetAnalysis from "./asset-analysis";
import * as companiesDiligence from "./companies-diligence";
import * as compare from "./compare";
import * as coverageCatalog from "./coverage-catalog";
import * as marketHistory from "./market-history";
import * as markets from "./markets";
import * as ownersTenants from "./owners-tenants";
import * as parcelsListings from "./parcels-listings";
import * as properties from "./properties";
import * as propertyHistory from "./property-history";
import * as propertyMatch from "./property-match";
import * as saleComps from "./sale-comps";

/** The route modules, one per area of the API. */
export const AREAS: readonly Record<string, unknown>[] = [
  parcelsListings,
  coverageCatalog,
  properties,
  propertyMatch,
  propertyHistory,
  compare,
  saleComps,
  markets,
  marketHistory,
  assetAnalysis,
  ownersTenants,
  companiesDiligence,
];

/** Whether a module's export is the route of one of `operations` (defineRoute's value). */
function isRouteOf(value: unknown, operations: readonly Operation[]): value is RouteDef {
  if (!value || typeof value !== "object" || !("operation" in value) || !("handler" in value)) return false;
  return operations.includes(value.operation as Operation) && typeof value.handler === "function";
}

/** The route of each of `operations`, in their order; an operation with none, or with more than one, is an error. */
export function routesOf(modules: readonly Record<string, unknown>[], operations: readonly Operation[]): RouteDef[] {
  const found = modules.flatMap((m) => Object.values(m).filter((v) => isRouteOf(v, operations)));
  return operations.map((operation) => {
    const mine = found.filter((r) => r.operation === operation);
    if (mine.length !== 1) throw new Error(`${operation.name} has ${mine.length} routes in the route modules; it needs exactly one`);
    return mine[0];
  });
}

export const API_ROUTES: readonly RouteDef[] = routesOf(AREAS, OPERATION_LIST);
