// Resolves a place written in the place grammar against the snapshot, before any credit is
// charged: a place the snapshot does not hold, one an endpoint cannot serve, or a bare city
// name where one place is needed, is a free 400 with up to three suggestions.
import { describeKinds, placeKey as keyOf, placeSpelling, placeText, type Place, type PlaceKind } from "../../contract/places";
import { stateName } from "../../contract/states";
import { ApiProblem } from "../http/problem";
import type { ProblemExtensions } from "../../contract/problem";
import type { PlaceEntry, PlaceIndex } from "./place-index";
import { suggestPlaces } from "./place-suggestions";

export interface ResolvedPlace {
  kind: PlaceKind;
  /** How answers name it ("Austin, TX"); several names joined for a bare city name in several states. */
  name: string;
  /** One place, or (a bare city name where several are allowed) every city of that name. */
  entries: PlaceEntry[];
}

export interface ResolveOptions {
  /** The kinds the endpoint serves. */
  accepted: readonly PlaceKind[];
  /** The query parameter the place came in, for the problem's pointer. */
  parameter: string;
  /** The text as given, for messages. */
  given: string;
  /** One place is needed (a market): a city name in several states is ambiguous. */
  single: boolean;
}

const KIND_NAMES: Record<PlaceKind, string> = { state: "a state", county: "a county", city: "a city", zip: "a ZIP code", metro: "a metro" };

function lookup(index: PlaceIndex, place: Place): PlaceEntry[] {
  const one = (e: PlaceEntry | undefined) => (e ? [e] : []);
  switch (place.kind) {
    case "state":
      return one(index.byCodeOf("state", place.state));
    case "zip":
      return one(index.byCodeOf("zip", place.zip));
    case "county":
      return index.named("county", keyOf(place.name), place.state);
    case "city":
      return index.named("city", keyOf(place.name), place.state);
    case "metro":
      return "id" in place ? one(index.byCodeOf("metro", place.id)) : index.named("metro", keyOf(place.name), place.state);
  }
}

/** The entries whose own name is spelt as the place's name is (placeSpelling). */
function spelledAs(entries: readonly PlaceEntry[], place: Place): PlaceEntry[] {
  if (!("name" in place)) return [];
  const spelling = placeSpelling(place.name);
  return entries.filter((e) => placeSpelling(e.local) === spelling);
}

function problem(
  code: "unknown_place" | "ambiguous_place" | "unsupported_place",
  detail: string,
  opts: ResolveOptions,
  extra: Pick<ProblemExtensions, "suggestions" | "accepted_kinds" | "match_count">,
): ApiProblem {
  return new ApiProblem(400, code, detail, [{ pointer: `/${opts.parameter}`, parameter: opts.parameter, detail }], {
    parameter: opts.parameter,
    place: opts.given,
    ...extra,
  });
}

function didYouMean(suggestions: string[]): string {
  if (suggestions.length === 0) return "";
  return ` Did you mean ${suggestions.length === 1 ? suggestions[0] : `${suggestions.slice(0, -1).join(", ")} or ${suggestions[suggestions.length - 1]}`}?`;
}

export function resolvePlace(index: PlaceIndex, place: Place, opts: ResolveOptions): ResolvedPlace {
  if (!opts.accepted.includes(place.kind)) {
    const suggestions = suggestPlaces(index, place, opts.accepted);
    throw problem(
      "unsupported_place",
      `${opts.parameter}: "${opts.given}" is ${KIND_NAMES[place.kind]}; this endpoint takes ${describeKinds(opts.accepted)}.${didYouMean(suggestions)}`,
      opts,
      { accepted_kinds: [...opts.accepted], suggestions },
    );
  }
  const entries = lookup(index, place);
  if (entries.length === 0) {
    const suggestions = suggestPlaces(index, place, opts.accepted);
    const what = place.kind === "state" ? `data in ${stateName(place.state)}` : `${place.kind === "zip" ? "ZIP code" : place.kind} "${placeText(place)}"`;
    throw problem("unknown_place", `${opts.parameter}: this snapshot holds no ${what}.${didYouMean(suggestions)}`, opts, { suggestions });
  }
  if (entries.length > 1 && opts.single) {
    // Places of one key in the state given ("Saint Charles, MD" and "St. Charles, MD") are told
    // apart by their spelling, so every place can be named on its own. A name without its state
    // is not: a spelling is no reason to choose one state over another.
    const inState = "state" in place && place.state !== null;
    const spelt = inState ? spelledAs(entries, place) : [];
    if (spelt.length === 1) return { kind: place.kind, name: spelt[0].name, entries: spelt };
    const names = entries.map((e) => e.name);
    const shown = names.slice(0, 3);
    // In its state, only places of one spelling are left: their county or ZIP code names them apart.
    const hint = inState ? "they share their name and state, so ask for the county or a ZIP code instead" : `add the state, such as "${shown[0]}"`;
    throw problem(
      "ambiguous_place",
      `${opts.parameter}: "${opts.given}" names ${entries.length} ${place.kind === "city" ? "cities" : "places"} (${names.slice(0, 5).join("; ")}${names.length > 5 ? "; ..." : ""}); ${hint}.`,
      opts,
      { suggestions: shown, match_count: entries.length },
    );
  }
  return { kind: place.kind, name: entries.map((e) => e.name).join("; "), entries };
}
