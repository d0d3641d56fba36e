// "Did you mean ...?" for a place the snapshot does not hold: up to three places it does hold,
// by how close their names are ("Huston, TX" -> "Houston, TX"), whether one name starts the
// other ("New York, NY" -> "New York City, NY"), the same name as another kind ("Travis, TX" ->
// "Travis County, TX") or in another state ("Austin, CA" -> "Austin, TX"), a state's name
// ("Texsa" -> "Texas"), and then size.
// Refusals are free, so this scores only the candidates the name index finds (place-name-index.ts),
// rules most of them out by their keys' lengths and letters alone, and counts a candidate's edits
// only as far as the least likeness offered allows.
import { placeKey, type Place, type PlaceKind } from "../../contract/places";
import type { PlaceEntry, PlaceIndex } from "./place-index";
import { editDistance } from "../../contract/near-names";
import { distanceWithin, leastEdits, letterBits, SPACE_BIT } from "./place-name-distance";
import { lowerBound } from "./place-name-index";

export const MAX_SUGGESTIONS = 3;
/** Below this similarity a name is not offered. */
const MIN_SCORE = 0.6;
/** What a place of another kind than the one asked for loses from its likeness. */
const OTHER_KIND_PENALTY = 0.1;

export { editDistance };

/**
 * 0..1: how alike two place keys are. A likeness below `floor` (what is offered at least) may be
 * given as 0: the edits are then counted only as far as they must be.
 */
export function nameSimilarity(query: string, candidate: string, floor = 0): number {
  if (query === candidate) return 1;
  // One name is the other plus whole words: "new york" and "new york city".
  if (extends_(candidate, query)) return 0.92;
  if (extends_(query, candidate)) return 0.85;
  const longest = Math.max(query.length, candidate.length);
  if (Math.abs(query.length - candidate.length) > longest / 2) return 0;
  // The most edits that still reach `floor`, by the same sum as the likeness itself: found from
  // an estimate, then checked by that sum both ways (it only falls as the edits grow).
  const below = (edits: number) => 1 - edits / longest < floor;
  let max = Math.min(longest, Math.max(0, Math.floor((1 - floor) * longest)));
  while (max < longest && !below(max + 1)) max++;
  while (max > 0 && below(max)) max--;
  const edits = distanceWithin(query, candidate, max);
  return edits > max ? 0 : 1 - edits / longest;
}

/**
 * The most nameSimilarity() can give for two keys of these lengths and letterBits(), without
 * reading them: 1 when they may be equal or one may extend the other by whole words, else what
 * the fewest edits they could be apart leave.
 */
export function likenessAtMost(length: number, bits: number, otherLength: number, otherBits: number): number {
  if (length === otherLength && bits === otherBits) return 1;
  if (length > otherLength && (bits & SPACE_BIT) !== 0 && (otherBits & ~bits) === 0) return 1;
  if (otherLength > length && (otherBits & SPACE_BIT) !== 0 && (bits & ~otherBits) === 0) return 1;
  const longest = Math.max(length, otherLength);
  if (Math.abs(length - otherLength) > longest / 2) return 0;
  return 1 - leastEdits(length, bits, otherLength, otherBits) / longest;
}

/** Whether `longer` is `shorter` and more words ("new york city" and "new york"). */
function extends_(longer: string, shorter: string): boolean {
  return longer.length > shorter.length && longer.charCodeAt(shorter.length) === 32 && longer.startsWith(shorter);
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

/**
 * The least score a place must have to be offered, as places are scored: MIN_SCORE, and once
 * MAX_SUGGESTIONS names have scored above it, the least of their best scores. A place scoring
 * below that ranks after all of them, so it would not be offered: its edits need not be counted
 * that far, and it need not be kept.
 */
class Offered {
  private readonly best = new Map<string, number>();
  least = MIN_SCORE;

  add(name: string, score: number): void {
    const { best } = this;
    if ((best.get(name) ?? -Infinity) >= score) return;
    best.set(name, score);
    if (best.size > MAX_SUGGESTIONS) {
      let lowest: string | undefined;
      for (const [n, s] of best) if (lowest === undefined || s < best.get(lowest)!) lowest = n;
      best.delete(lowest!);
    }
    if (best.size === MAX_SUGGESTIONS) this.least = Math.max(MIN_SCORE, Math.min(...best.values()));
  }
}

/** Places the snapshot holds that the person may have meant, as names they can type instead. */
export function suggestPlaces(index: PlaceIndex, place: Place, accepted: readonly PlaceKind[]): string[] {
  if (place.kind === "zip") return nearbyZips(index, place.zip);
  const wanted = nameOf(place);
  if (!wanted) return [];
  const scored: Scored[] = [];
  const offered = new Offered();
  const keep = (entry: PlaceEntry, score: number) => {
    if (score < offered.least) return;
    scored.push({ entry, score });
    offered.add(entry.name, score);
  };
  const keyBits = letterBits(wanted.key);
  // A name with no state may be a misspelt state ("Texsa" is Texas, not Tulsa): the 51 are scored outright.
  if (accepted.includes("state") && wanted.state === null) {
    const states = index.stateNames;
    for (let i = 0; i < states.entries.length; i++) {
      if (likenessAtMost(wanted.key.length, keyBits, states.lengths[i], states.bits[i]) < offered.least) continue;
      keep(states.entries[i], nameSimilarity(wanted.key, states.entries[i].key, offered.least));
    }
  }
  const kinds = accepted.filter((kind) => kind !== "zip" && kind !== "state");
  if (kinds.length > 0) {
    const { key, state } = wanted;
    const kind = place.kind;
    // The candidates by their numbers in the name index, whose arrays say each one's key, state
    // and kind: an entry itself is read only when it is kept.
    const names = index.names;
    const slot = names.slot(state);
    for (const n of names.candidates(key, state, kinds)) {
      // Another kind of the same name ("Travis" the county for "Travis" the city) ranks below a
      // longer name of the kind asked for ("New York City, NY" before "New York County, NY"), so
      // its likeness must reach that much more to be offered (less a hair, for rounding).
      const penalty = names.isKind(n, kind) ? 0 : OTHER_KIND_PENALTY;
      const floor = penalty ? offered.least + penalty - 1e-9 : offered.least;
      const length = names.keyLengths[n];
      // The same name in another state is a likely slip of the state, but less likely than a typo
      // at home; another name in another state is not offered.
      let likeness: number;
      if (slot !== 0 && !names.inSlot(n, slot)) likeness = length === key.length && names.keys[n] === key ? 0.9 : 0;
      // A name that cannot reach what is offered is ruled out before its key is read.
      else if (likenessAtMost(key.length, keyBits, length, names.keyBits[n]) < floor) continue;
      else likeness = nameSimilarity(key, names.keys[n], floor);
      if (likeness - penalty >= offered.least) keep(names.entries[n], likeness - penalty);
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

/** The ZIP codes numerically nearest this one, within its three-digit area: a walk outwards from where it would sit. */
function nearbyZips(index: PlaceIndex, zip: string): string[] {
  const codes = index.zipCodes;
  const area = zip.slice(0, 3);
  const n = Number(zip);
  const inArea = (i: number) => i >= 0 && i < codes.length && codes[i].startsWith(area);
  const records = (i: number) => index.byCodeOf("zip", codes[i])?.records ?? 0;
  const found: string[] = [];
  let above = lowerBound(codes, zip);
  let below = above - 1;
  while (found.length < MAX_SUGGESTIONS && (inArea(below) || inArea(above))) {
    const down = inArea(below) ? n - Number(codes[below]) : Infinity;
    const up = inArea(above) ? Number(codes[above]) - n : Infinity;
    const takeBelow = down < up || (down === up && records(below) >= records(above));
    found.push(takeBelow ? codes[below--] : codes[above++]);
  }
  return found;
}
