// Addresses matched in batches: the rows every =PROP.MATCH cell asks for within one window go to
// the service as one match request (up to 1,000 rows), and each row's result is cached as the
// single form's answer to that address would be (GET .../properties/match?address=...), so a
// recalculation, or another cell with the same address, asks nothing again.
import type { ApiRequest } from "./api-client";
import { ApiError } from "./api-error";
import { type BatchOutcome, withinCreditsLeft } from "./batcher";
import type { PropertyMatch, PropertyMatches } from "../contract/property-match";
import { ENDPOINTS } from "./endpoints";
import { cacheKey, pinQuery, type SnapshotPin } from "./request-keys";
import { cachedError, type CachedRequests } from "./cached-requests";

/**
 * One address or parcel number as the match is asked for: the single form's inputs, each left
 * out when blank (an address, or a parcel number with its county or state).
 */
export interface MatchAsk {
  address?: string;
  city?: string;
  state?: string;
  zip?: string;
  apn?: string;
  county?: string;
}

/** The batcher's key of a row: its inputs and the pin (one key per distinct row and snapshot). */
export const matchKey = (ask: MatchAsk, pin?: SnapshotPin) =>
  JSON.stringify([ask.address ?? "", ask.city ?? "", ask.state ?? "", ask.zip ?? "", ask.apn ?? "", ask.county ?? "", pin ?? null]);

/** A row as the analyst wrote it, for messages: "623 Washington Blvd, Austin" or "APN 123-456-78, Travis County, TX". */
export function askText(ask: MatchAsk): string {
  const parcel = ask.apn ? [`APN ${ask.apn}`, ask.county] : [];
  return [ask.address, ...parcel, ask.city, ask.state, ask.zip].filter(Boolean).join(", ");
}

/** The single form's request for one address or parcel number: the cache key its result is held under. */
export function matchRequest(ask: MatchAsk, pin?: SnapshotPin): ApiRequest {
  return { method: "GET", path: ENDPOINTS.matchProperty.path, query: { ...ask, ...pinQuery(pin) } };
}

/**
 * The match batcher's fetch: one match request for up to 1,000 addresses, named by their
 * batcher keys (`asks` holds each key's address). The service prices the request before it
 * answers (a credit per row that names a property; unmatched and refused rows are free): when
 * the credits left cannot pay, its 402 says how many rows from the first they cover
 * (`rows_covered`), those rows are asked again and the rest get the 402. A row the service refuses is cached as the single form's 400;
 * a matched, ambiguous or unmatched row as its 200, with its validator. A row held from an older
 * snapshot is sent with that validator: while its answer is the same, it costs nothing.
 */
export async function fetchMatches(
  requests: CachedRequests,
  keys: string[],
  asks: Map<string, MatchAsk>,
  pin: SnapshotPin | undefined,
): Promise<Map<string, BatchOutcome>> {
  const client = await requests.client();
  const { cache, snapshots } = requests;
  return withinCreditsLeft(keys, async (asked) => {
    const outcomes = new Map<string, BatchOutcome>();
    const rows = asked.map((k) => asks.get(k)!);
    const keys = rows.map((ask) => cacheKey(client, matchRequest(ask, pin)));
    const held = keys.map((key) => requests.heldCopy(key));
    const response = await client.send<PropertyMatches>({
      method: "POST",
      path: ENDPOINTS.matchProperties.path,
      query: pinQuery(pin),
      // Each row's ref is its place in the batch; the answer keeps the order sent.
      body: {
        addresses: rows.map((ask, i) => {
          const etag = held[i]?.value !== undefined ? held[i]?.etag : null;
          return etag ? { ref: String(i), ...ask, if_none_match: etag } : { ref: String(i), ...ask };
        }),
      },
    });
    const body = response.body!;
    snapshots.note(body);
    const snapshotId = body.snapshot?.id ?? snapshots.current;
    if (!pin) snapshots.current = snapshotId;
    body.data.forEach(({ ref, etag, unchanged, ...result }, i) => {
      if (ref !== String(i) || i >= rows.length) return;
      const key = keys[i];
      // Unchanged: the answer held is the current one, restamped with the snapshot that said so.
      if (unchanged) {
        const copy = held[i];
        if (copy?.value !== undefined) {
          outcomes.set(asked[i], { record: requests.confirm(key, copy, snapshotId) as Record<string, unknown> });
        } else {
          outcomes.set(asked[i], {
            error: new ApiError(
              0,
              "invalid_response",
              "The service confirmed an answer no longer held: recalculate to ask again.",
              response.requestId,
            ),
          });
        }
        return;
      }
      if (result.status === "refused") {
        const error = new ApiError(400, "validation_failed", result.detail ?? "The address cannot be read.", response.requestId);
        cache.set(key, { error: cachedError(error), snapshotId });
        outcomes.set(asked[i], { error });
        return;
      }
      const answer: PropertyMatch = { object: "property_match", ...result, snapshot: body.snapshot };
      cache.set(key, { value: answer, etag, snapshotId });
      outcomes.set(asked[i], { record: answer as unknown as Record<string, unknown> });
    });
    return outcomes;
  });
}
