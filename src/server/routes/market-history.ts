// GET /v1/commercial/markets/history: one market's quarterly (or yearly) series, read from the
// snapshot's market_history table. The metrics, the dates and the place are checked before
// anything is charged: a mistake in any of them is refused free.
import {
  DEFAULT_HISTORY_METRICS,
  DEFAULT_WINDOW_QUARTERS,
  MARKET_HISTORY_METRIC_NAMES,
  MARKET_HISTORY_UNITS,
  MarketHistory,
} from "../../contract/history";
import type { MarketSnapshot } from "../../contract/records";
import { parseQuarter, quarterOf, quarterStart } from "../../contract/periods";
import { ApiProblem } from "../http/problem";
import { JsonText } from "../data/json-text";
import { marketSeries } from "../data/market-series";
import type { SnapshotContext } from "../data/snapshot-context";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import { findMarket } from "./markets";
import { nameList } from "./query-params";

type MarketIdentity = Pick<MarketSnapshot, "id" | "geography_type" | "geography_id" | "geography_name" | "state_code" | "asset_type"> & {
  rid: number;
};

/** The quarters the snapshot's history holds (its coverage report records them). */
function spanOf(snapshot: SnapshotContext): { first: number; last: number } {
  const h = snapshot.coverage.history;
  return { first: parseQuarter(h.first_period)!, last: parseQuarter(h.last_period)! };
}

function outside(parameter: "from" | "to", detail: string): ApiProblem {
  return new ApiProblem(400, "validation_failed", detail, [{ pointer: `/${parameter}`, parameter, detail }]);
}

export const marketHistoryRoute = defineRoute(OPERATIONS.getMarketHistory, {
  handler: ({ snapshot, query, request }) => {
    const metrics =
      query.metrics === undefined ? [...DEFAULT_HISTORY_METRICS] : nameList("metrics", query.metrics, MARKET_HISTORY_METRIC_NAMES);
    const { first, last } = spanOf(snapshot);
    const capture = snapshot.asOf;
    if (query.from !== undefined && query.from > capture)
      throw outside("from", `from (${query.from}) is after the capture date (${capture}): the history ends there.`);
    if (query.to !== undefined && query.to < quarterStart(first))
      throw outside("to", `to (${query.to}) is before the history begins (${quarterStart(first)}).`);
    const market = findMarket<MarketIdentity>(
      snapshot,
      query.geography,
      query.asset_type,
      "getMarketHistory",
      "rowid AS rid, id, geography_type, geography_id, geography_name, state_code, asset_type",
    );
    // The default window is the DEFAULT_WINDOW_QUARTERS quarters that end where the series ends: at `to`
    // when it is given (within the history), else at the capture date.
    const to = query.to ?? capture;
    const periods = marketSeries(snapshot, {
      market: market.rid,
      metrics,
      from: query.from ?? quarterStart(Math.min(last, quarterOf(to)) - (DEFAULT_WINDOW_QUARTERS - 1)),
      to,
      interval: query.interval,
      first,
      last,
      capture,
    });
    // A series with no period carries no data, so it costs nothing.
    if (periods.length === 0) request.chargedCredits = 0;
    const { rid: _rid, id, ...identity } = market;
    // Written by JSON.stringify: the schema's serialiser walks 40 periods' `values` records
    // generically, which made it the larger part of the request (the answer is the same).
    const answer: MarketHistory = {
      object: "market_history" as const,
      market_id: id,
      ...identity,
      interval: query.interval,
      metrics,
      units: Object.fromEntries(metrics.map((m) => [m, MARKET_HISTORY_UNITS[m]])),
      periods,
      coverage: {
        requested_from: query.from ?? null,
        first_held: quarterStart(first),
        from_before_history: query.from !== undefined && query.from < quarterStart(first),
      },
      snapshot: snapshot.ref,
    };
    return new JsonText(JSON.stringify(answer));
  },
});
