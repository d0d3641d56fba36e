// GET /v1/commercial/markets/snapshot: the market figures of one geography and asset type,
// precomputed from the snapshot's properties, sales and leases when it was built.
import { MarketSnapshot } from "../../shared/contract/records";
import { CREDIT_COSTS } from "../../shared/contract/credit-costs";
import { QUERIES } from "../../shared/contract/queries";
import { notFound } from "../http/problem";
import type { RouteDef } from "../http/route-def";
import type { SnapshotContext } from "../data/snapshot-context";

interface Geography {
  type: "state" | "metro" | "city";
  column: "geography_id" | "geography_name";
  value: string;
}

/** "TX" is a state, "metro-austin-tx" or "Austin, TX metro" a metro, "Austin, TX" a city. */
export function parseGeography(text: string): Geography | null {
  const t = text.trim().replace(/\s+/g, " ");
  if (/^[A-Za-z]{2}$/.test(t)) return { type: "state", column: "geography_id", value: t.toUpperCase() };
  if (/^metro-[a-z0-9-]+$/i.test(t)) return { type: "metro", column: "geography_id", value: t.toLowerCase() };
  const m = /^(.*\S)\s*,\s*([A-Za-z]{2})( metro)?$/i.exec(t);
  if (!m) return null;
  const name = `${m[1]}, ${m[2].toUpperCase()}`;
  return m[3] ? { type: "metro", column: "geography_name", value: `${name} metro` } : { type: "city", column: "geography_name", value: name };
}

export function findMarket(snapshot: SnapshotContext, geography: string, assetType: string) {
  const g = parseGeography(geography);
  if (!g) return { error: `'${geography}' is not a geography. Use a state code ("TX"), a city ("Austin, TX") or a metro ("Austin, TX metro" or "metro-austin-tx").` };
  const collate = g.column === "geography_name" ? " COLLATE NOCASE" : "";
  const row = snapshot.get(
    `SELECT * FROM markets WHERE geography_type = ? AND ${g.column} = ?${collate} AND asset_type = ?`,
    [g.type, g.value, assetType],
  );
  if (row) return { row };
  const known = snapshot.get(`SELECT 1 FROM markets WHERE geography_type = ? AND ${g.column} = ?${collate} LIMIT 1`, [g.type, g.value]);
  return {
    error: known
      ? `The snapshot has no ${assetType} properties in ${geography}.`
      : `The snapshot has no ${g.type} '${geography}'. See the catalog for metros, or use a state code or "City, ST".`,
  };
}

export const marketSnapshotRoute: RouteDef = {
  method: "GET",
  url: "/v1/commercial/markets/snapshot",
  operationId: "getMarketSnapshot",
  tag: "Markets",
  summary: "Market snapshot by geography and asset type",
  description:
    "Inventory, occupancy and vacancy, asking rent, rent growth, cap rate and sales volume of one asset type in a state " +
    '("TX"), a city ("Austin, TX") or a metro ("Austin, TX metro" or its id "metro-austin-tx").',
  cost: CREDIT_COSTS.getMarketSnapshot,
  notFound: "The snapshot has no such geography, or no properties of the asset type in it",
  querystring: QUERIES.getMarketSnapshot,
  response: MarketSnapshot,
  handler: ({ snapshot, query }) => {
    const found = findMarket(snapshot, query.geography, query.asset_type);
    if ("error" in found) throw notFound(found.error!);
    return found.row;
  },
};
