// A row's answer as the matcher gives it (without the caller's `ref`): matched to one property,
// ambiguous with its candidates listed after why, unmatched or refused with why.
import { MATCH_MAX_CANDIDATES, type MatchCandidate, type MatchKind, type MatchStatus } from "../../contract/property-match";
import type { Candidate } from "./match-candidates";

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

/** The row matched to `c`. */
export function matched(c: Candidate, score: number, kind: MatchKind): RowMatch {
  return {
    status: "matched",
    property_id: c.id,
    parcel_id: c.parcel_id,
    matched_address: c.line,
    score,
    match: kind,
    candidates: [],
    detail: null,
  };
}

/** A matched result as a candidate (the parcel and the address disagreeing). */
export function candidateOf(m: RowMatch): MatchCandidate {
  return { property_id: m.property_id!, address: m.matched_address!, score: m.score! };
}

const EMPTY = { property_id: null, parcel_id: null, matched_address: null, score: null, match: null };

/** Not a unique match: why, then the candidates (at most MATCH_MAX_CANDIDATES) by address and id. */
export function ambiguous(candidates: MatchCandidate[], detail: string): RowMatch {
  const listed = candidates.slice(0, MATCH_MAX_CANDIDATES);
  const names = listed.map((c) => `${c.address} (${c.property_id})`).join("; ");
  return { status: "ambiguous", ...EMPTY, candidates: listed, detail: `${detail} Candidates: ${names}.` };
}

/** No candidate: `detail` names nothing the snapshot holds. */
export function unmatched(detail: string): RowMatch {
  return { status: "unmatched", ...EMPTY, candidates: [], detail };
}

/** A row refused, saying why. */
export function refused(detail: string): RowMatch {
  return { status: "refused", ...EMPTY, candidates: [], detail };
}
