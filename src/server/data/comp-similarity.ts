// How alike a sale is to a subject property, 0..1. A weighted blend of closeness, size,
// recency, vintage and class: the things an appraiser adjusts for first. Missing facts count
// as half-similar rather than disqualifying a sale. Nothing in it depends on the search: the
// same sale of the same subject scores the same at any radius.
//
// Recency is measured from the snapshot's capture date, as an appraiser dates a market-conditions
// adjustment from the effective date, in whole calendar quarters: a sale in the capture's quarter
// counts fully, an older one less the more quarters before it, nothing twenty quarters (five
// years) before. Whole quarters keep a score still while the capture date stays in one quarter,
// so two monthly snapshots of every three answer a comp list with the same scores and order
// (a refresh is billed only for a list that changed); it moves four times a year, when the
// capture enters a new quarter. Measured against the subject's last sale instead, a subject
// never sold would count a ten-year-old sale as recent as last month's.
export interface CompFacts {
  building_area_sqft: number | null;
  units: number | null;
  year_built: number | null;
  building_class: string | null;
  subtype: string | null;
  sale_date: string;
}

export interface SubjectFacts {
  building_area_sqft: number | null;
  units: number | null;
  year_built: number | null;
  building_class: string | null;
  subtype: string | null;
}

const WEIGHTS = { distance: 0.3, recency: 0.25, size: 0.2, vintage: 0.15, kind: 0.1 };

function sizeSimilarity(a: number | null, b: number | null): number {
  if (!a || !b) return 0.5;
  // Four times larger or smaller is as dissimilar as it gets.
  return Math.max(0, 1 - Math.abs(Math.log(a / b)) / Math.log(4));
}

/** Miles at which closeness counts half: a fixed scale, so a sale scores the same whatever radius was searched. */
export const DISTANCE_HALF_MILES = 10;

/** Whole quarters a sale's recency fades over, before the capture date's quarter (five years). */
export const RECENCY_QUARTERS = 20;

/** The quarter of a YYYY-MM-DD day, counted from year 0 (2026-05-01 is 2026 × 4 + 1). */
function quarterOf(day: string): number {
  return Number(day.slice(0, 4)) * 4 + Math.floor((Number(day.slice(5, 7)) - 1) / 3);
}

/** Whole calendar months from a sale's month to the capture's month (0 for a sale in the capture's month). */
export function monthsSince(captureDay: string, saleDate: string): number {
  const month = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));
  return month(captureDay) - month(saleDate);
}

/** 1 for a sale in the capture date's quarter (or later), fading to 0 over RECENCY_QUARTERS before it. */
export function recencyOf(captureDay: string, saleDate: string): number {
  const quartersBefore = quarterOf(captureDay) - quarterOf(saleDate);
  return quartersBefore <= 0 ? 1 : Math.max(0, 1 - quartersBefore / RECENCY_QUARTERS);
}

/** The similarity of `comp` to `subject`, `distanceMiles` apart, in a snapshot captured on `captureDay`. */
export function similarity(subject: SubjectFacts, comp: CompFacts, distanceMiles: number, captureDay: string): number {
  const distance = 0.5 ** (distanceMiles / DISTANCE_HALF_MILES);
  const size =
    subject.units && comp.units
      ? sizeSimilarity(subject.units, comp.units)
      : sizeSimilarity(subject.building_area_sqft, comp.building_area_sqft);
  const vintage =
    subject.year_built && comp.year_built ? Math.max(0, 1 - Math.abs(subject.year_built - comp.year_built) / 40) : 0.5;
  const recency = recencyOf(captureDay, comp.sale_date);
  const classMatch = subject.building_class && comp.building_class ? (subject.building_class === comp.building_class ? 1 : 0.4) : 0.5;
  const subtypeMatch = subject.subtype && comp.subtype ? (subject.subtype === comp.subtype ? 1 : 0.3) : 0.5;
  const kind = (classMatch + subtypeMatch) / 2;
  const score =
    WEIGHTS.distance * distance +
    WEIGHTS.size * size +
    WEIGHTS.recency * recency +
    WEIGHTS.vintage * vintage +
    WEIGHTS.kind * kind;
  return Math.round(score * 1000) / 1000;
}
