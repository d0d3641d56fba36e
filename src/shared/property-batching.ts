// Point calls for commercial properties, batched: the ids asked for within one window go to the
// service as one compare request (a detail request for a lone id), and each record answered is
// cached as that property's detail answer would be.
import type { ApiClient, ApiRequest } from "./api-client";
import { ApiError } from "./api-error";
import type { BatchOutcome } from "./batcher";
import { CommercialProperty } from "../contract/records";
import type { PropertyComparison } from "../contract/responses";
import { ENDPOINTS, endpointPath } from "./endpoints";
import type { CacheEntry } from "./result-cache";
import { cacheKey, pinQuery, type SnapshotPin } from "./request-keys";
import type { CachedRequests } from "./cached-requests";

/** Every field of a property, so one batched answer serves any field any cell asks for. */
export const ALL_PROPERTY_FIELDS = Object.keys(CommercialProperty.properties).filter((f) => f !== "id");

/** Most ids one compare request takes (the endpoint's limit). */
export const COMPARE_BATCH = 25;

/** The detail request for one property: the cache key its record is held under. */
export function detailRequest(id: string, pin?: SnapshotPin): ApiRequest {
  return { method: "GET", path: endpointPath(ENDPOINTS.getProperty, { property_id: id }), query: pinQuery(pin) };
}

/** The batcher's fetch: one compare call for 2..25 ids (detail for a lone id). */
export async function fetchProperties(
  requests: CachedRequests,
  ids: string[],
  pin: SnapshotPin | undefined,
): Promise<Map<string, BatchOutcome>> {
  const client = await requests.client();
  const { cache, snapshots } = requests;
  const outcomes = new Map<string, BatchOutcome>();
  let remaining = ids;
  // Unknown ids fail a compare call as a whole (404 naming them): remember them as not
  // found and ask again for the rest, once.
  for (let round = 0; round < 2 && remaining.length > 0; round++) {
    if (remaining.length === 1) {
      await fetchOne(requests, client, remaining[0], pin, outcomes);
      return outcomes;
    }
    try {
      // The ETags of the copies held (stale ones, after a new snapshot): a property still as
      // held comes back as its id only (`not_modified`), and when none changed the comparison
      // costs nothing.
      const copies = new Map<string, CacheEntry>();
      const held: Record<string, string> = {};
      for (const id of remaining) {
        const entry = requests.heldCopy(cacheKey(client, detailRequest(id, pin)));
        if (entry?.etag && entry.value !== undefined) {
          copies.set(id, entry);
          held[id] = entry.etag;
        }
      }
      const response = await client.send<PropertyComparison>({
        method: "POST",
        path: ENDPOINTS.compareProperties.path,
        query: pinQuery(pin),
        body: {
          property_ids: remaining,
          fields: ALL_PROPERTY_FIELDS,
          ...(Object.keys(held).length > 0 ? { if_none_match: held } : {}),
        },
      });
      snapshots.note(response.body);
      const snapshotId = response.body?.snapshot?.id ?? snapshots.current;
      if (!pin) snapshots.current = snapshotId;
      const etags = response.body?.etags ?? {};
      const unchanged = new Set(response.body?.not_modified ?? []);
      for (const record of response.body?.properties ?? []) {
        const id = String(record.id);
        const key = cacheKey(client, detailRequest(id, pin));
        const copy = copies.get(id);
        if (unchanged.has(id) && copy) {
          // Confirmed unchanged, as a 304 confirms: the copy held stays, stamped with this snapshot.
          outcomes.set(id, { record: requests.confirm(key, copy, snapshotId) as Record<string, unknown> });
        } else if (!unchanged.has(id)) {
          cache.set(key, { value: record, etag: etags[id] ?? null, snapshotId });
          outcomes.set(id, { record });
        }
      }
      return outcomes;
    } catch (err) {
      const unknown = err instanceof ApiError && err.status === 404 ? unknownIds(err, remaining) : [];
      if (unknown.length === 0) throw err;
      for (const id of unknown) {
        const error = new ApiError(
          404,
          "not_found",
          `There is no commercial property '${id}' in this snapshot.`,
          (err as ApiError).requestId,
        );
        cache.set(cacheKey(client, detailRequest(id, pin)), {
          error: { status: 404, code: "not_found", message: error.message, requestId: error.requestId },
          snapshotId: snapshots.current,
        });
        outcomes.set(id, { error });
      }
      remaining = remaining.filter((id) => !unknown.includes(id));
    }
  }
  return outcomes;
}

async function fetchOne(
  requests: CachedRequests,
  client: ApiClient,
  id: string,
  pin: SnapshotPin | undefined,
  outcomes: Map<string, BatchOutcome>,
): Promise<void> {
  const request = detailRequest(id, pin);
  const key = cacheKey(client, request);
  try {
    // With the copy held, if any: unchanged, it is a free 304.
    outcomes.set(id, { record: await requests.fetch<Record<string, unknown>>(key, client, request, requests.heldCopy(key)) });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    outcomes.set(id, { error: err });
  }
}

/** The ids a compare 404 names: `unknown_ids`, else the `/property_ids/<i>` pointers. */
function unknownIds(err: ApiError, asked: string[]): string[] {
  const named = err.extensions.unknown_ids;
  if (Array.isArray(named)) return asked.filter((id) => named.includes(id));
  const indexes = err.errors.map((e) => /^\/property_ids\/(\d+)$/.exec(e.pointer)?.[1]).filter((i): i is string => i !== undefined);
  return indexes.map((i) => asked[Number(i)]).filter((id): id is string => id !== undefined);
}
