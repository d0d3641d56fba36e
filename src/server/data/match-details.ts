// What a row that is not a unique match says (its `detail`): why, and what would make it one. An
// ambiguous row names its candidates (their ids and addresses follow the reason); an unmatched or
// refused row names nothing the snapshot holds, since it is free: it echoes what the row typed and
// says what to check.
import { MATCH_MAX_CANDIDATES } from "../../contract/property-match";
import type { AddressQuery } from "./match-input";

/** Why a candidate is not surely the row's property, the first that holds. */
export type Doubt =
  /** The row's street is another street's name, a letter or two from the candidate's. */
  | "street"
  /** The row's ZIP code and city are the candidate's, its state another. */
  | "state"
  /** The row's street has another suffix than the candidate's (Ave for St). */
  | "suffix"
  /** The ZIP code is not the candidate's, whose city the row names. */
  | "zip"
  /** The candidate is in the row's ZIP code, but the row names another city (or has words that are none of its address). */
  | "city"
  /** The row names the candidate's city, and words that are none of its address. */
  | "words"
  /** The row names a city a letter or two from the candidate's, and no ZIP code. */
  | "near_city"
  /** The row gives no city or ZIP code. */
  | "place";

/** A doubt with what the detail says of it: the candidate's city and street, the row's street as typed. */
export interface DoubtAbout {
  doubt: Doubt;
  /** The candidate's own, as the snapshot writes it (the rows that show it name the candidate). */
  city: string;
  street: string;
  typedStreet: string;
}

/** Words as a reader writes them: "MILL DR" as "Mill Dr". */
export function titleCase(words: readonly string[]): string {
  return words.map((w) => (/^\d/.test(w) ? w.toLowerCase() : w[0] + w.slice(1).toLowerCase())).join(" ");
}

/** Why no candidate is surely the row's property, and what would tell them apart (the doubts of the candidates listed, best first). */
export function doubtDetail(query: AddressQuery, doubts: readonly DoubtAbout[], candidates: number): string {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const d of doubts) {
    const sentence = doubtSentence(query, d, candidates);
    if (!seen.has(sentence) && out.length < MATCH_MAX_CANDIDATES) out.push(sentence);
    seen.add(sentence);
  }
  return `No property is surely at this address. ${out.join(" ")}`;
}

function doubtSentence(q: AddressQuery, d: DoubtAbout, candidates: number): string {
  switch (d.doubt) {
    case "street":
      return `Street "${d.typedStreet}" is not in the snapshot at ${q.number}; "${d.street}" is a different street: check the street name.`;
    case "state":
      return `The ZIP code ${q.zip} and ${d.city} are not in ${q.state ?? q.stateGuess}: check the state.`;
    case "suffix":
      return `"${d.typedStreet}" is not "${d.street}": check the street's suffix.`;
    case "zip":
      return `The ZIP code ${q.zip} is not in ${d.city}: check the ZIP code or the city.`;
    case "city":
      return `The ZIP code ${q.zip} is in ${d.city}, and the row names another place: check the city or the ZIP code.`;
    case "words":
      return `The row has words that are not in the address of ${d.street}, ${d.city}: check the address.`;
    case "near_city":
      return `The city is not written as ${d.city}: check the city, or add the ZIP code.`;
    case "place":
      return candidates > 1 ? "Add the city or ZIP code to tell them apart." : "No city or ZIP code was given: add one to make it a match.";
  }
}

/** Several properties are surely at the address, equally: what would tell them apart. */
export function equalDetail(query: AddressQuery, count: number): string {
  const hint = !query.zip ? "Add the ZIP code to tell them apart." : "They share this address: choose one by its id.";
  return `${count} properties match this address equally. ${hint}`;
}

/** No candidate at all: what the row typed, and what to check; nothing the snapshot holds. */
export function unmatchedDetail(query: AddressQuery): string {
  if (!query.number) return "No property at this address is in the snapshot: the address has no house number; add it.";
  const where = [query.state, query.zip].filter(Boolean).join(" ");
  return (
    `No property numbered ${query.number} on this street${where ? ` in ${where}` : ""} is in the snapshot: ` +
    "check the house number, the street and the city or ZIP code."
  );
}
