// "Did you mean ...?" for a place the snapshot does not hold: up to three places it does hold,
// by how close their names are ("Huston, TX" -> "Houston, TX"), whether one name starts the
// other ("New York, NY" -> "New York City, NY"), the same name as another kind ("Travis, TX" ->
// "Travis County, TX") or in another state ("Austin, CA" -> "Austin, TX"), a state's name
// ("Texsa" -> "Texas"), and then size.
// Only error answers run this, so it may look at every place of a kind.
import { placeKey, type Place, type PlaceKind } from "../../contract/places";
import type { PlaceEntry, PlaceIndex } from "./place-index";
import { editDistance } from "../../contract/near-names";

export const MAX_SUGGESTIONS = 3;
/** Below this similarity a name is not offered. */
const MIN_SCORE = 0.6;

export { editDistance };

/** 0..1: how alike two place keys are. */
export function nameSimilarity(query: string, candidate: string): number {
  if (query === candidate) return 1;
  // One name is the other plus whole words: "new york" and "new york city".
  if (candidate.startsWith(`${query} `)) return 0.92;
  if (query.startsWith(`${candidate} `)) return 0.85;
  const longest = Math.max(query.length, candidate.length);
  if (Math.abs(query.length - candidate.length) > longest / 2) return 0;
  return 1 - editDistance(query, candidate) / longest;
}

interface Scored {
  entry: PlaceEntry;
  score: number;
}

function nameOf(place: Place): { key: string; state: string | null } | null {
  switch (place.kind) {
    case "city":
      return { key: placeKey(place.name), state: place.state };
    case "county":
      return { key: placeKey(place.name), state: place.state };
    case "metro":
      if ("name" in place) return { key: placeKey(place.name), state: place.state };
      // "metro-austin-tx": the words of the id, and its state.
      {
        const m = /^metro-(.+)-([a-z]{2})$/.exec(place.id);
        return m ? { key: placeKey(m[1].replace(/-/g, " ")), state: m[2].toUpperCase() } : null;
      }
    default:
      return null;
  }
}

/** Places the snapshot holds that the person may have meant, as names they can type instead. */
export function suggestPlaces(index: PlaceIndex, place: Place, accepted: readonly PlaceKind[]): string[] {
  if (place.kind === "zip") return nearbyZips(index, place.zip);
  const wanted = nameOf(place);
  if (!wanted) return [];
  const scored: Scored[] = [];
  for (const kind of accepted) {
    if (kind === "zip") continue;
    // A name with no state may be a misspelt state ("Texsa" is Texas, not Tulsa).
    if (kind === "state" && wanted.state !== null) continue;
    for (const entry of index.all.get(kind) ?? []) {
      if (kind === "state") {
        const score = nameSimilarity(wanted.key, placeKey(entry.name));
        if (score >= MIN_SCORE) scored.push({ entry, score });
        continue;
      }
      const sameState = wanted.state === null || entry.state === wanted.state;
      let score = nameSimilarity(wanted.key, entry.key);
      // The same name in another state is a likely slip of the state, but less likely than a typo at home.
      if (!sameState) score = score === 1 ? 0.9 : 0;
      // Another kind of the same name ("Travis" the county for "Travis" the city) ranks below a
      // longer name of the kind asked for ("New York City, NY" before "New York County, NY").
      if (kind !== place.kind) score -= 0.1;
      if (score >= MIN_SCORE) scored.push({ entry, score });
    }
  }
  scored.sort((a, b) => b.score - a.score || b.entry.properties - a.entry.properties || b.entry.records - a.entry.records);
  const names: string[] = [];
  for (const s of scored) {
    if (!names.includes(s.entry.name)) names.push(s.entry.name);
    if (names.length === MAX_SUGGESTIONS) break;
  }
  return names;
}

/** The ZIP codes numerically nearest this one, within its three-digit area. */
function nearbyZips(index: PlaceIndex, zip: string): string[] {
  const area = zip.slice(0, 3);
  const n = Number(zip);
  return (index.all.get("zip") ?? [])
    .filter((e) => e.code.startsWith(area))
    .sort((a, b) => Math.abs(Number(a.code) - n) - Math.abs(Number(b.code) - n) || b.records - a.records)
    .slice(0, MAX_SUGGESTIONS)
    .map((e) => e.code);
}
