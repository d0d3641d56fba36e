// The query parameters that name a place, resolved against the snapshot before a credit is
// charged. `geography` takes every form of the place grammar; the older single-purpose
// parameters (`state_code`, `city`, `zip`, `metro_id`, `county_fips`) keep working and are
// checked the same way. A place given twice over, or two places that cannot overlap, is
// refused rather than answered with nothing.
import { PlaceSyntaxError, parsePlace, type Place, type PlaceKind } from "../../contract/places";
import { PLACE_KINDS_OF, PLACE_PARAMS, type PlacedOperation } from "../../contract/queries";
import { stateCodeOf } from "../../contract/states";
import { ApiProblem, withoutStacks } from "../http/problem";
import type { SnapshotContext } from "../data/snapshot-context";
import { resolvePlace, type ResolvedPlace } from "../data/place-resolver";

export interface PlaceQuery {
  geography?: string;
  state_code?: string;
  state?: string;
  city?: string;
  zip?: string;
  metro_id?: string;
  county_fips?: string;
}

export interface PlaceParamOptions {
  /** One place is needed (a market): a city name found in several states is ambiguous. */
  single?: boolean;
  /** What the endpoint calls its state parameter (listings: `state`). */
  stateParam?: "state_code" | "state";
}

function invalid(parameter: string, detail: string, others: string[] = []): ApiProblem {
  const errors = [parameter, ...others].map((p) => ({ pointer: `/${p}`, parameter: p, detail }));
  return new ApiProblem(400, "validation_failed", detail, errors);
}

function parse(text: string, parameter: string): Place {
  try {
    // A text that is no place becomes a free 400, whose stack no one reads.
    return withoutStacks(() => parsePlace(text));
  } catch (err) {
    if (err instanceof PlaceSyntaxError) throw invalid(parameter, `${parameter}: ${err.message}`);
    throw err;
  }
}

/** The state a resolved place lies in, when it lies in one (a metro may cross state lines). */
function stateOf(place: ResolvedPlace): string | null {
  if (place.kind === "metro") return null;
  const states = new Set(place.entries.map((e) => e.state));
  return states.size === 1 ? [...states][0] : null;
}

/** The places a request names, resolved; every condition they give must hold at once. */
export function queryPlaces(
  snapshot: SnapshotContext,
  operation: PlacedOperation,
  query: PlaceQuery,
  opts: PlaceParamOptions = {},
): ResolvedPlace[] {
  const index = snapshot.places;
  const kinds: readonly PlaceKind[] = PLACE_KINDS_OF[operation];
  // `state_code` everywhere; listings also take their older name, `state` (one of the two).
  if (query.state !== undefined && query.state_code !== undefined) {
    throw invalid("state", "state is the older name of state_code: give one of the two.", ["state_code"]);
  }
  const stateParam = query.state !== undefined ? "state" : (opts.stateParam ?? "state_code");
  const specific = PLACE_PARAMS.filter((p) => p !== "geography" && query[p] !== undefined);
  const resolve = (place: Place, parameter: string, given: string, accepted: readonly PlaceKind[] = kinds, single = false) =>
    resolvePlace(index, place, { accepted, parameter, given, single });

  if (query.geography !== undefined) {
    if (specific.length > 0) {
      throw invalid(
        "geography",
        `geography and ${specific.join(", ")} both name a place: give it once (geography takes every form, such as "Austin, TX").`,
        specific,
      );
    }
    return [resolve(parse(query.geography, "geography"), "geography", query.geography, kinds, opts.single ?? false)];
  }

  const places: ResolvedPlace[] = [];
  const stateText = query[stateParam];
  const state = stateText === undefined ? null : stateCodeOf(stateText);
  if (stateText !== undefined && state === null)
    throw invalid(stateParam, `${stateParam}: "${stateText}" is not a US state code; use one such as TX.`);
  let cityHasState = false;
  if (query.city !== undefined) {
    const city = parse(query.city, "city");
    if (city.kind !== "city") {
      throw invalid(
        "city",
        `city: "${query.city}" is not a city name; give one such as "Austin" or "Austin, TX" (geography takes other kinds of place).`,
      );
    }
    if (city.state && state && city.state !== state) {
      throw invalid("city", `city "${query.city}" is in ${city.state} but ${stateParam} is ${state}: nothing can match both.`, [
        stateParam,
      ]);
    }
    const placed: Place = { kind: "city", name: city.name, state: city.state ?? state };
    cityHasState = placed.state !== null;
    places.push(resolve(placed, "city", query.city, ["city"]));
  }
  if (state !== null && !cityHasState) places.push(resolve({ kind: "state", state }, stateParam, stateText!, ["state"]));
  if (query.zip !== undefined) places.push(resolve({ kind: "zip", zip: query.zip }, "zip", query.zip, ["zip"]));
  if (query.metro_id !== undefined)
    places.push(resolve({ kind: "metro", id: query.metro_id.toLowerCase() }, "metro_id", query.metro_id, ["metro"]));
  if (query.county_fips !== undefined) {
    const county = index.byCodeOf("county", query.county_fips);
    if (!county) {
      throw new ApiProblem(
        400,
        "unknown_place",
        `county_fips: this snapshot holds no county ${query.county_fips}.`,
        [{ pointer: "/county_fips", parameter: "county_fips", detail: `no county ${query.county_fips}` }],
        { parameter: "county_fips", place: query.county_fips, suggestions: [] },
      );
    }
    places.push({ kind: "county", name: county.name, entries: [county] });
  }
  // Places in different states cannot both hold a record: say so instead of answering nothing.
  const located = places.map((p) => ({ p, state: stateOf(p) })).filter((x) => x.state !== null);
  const clash = located.find((x) => x.state !== located[0].state);
  if (clash) {
    throw invalid(
      specific[0],
      `${located[0].p.name} and ${clash.p.name} are in different states: nothing can match both.`,
      specific.slice(1),
    );
  }
  return places;
}
