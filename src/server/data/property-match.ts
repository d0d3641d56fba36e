// Matching rows of addresses and parcel numbers to the properties of the snapshot that answers.
// The match index (snapshot/match-keys.ts) finds each row's candidates by house number and ZIP
// code, city or street name, or by parcel number; each candidate's row is then read from the
// snapshot and its address compared with the row's words, which tell its street, unit, city,
// state and ZIP code apart only against an address known. A row matches when exactly one
// candidate is surely it: the same house number, the same street (or one spelt a letter or two
// off), in the ZIP code or city the row gives; anything less is ambiguous (its candidates listed)
// or unmatched, never a guess.
import { editDistance } from "../../contract/near-names";
import {
  MATCH_MAX_CANDIDATES,
  type MatchCandidate,
  type MatchFields,
  type MatchKind,
  type MatchStatus,
} from "../../contract/property-match";
import {
  type StreetLine,
  apnKey,
  cityKey,
  cityWord,
  countyKey,
  directionOf,
  isBareUnitWord,
  isUnitWord,
  isZip,
  nameWord,
  isCountryWord,
  stateEndingAt,
  streetLine,
  suffixOf,
  tokens,
} from "../../contract/street-address";
import { MATCH_KEYS_TABLE, hasMatchKeys } from "../../snapshot/match-keys";
import { ApiProblem } from "../http/problem";
import { type AddressQuery, type ParcelQuery, RowRefusal, parcelKeyOf, readRow } from "./match-input";
import type { SnapshotContext } from "./snapshot-context";

/** A row's result, without the caller's `ref`. */
export interface RowMatch {
  status: MatchStatus;
  property_id: string | null;
  parcel_id: string | null;
  matched_address: string | null;
  score: number | null;
  match: MatchKind | null;
  candidates: MatchCandidate[];
  detail: string | null;
}

/** A candidate property as read from the snapshot, with its address read once. */
interface Candidate {
  id: string;
  address: string;
  city: string;
  state_code: string;
  zip: string;
  county: string;
  county_fips: string;
  parcel_id: string | null;
  apn: string | null;
  street: StreetLine;
  words: string[];
  cityWords: string[];
  cityKey: string;
  line: string;
}

/** How one candidate compares with a row. */
interface Judgement {
  candidate: Candidate;
  /** 3: the street as the snapshot has it; 2: with its suffix or a directional left out or added; 1: its name spelt a letter or two off. */
  tier: number;
  /** In the ZIP code or city the row gives, with nothing in the row that says otherwise. */
  sure: boolean;
  score: number;
  kind: MatchKind;
}

/** Most candidates a row's keys may find; a key finding more (a house number on a common street name anywhere) finds none. */
const MAX_KEY_CANDIDATES = 200;
/** Statement sizes for `IN (...)` lists, so that few statements are prepared: a list is padded to the next. */
const LIST_SIZES = [1, 8, 64, 512];

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
  found.add(addresses.flatMap((q) => (q ? [...q.keys, ...(placed(q) ? [] : q.streetKeys)] : [])));
  found.add(parcels.flatMap((p) => (p ? [parcelKeyOf(p)] : [])), true);
  const results = addresses.map((q) => (q ? matchAddress(q, found.near(q.keys, placed(q) ? [] : q.streetKeys)) : null));
  const again = addresses.map((q, i) => (q && placed(q) && results[i]!.status !== "matched" ? q : null));
  found.add(again.flatMap((q) => q?.streetKeys ?? []));
  for (const [i, q] of again.entries()) if (q) results[i] = matchAddress(q, found.near(q.keys, q.streetKeys));
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

/** The candidates the keys read so far found, each property's row read once. */
class Found {
  private readonly ids = new Map<string, string[]>();
  private readonly rows = new Map<string, Candidate>();
  constructor(private readonly snapshot: SnapshotContext) {}

  /** Reads the keys not read yet, and the rows of the properties they find (with their parcel numbers for `parcels`). */
  add(keys: string[], parcels = false): void {
    const fresh = [...new Set(keys)].filter((k) => !this.ids.has(k));
    for (const k of fresh) this.ids.set(k, []);
    for (const [key, list] of idsByKey(this.snapshot, fresh)) this.ids.set(key, list);
    const ids = new Set<string>();
    for (const k of fresh) for (const id of this.ids.get(k)!) if (!this.rows.has(id) || parcels) ids.add(id);
    for (const [id, row] of candidateRows(this.snapshot, [...ids], parcels)) this.rows.set(id, row);
  }

  /** The candidates `keys` and `more` found (a key's property that the answering version does not hold is none). */
  near(keys: readonly string[], more: readonly string[]): Candidate[] {
    const out = new Set<Candidate>();
    for (const list of [keys, more]) {
      for (const k of list) {
        for (const id of this.ids.get(k) ?? []) {
          const row = this.rows.get(id);
          if (row) out.add(row);
        }
      }
    }
    return [...out];
  }
}

/** The property ids each key finds, reading the index in statements of a few fixed sizes. */
function idsByKey(snapshot: SnapshotContext, keys: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const chunk of chunks(keys)) {
    const sql = `SELECT key, property_id FROM ${MATCH_KEYS_TABLE} WHERE key IN (${chunk.map(() => "?").join(",")})`;
    for (const row of snapshot.all<{ key: string; property_id: string }>(sql, chunk)) {
      const list = out.get(row.key);
      if (list) list.push(row.property_id);
      else out.set(row.key, [row.property_id]);
    }
  }
  for (const [key, list] of out) if (list.length > MAX_KEY_CANDIDATES) out.delete(key);
  return out;
}

/**
 * The candidates' rows in the snapshot that answers (a key may name a property another version
 * holds: it is not read), with their parcels' numbers when `parcels` asks for them.
 */
function candidateRows(snapshot: SnapshotContext, ids: string[], parcels: boolean): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  const apn = parcels ? "(SELECT pa.apn FROM parcels pa WHERE pa.id = p.parcel_id)" : "NULL";
  for (const chunk of chunks(ids)) {
    const sql =
      `SELECT p.id, p.address, p.city, p.state_code, p.zip, p.county, p.county_fips, p.parcel_id, ${apn} AS apn ` +
      `FROM properties p WHERE p.id IN (${chunk.map(() => "?").join(",")})`;
    for (const row of snapshot.all<Omit<Candidate, "street" | "words" | "cityWords" | "cityKey" | "line">>(sql, chunk)) {
      const words = tokens(row.address);
      out.set(row.id, {
        ...row,
        street: streetLine(words),
        words,
        cityWords: tokens(row.city).map(cityWord),
        cityKey: cityKey(row.city),
        line: `${row.address}, ${row.city}, ${row.state_code} ${row.zip}`,
      });
    }
  }
  return out;
}

/** A list cut into statements' lists of LIST_SIZES, the last padded with nulls (which match nothing). */
function chunks(list: string[]): (string | null)[][] {
  const out: (string | null)[][] = [];
  const max = LIST_SIZES[LIST_SIZES.length - 1];
  for (let i = 0; i < list.length; i += max) {
    const part: (string | null)[] = list.slice(i, i + max);
    const size = LIST_SIZES.find((s) => s >= part.length)!;
    while (part.length < size) part.push(null);
    out.push(part);
  }
  return out;
}

function matchParcel(query: ParcelQuery, found: Candidate[]): RowMatch {
  const sure = found.filter(
    (c) =>
      c.apn !== null &&
      apnKey(c.apn) === query.apn &&
      (query.state === null || c.state_code === query.state) &&
      (query.county === null || ("fips" in query.county ? c.county_fips === query.county.fips : countyKey(c.county) === query.county.name)),
  );
  if (sure.length === 1) return matched({ candidate: sure[0], tier: 3, sure: true, score: 1, kind: "parcel_number" });
  if (sure.length > 1) return ambiguous(sure.map((c) => ({ property_id: c.id, address: c.line, score: 1 })), "Several properties sit on parcels with this number.");
  return unmatched("No property sits on a parcel with this number in the county or state given.");
}

function matchAddress(query: AddressQuery, near: Candidate[]): RowMatch {
  const judged = near.map((c) => judge(query, c)).filter((j): j is Judgement => j !== null);
  const best = (list: Judgement[]) => list.sort((a, b) => b.tier - a.tier || b.score - a.score || (a.candidate.id < b.candidate.id ? -1 : 1));
  const sure = best(judged.filter((j) => j.sure));
  if (sure.length) {
    const top = sure.filter((j) => j.tier === sure[0].tier);
    if (top.length === 1) return matched(top[0]);
    return ambiguous(top.map(candidateOfJudgement), `${top.length} properties match this address equally.`);
  }
  const weak = best(judged);
  if (weak.length) {
    const place = query.zip || query.cityField || query.state ? "" : " No city, state or ZIP code was given to tell them apart.";
    return ambiguous(weak.map(candidateOfJudgement), `No property is surely at this address; these may be it.${place}`);
  }
  const where = [query.cityField, query.state, query.zip].filter(Boolean).join(" ");
  return unmatched(
    query.number
      ? `No property numbered ${query.number} on this street${where ? ` in ${where}` : ""} is in the snapshot.`
      : "No property at this address is in the snapshot (the address has no house number).",
  );
}

/** How candidate `c` compares with the row, or null when it cannot be the row's property. */
function judge(q: AddressQuery, c: Candidate): Judgement | null {
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
  const sure = place.strong && place.unexplained === 0 && !conflict;
  let score = tier === 3 ? (exactStreet ? 1 : 0.97) : tier === 2 ? 0.9 : spelled === 1 ? 0.8 : 0.75;
  if (place.disagrees) score -= 0.05;
  if (!sure) score *= 0.7;
  const kind: MatchKind = spelled ? "street_spelling" : exactStreet && !place.disagrees ? "exact" : "normalised";
  return { candidate: c, tier, sure, score: Math.round(score * 100) / 100, kind };
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
 * code, a state and the country; before them units and the city) and the fields. Null when the
 * row names another state, or another ZIP code and city (one of them differing is taken as a
 * typing slip when the other agrees). A city misspelt by a letter or two is neither the
 * candidate's city nor a word unexplained.
 */
function locality(q: AddressQuery, c: Candidate, r: readonly string[], from: number) {
  let cityOk = false;
  let zipOk = false;
  let zipWrong = false;
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
  const cityAt = (i: number) => c.cityWords.length > 0 && sameWords(r.slice(i, i + c.cityWords.length).map(cityWord), c.cityWords);
  // A state at the end, unless those words end the candidate's city (Kansas City, Indiana).
  if (end - c.cityWords.length < from || !cityAt(end - c.cityWords.length)) {
    const state = stateEndingAt(r, from, end);
    if (state) {
      if (state.code !== c.state_code) return null;
      end -= state.length;
    }
  }
  const others: string[] = [];
  for (let i = from; i < end; ) {
    if (!cityOk && cityAt(i)) {
      i += c.cityWords.length;
      cityOk = true;
    } else if (isUnitWord(r[i])) i += isBareUnitWord(r[i]) ? 1 : 2;
    else others.push(r[i++]);
  }
  const misspeltCity = !cityOk && others.length > 0 && editDistance(others.map(cityWord).join(" "), c.cityKey) <= maxEdits(c.cityKey);
  const unexplained = misspeltCity ? 0 : others.length;
  if (q.state && q.state !== c.state_code) return null;
  if (q.zip) {
    if (q.zip === c.zip) zipOk = true;
    else zipWrong = true;
  }
  let cityWrong = false;
  if (q.cityField) {
    if (q.cityField === c.cityKey) cityOk = true;
    else cityWrong = true;
  }
  if (zipWrong && !cityOk) return null;
  // A city field a letter or two off is no sure place, but its candidate is offered.
  const nearCity = cityWrong && editDistance(q.cityField!, c.cityKey) <= maxEdits(c.cityKey);
  if (cityWrong && !zipOk && !nearCity) return null;
  return { strong: zipOk || cityOk, disagrees: zipWrong || cityWrong || misspeltCity, unexplained };
}

function matched(j: Judgement): RowMatch {
  const c = j.candidate;
  return {
    status: "matched",
    property_id: c.id,
    parcel_id: c.parcel_id,
    matched_address: c.line,
    score: j.score,
    match: j.kind,
    candidates: [],
    detail: null,
  };
}

function candidateOfJudgement(j: Judgement): MatchCandidate {
  return { property_id: j.candidate.id, address: j.candidate.line, score: j.score };
}

/** A matched result as a candidate (the parcel and the address disagreeing). */
function candidateOf(m: RowMatch): MatchCandidate {
  return { property_id: m.property_id!, address: m.matched_address!, score: m.score! };
}

const EMPTY = { property_id: null, parcel_id: null, matched_address: null, score: null, match: null };

function ambiguous(candidates: MatchCandidate[], detail: string): RowMatch {
  const listed = candidates.slice(0, MATCH_MAX_CANDIDATES);
  const names = listed.map((c) => `${c.address} (${c.property_id})`).join("; ");
  return { status: "ambiguous", ...EMPTY, candidates: listed, detail: `${detail} Candidates: ${names}.` };
}

function unmatched(detail: string): RowMatch {
  return { status: "unmatched", ...EMPTY, candidates: [], detail };
}

/** A row refused, saying why. */
export function refused(detail: string): RowMatch {
  return { status: "refused", ...EMPTY, candidates: [], detail };
}
