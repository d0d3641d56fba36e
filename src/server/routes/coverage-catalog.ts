// The two free endpoints: what the snapshot holds (coverage) and what the API offers over it
// (catalog). The task pane builds its search forms from the catalog. Neither takes inputs but
// the snapshot selectors every operation takes: an unknown query parameter is refused (400), as
// everywhere.
import {
  ASSET_TYPES,
  COMPANY_TYPES,
  INPUT_FIELD,
  LISTING_PROPERTY_TYPES,
  LISTING_STATUSES,
  SEARCH_INPUTS,
  type SearchInput,
} from "../../contract/vocabulary";
import { SNAPSHOT_RESOURCES } from "../../contract/records";
import { Catalog } from "../../contract/responses";
import { placeKindsOf } from "../../contract/input-kinds";
import { MAX_LIMIT, DEFAULT_LIMIT, MAX_OFFSET } from "../../contract/paging";
import { OPERATION_LIST, OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import type { SnapshotContext } from "../data/snapshot-context";
import { NODE_ID } from "../data/node-id";

export const coverageRoute = defineRoute(OPERATIONS.getCoverage, {
  handler: ({ snapshot, kept }) => ({
    object: "coverage" as const,
    snapshot: {
      ...snapshot.ref,
      built_at: snapshot.meta.built_at,
      source: snapshot.source,
      seed: snapshot.meta.seed ?? null,
    },
    serving: { node: NODE_ID, ...snapshot.serving },
    ...snapshot.coverage,
    snapshots: kept(),
  }),
});

const metroCache = new WeakMap<SnapshotContext, Catalog["metros"]>();
function metros(snapshot: SnapshotContext): Catalog["metros"] {
  let m = metroCache.get(snapshot);
  if (!m) {
    m = snapshot.all<Catalog["metros"][number]>(
      `SELECT geography_id AS metro_id, geography_name AS name, state_code, sum(property_count) AS property_count
       FROM markets WHERE geography_type = 'metro' GROUP BY geography_id ORDER BY property_count DESC, geography_id`,
    );
    metroCache.set(snapshot, m);
  }
  return m;
}

function assetTypes(snapshot: SnapshotContext): Catalog["asset_types"] {
  const counts = new Map(snapshot.coverage.by_asset_type.map((r) => [r.asset_type, r.properties]));
  return ASSET_TYPES.map((assetType) => {
    const supported = snapshot.assetInputs[assetType];
    const unsupported = (Object.keys(SEARCH_INPUTS) as SearchInput[])
      .filter((i) => !supported.includes(i))
      .map((input) => ({
        input,
        reason: `fewer than half of this snapshot's ${assetType} properties have ${INPUT_FIELD[input] ?? input}`,
      }));
    const subtypes = snapshot
      .all<{ subtype: string }>("SELECT DISTINCT subtype FROM properties WHERE asset_type = ? AND subtype IS NOT NULL ORDER BY subtype", [
        assetType,
      ])
      .map((r) => r.subtype);
    return {
      asset_type: assetType,
      property_count: counts.get(assetType) ?? 0,
      supported_inputs: supported,
      unsupported_inputs: unsupported,
      subtypes,
    };
  });
}

const catalogCache = new WeakMap<SnapshotContext, Catalog>();

/** Every operation of the contract (OPERATIONS), whatever routes serve them. */
export const catalogRoute = defineRoute(OPERATIONS.getCatalog, {
  handler: ({ snapshot }) => {
    const cached = catalogCache.get(snapshot);
    if (cached) return cached;
    const catalog: Catalog = {
      object: "catalog",
      api_version: "v1",
      snapshot: snapshot.ref,
      surfaces: OPERATION_LIST.map((operation) => ({
        operation_id: operation.name,
        method: operation.method,
        path: operation.path,
        summary: operation.summary,
        cost_credits: operation.cost,
        cost_per: operation.costPer ?? "call",
        place_kinds: [...placeKindsOf(operation.inputs)],
      })),
      asset_types: assetTypes(snapshot),
      company_types: [...COMPANY_TYPES],
      listing_statuses: [...LISTING_STATUSES],
      listing_property_types: [...LISTING_PROPERTY_TYPES],
      metros: metros(snapshot),
      paging: { default_limit: DEFAULT_LIMIT, max_limit: MAX_LIMIT, max_offset: MAX_OFFSET },
      fields: Object.fromEntries(Object.entries(SNAPSHOT_RESOURCES).map(([k, s]) => [k, Object.keys(s.properties)])),
    };
    catalogCache.set(snapshot, catalog);
    return catalog;
  },
});
