// The market history's tables. `market_history` is derived: two rows per market (by the markets
// table's rowid), which between them hold the market's figures for every calendar quarter of the
// span (quarters numbered year * 4 + quarter - 1, src/contract/periods.ts), each row's packed in
// one blob (history-codec.ts). The first row holds the closed years, the second the capture's
// year (historySplit says where one ends): from one month to the next only the quarter to date
// and, at a quarter's turn, the quarter before it change, so a new month rewrites a market's small
// current-year row and leaves the long closed row as it was until the year turns. A store that
// keeps each version of a row's content (src/snapshot/store) then adds little for a month. Figures are stored as integers in a fixed unit (cents of rent, rates in
// hundredths of a percent), and decoded back to the API's units exactly (k / 100 is the same
// double as the 2-decimal figure it was made from).
// `captured_market_history` holds what an import was given (`market_history.csv` / `.ndjson`),
// checked like every other captured row.
import { Type, type TSchema } from "@sinclair/typebox";
import { MARKET_HISTORY_METRICS, MARKET_HISTORY_METRIC_NAMES, type MarketHistoryMetric } from "../contract/history";
import { MarketSnapshot } from "../contract/records";
import { Nullable } from "../contract/schema-helpers";
import { quarterOf, quarterYear } from "../contract/periods";

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
 * Up to two rows per market (the markets table's rowid), each a run of `quarters` quarters from
 * `first_quarter` with every metric's figures for them in one blob (history-codec.ts says how
 * they are packed): the closed years (left out when the span starts in the capture's year), then
 * the capture's year. A market's rows are adjacent in the primary key, so reading its series is
 * one range of the index.
 */
export const MARKET_HISTORY_DDL = `CREATE TABLE market_history (
  market INTEGER NOT NULL,
  first_quarter INTEGER NOT NULL,
  quarters INTEGER NOT NULL,
  figures BLOB NOT NULL,
  PRIMARY KEY (market, first_quarter)
)`;

/**
 * Where a market's closed row ends and its current row begins: the first quarter (Q1) of the
 * capture date's year. The closed row holds the span's quarters before it, the current row this
 * quarter through the quarter holding the capture date. Every writer of `market_history` splits
 * here; readers need not know it, as each row says which quarters it holds.
 */
export function historySplit(capture: string): number {
  return quarterYear(quarterOf(capture)) * 4;
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
