// PROP.HISTORY(property_id, [options]): a property's own events (built, each sale, each lease's
// start and expiration), in the service's order, spilled like every list:
// a header row, then one row per event, every page fetched up to `limit`. The default columns
// are the ones a reader scans (date, what happened, who, for how much); `cols=` picks any
// field, ids included.
import { PROPERTY_ID_ARG } from "./function-args";
import { listFunction } from "./list-table";

/** What PROP.HISTORY shows unless `cols` says otherwise. */
export const HISTORY_COLUMNS = [
  "date",
  "event_type",
  "description",
  "owner_name",
  "counterparty_name",
  "price",
  "price_per_sqft",
  "cap_rate",
  "sale_type",
  "leased_area_sqft",
  "rent_sqft_year",
] as const;

/**
 * Rows fetched unless `limit` says otherwise: one page, the same one request (and credit) as
 * 25 rows, which holds the whole history of nearly every property.
 */
export const HISTORY_DEFAULT_ROWS = 100;

/** PROP.HISTORY: a property's events. */
export const HISTORY = listFunction({
  name: "HISTORY",
  operation: "getPropertyHistory",
  resource: "property_event",
  columns: HISTORY_COLUMNS,
  args: [PROPERTY_ID_ARG],
  empty: () => "No events",
  limit: HISTORY_DEFAULT_ROWS,
});
