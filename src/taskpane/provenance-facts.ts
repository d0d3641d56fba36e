// A PROP value's provenance as lines of "Label: text": the formula, what the service understood,
// the record or market, the snapshot, when it was fetched and from where, and what it cost.
// "Explain this cell" shows these lines and "Freeze as values" writes them into the frozen
// cell's comment, from this one module, so the two always agree; Explain reads a frozen cell's
// comment back with parseFacts.
import type { CellSourceRecord } from "../shared/cell-outcomes";
import type { MatchFacts, RequestSource } from "../shared/cell-provenance";
import { MATCH_LOW_CONFIDENCE_SCORE } from "../contract/property-match";
import type { SnapshotRef } from "../contract/snapshot-ref";
import { formatDay, formatMoment } from "./status-text";

export interface Fact {
  label: string;
  text: string;
}

/** The labels, in the order they are written. */
export const FACT_LABELS = {
  formula: "Formula",
  asked: "Asked",
  understood: "Understood as",
  record: "Record",
  match: "Match",
  confidence: "Confidence",
  market: "Market",
  list: "List",
  snapshot: "Snapshot",
  fetched: "Fetched",
  cost: "Cost",
} as const;

/**
 * The facts of a value from `formula`, answered from the sources `record` keeps (null when
 * none is recorded: then only the formula and `fallback`, the snapshot the pane is connected to).
 */
export function provenanceFacts(formula: string, record: CellSourceRecord | null, fallback: SnapshotRef | null = null): Fact[] {
  const facts: Fact[] = [{ label: FACT_LABELS.formula, text: formula }];
  const sources = record?.sources ?? [];
  const main = sources[0];
  if (!main) {
    if (fallback) facts.push({ label: FACT_LABELS.snapshot, text: snapshotText(fallback.id, fallback.captured_at) });
    return facts;
  }
  const asked = Object.entries(main.query)
    .map(([name, value]) => `${name}=${value}`)
    .join(", ");
  facts.push({ label: FACT_LABELS.asked, text: `${main.operation}${asked ? ` (${asked})` : ""}` });
  const understood = understoodText(main);
  if (understood) facts.push({ label: FACT_LABELS.understood, text: understood });
  const { answer } = main;
  if (answer.propertyCount !== undefined && answer.place) {
    const count = `${answer.propertyCount.toLocaleString("en-US")} ${answer.propertyCount === 1 ? "property" : "properties"}`;
    facts.push({ label: FACT_LABELS.market, text: [answer.id, answer.place, answer.assetType, count].filter(Boolean).join(", ") });
  } else if (answer.id) {
    facts.push({ label: FACT_LABELS.record, text: [answer.id, answer.name, answer.address].filter(Boolean).join(", ") });
  } else if (answer.totalCount !== undefined) {
    facts.push({ label: FACT_LABELS.list, text: `${answer.totalCount.toLocaleString("en-US")} records matched` });
  }
  if (answer.match) facts.push(...matchFactsOf(answer.match));
  const snapshotId = main.snapshotId ?? fallback?.id ?? null;
  const capturedAt = main.capturedAt ?? (fallback && snapshotId === fallback.id ? fallback.captured_at : null);
  if (snapshotId) facts.push({ label: FACT_LABELS.snapshot, text: snapshotText(snapshotId, capturedAt) });
  facts.push({ label: FACT_LABELS.fetched, text: fetchedText(main) });
  facts.push({ label: FACT_LABELS.cost, text: costText(record!) });
  return facts;
}

/** How each kind of match was made, in words. */
const MATCH_KIND_WORDS: Record<NonNullable<MatchFacts["kind"]>, string> = {
  exact: "exact: written as the snapshot writes it",
  normalised: "normalised: the same address once suffixes, directionals, ordinals, units, case and punctuation are read the postal way",
  street_spelling: "street spelt differently: a street name a letter or two off, at the same house number and ZIP code or city",
  parcel_number: "by parcel number: the APN in its county or state",
};

/** A match's facts: how it matched (or why not), and how sure it is. The matched address is the Record fact. */
function matchFactsOf(match: MatchFacts): Fact[] {
  if (match.status !== "matched") {
    const candidates = match.candidates > 0 ? ` (${match.candidates} candidate${match.candidates === 1 ? "" : "s"})` : "";
    return [
      { label: FACT_LABELS.match, text: `${match.status}${candidates}: ${match.detail ?? "no property at this address in the snapshot."}` },
    ];
  }
  const score = match.score !== null ? `, score ${match.score}` : "";
  const how = match.kind ? `, ${MATCH_KIND_WORDS[match.kind]}` : "";
  const confidence = match.lowConfidence
    ? `low (${match.kind === "street_spelling" ? "street spelt differently" : `score below ${MATCH_LOW_CONFIDENCE_SCORE}`}): check the matched address`
    : "high";
  return [
    { label: FACT_LABELS.match, text: `matched${score}${how}` },
    { label: FACT_LABELS.confidence, text: confidence },
  ];
}

/** What the service read the call as: its place (with its kind), asset type and the dates sent. */
function understoodText(source: RequestSource): string {
  const { answer, query } = source;
  const parts: string[] = [];
  if (answer.place) parts.push(answer.placeKind ? `${answer.place} (${answer.placeKind})` : answer.place);
  if (answer.assetType) parts.push(answer.assetType);
  const dates = Object.entries(query).filter(([name]) => /date|^from$|^to$|as_of/.test(name));
  for (const [name, value] of dates) parts.push(`${name} ${value}`);
  if (answer.asOf) parts.push(`figures as of ${answer.asOf}`);
  return parts.join(", ");
}

function snapshotText(id: string, capturedAt: string | null): string {
  return capturedAt ? `${id}, captured ${formatDay(capturedAt)}` : `${id} (capture date not known)`;
}

const ORIGINS: Record<RequestSource["origin"], string> = {
  cache: "answered from the add-in's cache",
  revalidated: "the cached copy, confirmed unchanged by the service (free)",
  fetched: "fetched from the service",
  joined: "fetched by another cell's identical request at the same time",
};

function fetchedText(source: RequestSource): string {
  const when = source.fetchedAt !== null ? `${formatMoment(new Date(source.fetchedAt).toISOString())}, ` : "";
  const batch = source.batched ? " (in one batch with other cells)" : "";
  return `${when}${ORIGINS[source.origin]}${batch}`;
}

function costText(record: CellSourceRecord): string {
  const credits = record.sources.reduce((sum, s) => sum + s.credits, 0) + record.moreCredits;
  const requests = record.sources.length + record.more;
  const of = requests > 1 ? ` over ${requests} requests` : "";
  if (credits === 0) return `0 credits${of} (nothing was charged for this value)`;
  const batched = record.sources.some((s) => s.batched) ? " at most (batched requests can cost less)" : "";
  return `${credits} ${credits === 1 ? "credit" : "credits"}${of}${batched}`;
}

/** The facts as comment text, one "Label: text" line each. */
export function factsText(facts: readonly Fact[]): string {
  return facts.map((f) => `${f.label}: ${f.text}`).join("\n");
}

/** The facts a comment written by factsText holds (lines of other forms are left out). */
export function parseFacts(text: string): Fact[] {
  const known = new Set<string>(Object.values(FACT_LABELS));
  const facts: Fact[] = [];
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(": ");
    if (at > 0 && known.has(line.slice(0, at))) facts.push({ label: line.slice(0, at), text: line.slice(at + 2) });
  }
  return facts;
}
