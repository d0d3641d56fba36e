// GET /v1/commercial/properties/{property_id}/history: a property's events (completion, sales
// with the owner after each, lease starts and expirations), oldest first, as a paged list.
import { PROPERTY_EVENT_TYPES } from "../../contract/history";
import { notFound } from "../http/problem";
import { listEnvelope } from "../data/list-envelope";
import { propertyEvents } from "../data/property-events";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import { nameList } from "./query-params";

export const propertyHistoryRoute = defineRoute(OPERATIONS.getPropertyHistory, {
  handler: ({ snapshot, params, query }) => {
    const types = query.event_type === undefined ? null : new Set(nameList("event_type", query.event_type, PROPERTY_EVENT_TYPES));
    const events = propertyEvents(snapshot, params.property_id);
    if (events === undefined) throw notFound(`There is no commercial property '${params.property_id}' in this snapshot.`);
    const kept = events.filter(
      (e) =>
        (types === null || types.has(e.event_type)) &&
        (query.from === undefined || e.date >= query.from) &&
        (query.to === undefined || e.date <= query.to),
    );
    return listEnvelope(kept.slice(query.offset, query.offset + query.limit), query, kept.length, snapshot.ref);
  },
});
