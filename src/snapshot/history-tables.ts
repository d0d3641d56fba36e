// The market history's tables. `market_history` is derived: one row per market (by the markets
// table's rowid) and calendar year of the span, which between them hold the market's figures for
// every calendar quarter of the span (quarters numbered year * 4 + quarter - 1,
// src/contract/periods.ts), each row's packed in one blob (history-codec.ts); historyYears says
// which rows a span makes. From one month to the next only the quarter to date and, at a
// quarter's turn, the quarter before it change, all within the capture's year: a new month
// rewrites a market's current-year row, and a year's close adds one small row per market and
// leaves every closed year's row as it was unless its own figures change. A store that keeps each
// version of a row's content (src/snapshot/store) then adds little for any month, the year's
// close included. Figures are stored as integers in a fixed unit (cents of rent, rates in
// hundredths of a percent), and decoded back to the API's units exactly (k / 100 is the same
// double as the 2-decimal figure it was made from).
import { Type, type TSchema } from "@sinclair/typebox";
import { MARKET_HISTORY_METRICS, MARKET_HISTORY_METRIC_NAMES, type MarketHistoryMetric } from "../contract/history";
import { MarketSnapshot } from "../contract/records";
import { Nullable } from "../contract/schema-helpers";
import { quarterYear } from "../contract/periods";

/** Metrics that are whole numbers in the API (counts, USD totals, areas, units). */
const INTEGER_METRICS = new Set<MarketHistoryMetric>([
  "sales_volume",
  "sales_count",
  "inventory_sqft",
  "inventory_units",
  "net_absorption_sqft",
  "net_absorption_units",
  "deliveries_sqft",
  "deliveries_units",
  "property_count",
]);

/**
 * What a stored figure is multiplied by: rents per sq ft and prices per sq ft in cents, rates in
 * hundredths of a percent (the precision the market snapshot rounds them to). The others are
 * whole already (unit rents and prices per unit are rounded to the dollar).
 */
export const HISTORY_SCALES: Partial<Record<MarketHistoryMetric, number>> = {
  asking_rent_sqft_year: 100,
  vacancy_rate: 10_000,
  median_cap_rate: 10_000,
  median_price_per_sqft: 100,
};

/**
 * One row per market (the markets table's rowid) and calendar year of the span: a run of
 * `quarters` quarters from `first_quarter` (the year's Q1, or the span's first quarter; the
 * capture's year ends at the quarter holding the capture date) with every metric's figures for
 * them in one blob (history-codec.ts says how they are packed). A market's rows are adjacent in
 * the primary key, so reading its series is one range of the index.
 */
export const MARKET_HISTORY_DDL = `CREATE TABLE market_history (
  market INTEGER NOT NULL,
  first_quarter INTEGER NOT NULL,
  quarters INTEGER NOT NULL,
  figures BLOB NOT NULL,
  PRIMARY KEY (market, first_quarter)
)`;

/** One row of a market's history: `quarters` quarters from quarter `first`. */
export interface HistoryRun {
  first: number;
  quarters: number;
}

/**
 * The rows of a market's history for `n` quarters from quarter `first`: one per calendar year
 * they touch, in order. Every writer of `market_history` splits here; readers need not know it,
 * as each row says which quarters it holds.
 */
export function historyYears(first: number, n: number): HistoryRun[] {
  const runs: HistoryRun[] = [];
  for (let q = first, end = first + n; q < end;) {
    const next = Math.min(end, (quarterYear(q) + 1) * 4);
    runs.push({ first: q, quarters: next - q });
    q = next;
  }
  return runs;
}

const M = MarketSnapshot.properties;
const metricFields: Record<string, TSchema> = {};
for (const m of MARKET_HISTORY_METRIC_NAMES) {
  const bounds = m.startsWith("net_absorption") ? {} : m.endsWith("_rate") ? { minimum: 0, maximum: 1 } : { minimum: 0 };
  const options = { ...bounds, description: MARKET_HISTORY_METRICS[m] };
  const whole = INTEGER_METRICS.has(m) && m !== "sales_volume";
  metricFields[m] = Nullable(whole ? Type.Integer(options) : Type.Number(options));
}

/** One captured row of market history: a market (geography and asset type), a quarter, and any of the metrics. */
export const CapturedHistoryRow = Type.Object(
  {
    geography_type: M.geography_type,
    geography_id: Type.String({
      minLength: 1,
      description: "As the market snapshot names it: US, TX, 48453, metro-austin-tx, city-austin-tx, 78704.",
    }),
    asset_type: M.asset_type,
    period: Type.String({ pattern: "^[0-9]{4}-Q[1-4]$", description: 'The calendar quarter, e.g. "2024-Q3".' }),
    ...metricFields,
  },
  { $id: "CapturedHistoryRow", title: "Captured market history" },
);
