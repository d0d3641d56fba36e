// Matching rows of addresses and parcel numbers to the properties of the snapshot that answers.
// The match index (snapshot/match-keys.ts) finds each row's candidates by house number and ZIP
// code, city or street name, or by parcel number; each candidate's row is then read from the
// snapshot and its address compared with the row's words, which tell its street, unit, city,
// state and ZIP code apart only against an address known. A row matches when exactly one
// candidate is surely it: the same house number, the same street (or one spelt a letter or two
// off, when what the row typed is no street's name), in the ZIP code or city the row gives, with
// nothing in the row that says otherwise (a ZIP code of another city); anything less is
// ambiguous (its candidates listed, and why) or unmatched, never a guess.
import { editDistance } from "../../contract/near-names";
import { compactKey } from "../../contract/place-aliases";
import type { MatchCandidate, MatchFields, MatchKind } from "../../contract/property-match";
import {
  apnKey,
  cityWord,
  directionOf,
  isBareUnitWord,
  isUnitWord,
  isZip,
  nameWord,
  isCountryWord,
  stateEndingAt,
  suffixOf,
} from "../../contract/street-address";
import { hasMatchKeys } from "../../snapshot/match-keys";
import { ApiProblem } from "../http/problem";
import { type Candidate, Found } from "./match-candidates";
import { type Doubt, doubtDetail, equalDetail, titleCase, unmatchedDetail } from "./match-details";
import { type AddressQuery, type ParcelQuery, RowRefusal, parcelKeyOf, readRow } from "./match-input";
import { type RowMatch, ambiguous, candidateOf, matched, refused, unmatched } from "./match-results";
import type { SnapshotContext } from "./snapshot-context";
import { streetNames } from "./street-names";

/** How one candidate compares with a row. */
interface Judgement {
  candidate: Candidate;
  /** 3: the street as the snapshot has it; 2: with its suffix or a directional left out or added; 1: its name spelt a letter or two off. */
  tier: number;
  /** In the ZIP code or city the row gives, with nothing in the row that says otherwise. */
  sure: boolean;
  score: number;
  kind: MatchKind;
  /** Why it is not sure; null when it is. */
  doubt: Doubt | null;
  /** The row's city is the candidate's misspelt (sure only beside its ZIP code). */
  cityMisspelt: boolean;
  /** The row's street as typed (without its number), for the detail. */
  typedStreet: string;
}

// The route builds rows of its own (an if_none_match of "*" refused, an unchanged row) as the matcher does.
export { refused, type RowMatch };

const indexed = new WeakMap<SnapshotContext, boolean>();

/** Matches rows; a row that cannot be read is refused on its own. */
export function matchRows(snapshot: SnapshotContext, rows: readonly MatchFields[]): RowMatch[] {
  let has = indexed.get(snapshot);
  if (has === undefined) indexed.set(snapshot, (has = hasMatchKeys(snapshot.db)));
  if (!has) throw new ApiProblem(503, "service_unavailable", "This snapshot has no match index: build or import it again to match addresses.");
  const read = rows.map(readRow);
  const addresses = read.map((r) => (r instanceof RowRefusal ? null : r.address));
  const parcels = read.map((r) => (r instanceof RowRefusal ? null : r.parcel));
  // A row that gives its ZIP code or state is first looked for there; its street's keys
  // elsewhere are read only if nothing there is surely it.
  const placed = (q: AddressQuery) => q.zip !== null || q.state !== null;
  const found = new Found(snapshot);
  const isStreet = streetNames(snapshot);
  found.add(addresses.flatMap((q) => (q ? [...q.keys, ...(placed(q) ? [] : q.streetKeys)] : [])));
  found.add(parcels.flatMap((p) => (p ? [parcelKeyOf(p)] : [])), true);
  const results = addresses.map((q) => (q ? matchAddress(q, found.near(q.keys, placed(q) ? [] : q.streetKeys), isStreet) : null));
  const again = addresses.map((q, i) => (q && placed(q) && results[i]!.status !== "matched" ? q : null));
  found.add(again.flatMap((q) => q?.streetKeys ?? []));
  for (const [i, q] of again.entries()) if (q) results[i] = matchAddress(q, found.near(q.keys, q.streetKeys), isStreet);
  return read.map((r, i) => {
    if (r instanceof RowRefusal) return refused(r.detail);
    const parcel = r.parcel ? matchParcel(r.parcel, found.near([parcelKeyOf(r.parcel)], [])) : null;
    const address = results[i];
    if (!address) return parcel!;
    if (!parcel || parcel.status === "unmatched") return address;
    if (parcel.status === "matched" && address.status === "matched" && address.property_id !== parcel.property_id) {
      return ambiguous([candidateOf(parcel), candidateOf(address)], "The parcel number and the address name two different properties.");
    }
    return parcel;
  });
}

function matchParcel(query: ParcelQuery, found: Candidate[]): RowMatch {
  const sure = found.filter(
    (c) =>
      c.apn !== null &&
      apnKey(c.apn) === query.apn &&
      (query.state === null || c.state_code === query.state) &&
      (query.county === null || ("fips" in query.county ? c.county_fips === query.county.fips : c.countyCompact === compactKey(query.county.name))),
  );
  if (sure.length === 1) return matched(sure[0], 1, "parcel_number");
  if (sure.length > 1) return ambiguous(sure.map((c) => ({ property_id: c.id, address: c.line, score: 1 })), `Several properties sit on parcels with this number${query.county ? "" : ": add the county (name or FIPS code) to tell them apart"}.`);
  return unmatched("No property sits on a parcel with this number in the county or state given.");
}

function matchAddress(query: AddressQuery, near: Candidate[], isStreet: (name: string) => boolean): RowMatch {
  const judged = near.map((c) => judge(query, c, isStreet)).filter((j): j is Judgement => j !== null);
  const best = (list: Judgement[]) => list.sort((a, b) => b.tier - a.tier || b.score - a.score || (a.candidate.id < b.candidate.id ? -1 : 1));
  // A candidate the row's city or ZIP code points to, but the other not, is in doubt (the row
  // names two places); it keeps a candidate sure only by a misspelt city from being the answer,
  // while one both the city and the ZIP code name stays sure.
  const torn = judged.some((j) => j.doubt === "zip" || j.doubt === "city");
  const sure = best(judged.filter((j) => j.sure && !(torn && j.cityMisspelt)));
  if (sure.length) {
    const top = sure.filter((j) => j.tier === sure[0].tier);
    if (top.length === 1) return matched(top[0].candidate, top[0].score, top[0].kind);
    return ambiguous(top.map(candidateOfJudgement), equalDetail(query, top.length));
  }
  const weak = best(judged);
  if (weak.length) {
    const doubts = weak.flatMap((j) =>
      j.doubt ? [{ doubt: j.doubt, city: j.candidate.city, street: titleCase(j.candidate.words.slice(1)), typedStreet: j.typedStreet }] : [],
    );
    return ambiguous(weak.map(candidateOfJudgement), doubtDetail(query, doubts, weak.length));
  }
  return unmatched(unmatchedDetail(query));
}

/** How candidate `c` compares with the row, or null when it cannot be the row's property. */
function judge(q: AddressQuery, c: Candidate, isStreet: (name: string) => boolean): Judgement | null {
  const s = c.street;
  if (q.number !== s.number) return null;
  const r = q.rest;
  let i = 0;
  let partial = false;
  let conflict = false;
  if (s.predir) {
    if (directionOf(r[i] ?? "") === s.predir) i++;
    else partial = true;
  } else if (directionOf(r[0] ?? "") && r.length > 1 && nameWord(r[0]) !== s.name[0]) {
    i++;
    partial = true;
  }
  const typed = r.slice(i, i + s.name.length).map(nameWord);
  let spelled = 0;
  if (typed.join(" ") !== s.name.join(" ")) {
    const name = s.name.join(" ");
    spelled = editDistance(typed.join(" "), name);
    if (typed.length !== s.name.length || spelled > maxEdits(name)) return null;
  }
  i += s.name.length;
  const suffix = suffixOf(r[i] ?? "");
  if (s.suffix) {
    if (suffix === s.suffix) i++;
    else if (suffix && i < q.streetLength) {
      conflict = true;
      i++;
    } else partial = true;
  } else if (suffix && i < q.streetLength) {
    partial = true;
    i++;
  }
  if (s.postdir) {
    if (directionOf(r[i] ?? "") === s.postdir) i++;
    else partial = true;
  }
  const exactStreet = !partial && !spelled && !conflict && sameWords(q.typed.slice(0, i + 1), c.words);
  const place = locality(q, c, r, i);
  if (!place) return null;
  const tier = spelled ? 1 : partial ? 2 : 3;
  // A name a letter off that is itself a street's is that street, which the snapshot may not hold.
  const otherStreet = spelled > 0 && isStreet(typed.join(" "));
  const doubt: Doubt | null = otherStreet
    ? "street"
    : place.stateWrong
      ? "state"
      : conflict
      ? "suffix"
      : place.zipWrong
      ? "zip"
      : place.strong && place.unexplained > 0
        ? place.zipOk
          ? "city"
          : "words"
        : place.strong
          ? null
          : place.nearCity
            ? "near_city"
            : "place";
  const sure = doubt === null;
  let score = tier === 3 ? (exactStreet ? 1 : 0.97) : tier === 2 ? 0.9 : spelled === 1 ? 0.8 : 0.75;
  if (place.disagrees) score -= 0.05;
  if (!sure) score *= 0.7;
  const kind: MatchKind = spelled ? "street_spelling" : exactStreet && !place.disagrees ? "exact" : "normalised";
  const typedStreet = titleCase(r.slice(0, i));
  return { candidate: c, tier, sure, score: Math.round(score * 100) / 100, kind, doubt, cityMisspelt: place.misspeltCity, typedStreet };
}

/** Edits a street name may be off by: none for one or two letters, one for most, two for eight letters or more. */
function maxEdits(name: string): number {
  return name.length < 3 ? 0 : name.length < 8 ? 1 : 2;
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

/**
 * What the row says of where the candidate is: the words after its street (at their end a ZIP
 * code, a state and the country; before them units and the city, by its name or one that covers
 * it). Null when the row names neither the candidate's ZIP code nor its city, or another state
 * without naming both (the state is then in doubt, `stateWrong`).
 * A city misspelt by a letter or two is neither the candidate's city nor a word unexplained.
 */
function locality(q: AddressQuery, c: Candidate, r: readonly string[], from: number) {
  let cityOk = false;
  let zipOk = false;
  let zipWrong = false;
  let stateWrong = false;
  let end = r.length;
  const skipCountry = () => {
    while (end > from && isCountryWord(r[end - 1])) end--;
  };
  skipCountry();
  if (end > from && isZip(r[end - 1])) {
    if (r[end - 1] === c.zip) zipOk = true;
    else zipWrong = true;
    end--;
    skipCountry();
  }
  // The words of the candidate's city, or of a name that covers it (New York for Manhattan), at `i`: how many.
  const cityAt = (i: number) => {
    for (const form of c.cityForms) if (sameWords(r.slice(i, i + form.length).map(cityWord), form)) return form.length;
    return 0;
  };
  // A state at the end, unless those words end the candidate's own city (Kansas City, Indiana).
  const own = c.cityForms.find((f) => f.join(" ") === c.cityKey) ?? [];
  if (!own.length || end - own.length < from || !sameWords(r.slice(end - own.length, end).map(cityWord), own)) {
    const state = stateEndingAt(r, from, end);
    if (state) {
      if (state.code !== c.state_code) stateWrong = true;
      end -= state.length;
    }
  }
  const others: string[] = [];
  for (let i = from; i < end; ) {
    const city = cityOk ? 0 : cityAt(i);
    if (city) {
      i += city;
      cityOk = true;
    } else if (isUnitWord(r[i])) i += isBareUnitWord(r[i]) ? 1 : 2;
    else others.push(r[i++]);
  }
  const misspeltCity = !cityOk && others.length > 0 && editDistance(others.map(cityWord).join(" "), c.cityKey) <= maxEdits(c.cityKey);
  const unexplained = misspeltCity ? 0 : others.length;
  if (q.zip && !zipOk && !zipWrong) {
    if (q.zip === c.zip) zipOk = true;
    else zipWrong = true;
  }
  // Another state: no candidate, unless both its ZIP code and its city are the row's (the state is then in doubt).
  if (stateWrong && !(zipOk && cityOk && unexplained === 0)) return null;
  // Neither the ZIP code nor the city is the candidate's; nor are words that name no place of its.
  if (zipWrong && !cityOk) return null;
  if (!zipOk && !cityOk && unexplained > 0) return null;
  return { strong: zipOk || cityOk, zipOk, zipWrong, stateWrong, nearCity: misspeltCity && !zipOk, misspeltCity, disagrees: zipWrong || misspeltCity, unexplained };
}

function candidateOfJudgement(j: Judgement): MatchCandidate {
  return { property_id: j.candidate.id, address: j.candidate.line, score: j.score };
}
