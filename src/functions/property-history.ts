// PROP.HISTORY(property_id, [options]): a property's own events (built, each sale, each lease's
// start and expiration), in the service's order, spilled like every list:
// a header row, then one row per event, every page fetched up to `limit`. The default columns
// are the ones a reader scans (date, what happened, who, for how much); `cols=` picks any
// field, ids included.
import { ENDPOINTS, type ParamSpec } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { listTable } from "./list-table";
import { checkParam } from "./param-values";
import type { Cell } from "./table-shape";

const PROPERTY_ID: ParamSpec = { name: "property_id", kind: "property_id", help: "A property id, such as cp_0001a2b3." };

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

export function propertyIdArg(raw: unknown): string {
  return String(checkParam(PROPERTY_ID, raw, "property_id"));
}

export async function propertyHistory(propertyId: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const property_id = propertyIdArg(propertyId);
  return listTable(
    {
      spec: ENDPOINTS.getPropertyHistory,
      pathParams: { property_id },
      positional: {},
      options,
      resource: "property_event",
      empty: "No events",
      columns: HISTORY_COLUMNS,
      limit: HISTORY_DEFAULT_ROWS,
    },
    ctx,
  );
}
