// The words of history, shared by the queries (queries.ts) and the answers (history.ts): the
// metrics a market series offers with their definitions and units, the intervals, how far back
// a series goes, and the kinds of event in a property's history.
/**
 * Every metric a market series offers, with what it measures. Stocks (rent, vacancy,
 * inventory) are as at the period's end; flows (sales, absorption, deliveries) are over the
 * period; medians are of the sales in the 24 months to the period's end, as in the market
 * snapshot.
 */
export const MARKET_HISTORY_METRICS = {
  asking_rent_sqft_year: "Area-weighted asking rent at the period's end, USD per sq ft per year.",
  asking_rent_unit_month: "Unit-weighted asking rent at the period's end, USD per unit per month.",
  vacancy_rate: "Vacancy at the period's end, 0..1 (area- or unit-weighted).",
  median_cap_rate: "Median cap rate of sales in the 24 months to the period's end.",
  sales_volume: "Sum of sale prices in the period, USD.",
  sales_count: "Sales recorded in the period.",
  median_price_per_sqft: "Median sale price per sq ft, sales in the 24 months to the period's end.",
  median_price_per_unit: "Median sale price per unit, sales in the 24 months to the period's end.",
  inventory_sqft: "Building area standing at the period's end, sq ft.",
  inventory_units: "Units standing at the period's end.",
  net_absorption_sqft: "Change in occupied area over the period, sq ft (negative when space emptied).",
  net_absorption_units: "Change in occupied units over the period.",
  deliveries_sqft: "Building area completed in the period, sq ft.",
  deliveries_units: "Units completed in the period.",
} as const;
export type MarketHistoryMetric = keyof typeof MARKET_HISTORY_METRICS;
export const MARKET_HISTORY_METRIC_NAMES = Object.keys(MARKET_HISTORY_METRICS) as MarketHistoryMetric[];

/** The metrics a market series answers when the request names none. */
export const DEFAULT_HISTORY_METRICS: readonly MarketHistoryMetric[] = ["asking_rent_sqft_year", "vacancy_rate", "median_cap_rate"];

export const HISTORY_INTERVALS = ["quarter", "year"] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];

/** Quarters a market series holds at least (and answers when `from` is not given): ten years. */
export const HISTORY_QUARTERS = 40;

/** The unit of each metric, as MarketHistory.units names it. */
export const MARKET_HISTORY_UNITS: Record<MarketHistoryMetric, string> = {
  asking_rent_sqft_year: "usd_per_sqft_year",
  asking_rent_unit_month: "usd_per_unit_month",
  vacancy_rate: "fraction",
  median_cap_rate: "fraction",
  sales_volume: "usd",
  sales_count: "count",
  median_price_per_sqft: "usd_per_sqft",
  median_price_per_unit: "usd_per_unit",
  inventory_sqft: "sqft",
  inventory_units: "units",
  net_absorption_sqft: "sqft",
  net_absorption_units: "units",
  deliveries_sqft: "sqft",
  deliveries_units: "units",
};

export const PROPERTY_EVENT_TYPES = ["built", "sale", "lease_start", "lease_expiration"] as const;
