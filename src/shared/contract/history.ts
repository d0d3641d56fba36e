// History (GET /v1/commercial/markets/history, GET /v1/commercial/properties/{id}/history):
// a market's quarterly series and a property's own events, as the service answers them and the
// add-in spills them (PROP.MARKETHISTORY, PROP.HISTORY). A market's latest period is the
// quarter (or year) holding the capture date, and its figures at that date are the market
// snapshot's: a series and a snapshot never disagree about today.
import { Type, type Static } from "@sinclair/typebox";
import { Id, IsoDate, Nullable, Ratio, StringEnum } from "./schema-helpers";
import { HISTORY_INTERVALS, PROPERTY_EVENT_TYPES } from "./history-terms";
import { MarketSnapshot } from "./records";
import { SnapshotRef } from "./snapshot-ref";

// The metrics, intervals and event types live in history-terms.ts and the two queries in
// queries.ts (with every endpoint's query, which the add-in reads); this module re-exports them,
// so it names everything about history.
export * from "./history-terms";
export { MarketHistoryQuery, PropertyHistoryQuery } from "./queries";

/** One period of a series: when it is, and the value of each metric asked (null where the snapshot has no figure). */
export const MarketHistoryPoint = Type.Object(
  {
    period: Type.String({ description: '"2026-Q3" for a quarter, "2026" for a year.', examples: ["2026-Q3"] }),
    period_start: IsoDate("First day of the period."),
    period_end: IsoDate("Last day of the period (calendar), or the capture date for the period holding it."),
    complete: Type.Boolean({ description: "False for the period holding the capture date: its figures are to that date." }),
    values: Type.Record(Type.String(), Nullable(Type.Number()), {
      description: "The value of each metric asked, by name; null where the snapshot holds no figure (a gap).",
    }),
  },
  { $id: "MarketHistoryPoint", title: "Market history period" },
);
export type MarketHistoryPoint = Static<typeof MarketHistoryPoint>;

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
    periods: Type.Array(MarketHistoryPoint, { description: "Oldest first." }),
    snapshot: SnapshotRef,
  },
  { $id: "MarketHistory", title: "Market history" },
);
export type MarketHistory = Static<typeof MarketHistory>;

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
