// History (GET /v1/commercial/markets/history, GET /v1/commercial/properties/{id}/history):
// a market's quarterly series and a property's own events, as the service answers them and the
// add-in spills them (PROP.MARKETHISTORY, PROP.HISTORY). A market's latest period is the
// quarter (or year) holding the capture date, and its figures at that date are the market
// snapshot's: a series and a snapshot never disagree about today.
import { Type, type Static } from "@sinclair/typebox";
import { Id, IsoDate, Nullable, Ratio, Ref, StringEnum, WithDefault } from "./schema-helpers";
import { MARKET_INPUTS, QueryObject, q } from "./queries";
import { THIN_MARKET_PROPERTIES } from "./market-sample";
import { historySpan } from "./periods";
import { MarketSnapshot } from "./records";
import { SnapshotRef } from "./snapshot-ref";
import { Input } from "./input-kinds";

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
  property_count: "Properties standing at the period's end: how many stand behind its rents, vacancy and inventory.",
} as const;
export type MarketHistoryMetric = keyof typeof MARKET_HISTORY_METRICS;
export const MARKET_HISTORY_METRIC_NAMES = Object.keys(MARKET_HISTORY_METRICS) as MarketHistoryMetric[];

/** The metrics a market series answers when the request names none. */
export const DEFAULT_HISTORY_METRICS: readonly MarketHistoryMetric[] = ["asking_rent_sqft_year", "vacancy_rate", "median_cap_rate"];

export const HISTORY_INTERVALS = ["quarter", "year"] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];

/** Quarters a market series holds at least: twenty years. */
export const HISTORY_QUARTERS = 80;

/**
 * The year a market series reaches back to at least, whatever the capture date: every series
 * holds the 2008-2010 downturn whole, with the years before it.
 */
export const HISTORY_SINCE_YEAR = 2006;

/** The quarters a snapshot captured on `captureDate` (YYYY-MM-DD) holds. */
export function heldSpan(captureDate: string): { first: number; last: number } {
  return historySpan(captureDate, HISTORY_QUARTERS, HISTORY_SINCE_YEAR);
}

/** Quarters a market series answers when `from` is not given: the last ten years. */
export const DEFAULT_WINDOW_QUARTERS = 40;

/** The query of GET /v1/commercial/markets/history. */
export const MarketHistoryQuery = QueryObject(
  {
    ...MARKET_INPUTS,
    metrics: Input(
      "name_list",
      Type.String({
        minLength: 1,
        maxLength: 400,
        pattern: "^[a-z0-9_]+(,[a-z0-9_]+)*$",
        description:
          `Comma-separated metrics, in the order the columns should come: ${MARKET_HISTORY_METRIC_NAMES.join(", ")}. ` +
          `Default: ${DEFAULT_HISTORY_METRICS.join(",")}. An unknown metric is refused free (400 validation_failed).`,
      }),
      { "x-values": MARKET_HISTORY_METRIC_NAMES },
    ),
    from: q.date(
      `First date of the series: periods ending on or after it. Default: the last ${DEFAULT_WINDOW_QUARTERS} quarters up to \`to\`.`,
      "start",
    ),
    to: q.date("Last date of the series: periods starting on or before it. Default: the capture date.", "end"),
    interval: WithDefault(
      StringEnum(HISTORY_INTERVALS, {
        description: "quarter (default) or year: a year's stocks are its last quarter's, its flows the sum of its quarters.",
      }),
      "quarter",
    ),
  },
  ["geography", "asset_type"],
);

/** One period of a series: when it is, and the value of each metric asked (null where the snapshot has no figure). */
export const MarketHistoryPoint = Type.Object(
  {
    period: Type.String({ description: '"2026-Q3" for a quarter, "2026" for a year.', examples: ["2026-Q3"] }),
    period_start: IsoDate("First day of the period."),
    period_end: IsoDate("Last day of the period (calendar), or the capture date for the period holding it."),
    complete: Type.Boolean({
      description:
        "False for the period holding the capture date (a partial period): its flows are to that date (period_end), so it is " +
        "no match for a whole period in a change over periods.",
    }),
    property_count: Type.Integer({
      minimum: 0,
      description: "Properties standing at the period's end: how many stand behind its figures.",
    }),
    thin: Type.Boolean({
      description: `True when fewer than ${THIN_MARKET_PROPERTIES} properties stand behind the period's figures.`,
    }),
    values: Type.Record(Type.String(), Nullable(Type.Number()), {
      description: "The value of each metric asked, by name; null where the snapshot holds no figure (a gap).",
    }),
  },
  { $id: "MarketHistoryPoint", title: "Market history period" },
);
export type MarketHistoryPoint = Static<typeof MarketHistoryPoint>;

/** What the series holds against what was asked: a `from` before the history begins is answered from its first period. */
export const HistoryCoverageOfAnswer = Type.Object(
  {
    requested_from: Nullable(IsoDate("The `from` asked, or null when none was.")),
    first_held: IsoDate("First day of the first period the history holds."),
    from_before_history: Type.Boolean({
      description: "True when `from` is before first_held: the series starts at first_held, not at the date asked.",
    }),
  },
  { description: "The history's first held date, against the `from` asked." },
);

const M = MarketSnapshot.properties;
export const MarketHistory = Type.Object(
  {
    object: Type.Literal("market_history"),
    market_id: M.id,
    geography_type: M.geography_type,
    geography_id: M.geography_id,
    geography_name: M.geography_name,
    state_code: M.state_code,
    asset_type: M.asset_type,
    interval: StringEnum(HISTORY_INTERVALS),
    metrics: Type.Array(Type.String(), { description: "The metrics answered, in the order asked." }),
    units: Type.Record(Type.String(), Type.String(), {
      description:
        'The unit of each metric answered: "usd", "usd_per_sqft_year", "usd_per_unit_month", "usd_per_sqft", "usd_per_unit", "fraction", "count", "sqft", "units".',
    }),
    periods: Type.Array(Ref(MarketHistoryPoint), { description: "Oldest first." }),
    coverage: HistoryCoverageOfAnswer,
    snapshot: SnapshotRef,
  },
  { $id: "MarketHistory", title: "Market history" },
);
export type MarketHistory = Static<typeof MarketHistory>;

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
  property_count: "count",
};

export const PROPERTY_EVENT_TYPES = ["built", "sale", "lease_start", "lease_expiration"] as const;

/** One event in a property's history: its construction, a sale, a lease beginning or ending. */
export const PropertyEvent = Type.Object(
  {
    id: Type.String({ description: "`<event_type>_<record id>`: stable across snapshots." }),
    object: Type.Literal("property_event"),
    property_id: Id("cp", "The property."),
    date: IsoDate("When it happened (a lease's expiration may be in the future)."),
    event_type: StringEnum(PROPERTY_EVENT_TYPES, { description: "built, sale, lease_start or lease_expiration." }),
    record_id: Nullable(Type.String({ description: "The sale or tenancy the event comes from (null for built)." })),
    owner_id: Nullable(Type.String({ description: "The owner after the event, when the snapshot records it." })),
    owner_name: Nullable(Type.String()),
    counterparty_id: Nullable(Type.String({ description: "The seller of a sale, the tenant of a lease." })),
    counterparty_name: Nullable(Type.String()),
    price: Nullable(Type.Number({ minimum: 0, description: "Sale price, USD." })),
    price_per_sqft: Nullable(Type.Number({ minimum: 0 })),
    cap_rate: Nullable(Ratio("Cap rate at sale.")),
    sale_type: Nullable(Type.String()),
    leased_area_sqft: Nullable(Type.Number({ minimum: 0 })),
    rent_sqft_year: Nullable(Type.Number({ minimum: 0, description: "Contract rent, USD per sq ft per year." })),
    description: Type.String({ description: 'One line, e.g. "Sold by Acme to Beta for $12,400,000".' }),
  },
  { $id: "PropertyEvent", title: "Property event" },
);
export type PropertyEvent = Static<typeof PropertyEvent>;

/** The query of GET /v1/commercial/properties/{property_id}/history (paging aside). */
export const PropertyHistoryQuery = QueryObject({
  event_type: Input(
    "name_list",
    Type.String({
      pattern: "^[a-z_]+(,[a-z_]+)*$",
      description: `Comma-separated event types to include (${PROPERTY_EVENT_TYPES.join(", ")}); default all.`,
    }),
    { "x-values": PROPERTY_EVENT_TYPES },
  ),
  from: q.date("Earliest event date.", "start"),
  to: q.date("Latest event date.", "end"),
});
