// How alike a sale is to a subject property, 0..1. A weighted blend of closeness, size,
// vintage, class and recency: the things an appraiser adjusts for first. Missing facts count
// as half-similar rather than disqualifying a sale. Nothing in it depends on the search or on
// the snapshot: the same sale of the same subject scores the same at any radius and in every
// monthly snapshot, so the score changes only when the sale or the subject changed.
//
// Recency is measured against the subject's reference date, its last sale: a sale on or after
// it was struck in the market the subject trades in now and counts fully; an older one counts
// less the older it is, nothing five years before. Measured against the capture date instead,
// every comp would age and every score move each month, with no new sale.
export interface CompFacts {
  building_area_sqft: number | null;
  units: number | null;
  year_built: number | null;
  building_class: string | null;
  subtype: string | null;
  sale_date: string;
}

export interface SubjectFacts {
  /** The subject's reference date for recency; a subject never sold counts every sale half-recent. */
  last_sale_date: string | null;
  building_area_sqft: number | null;
  units: number | null;
  year_built: number | null;
  building_class: string | null;
  subtype: string | null;
}

const WEIGHTS = { distance: 0.3, size: 0.25, recency: 0.2, vintage: 0.15, kind: 0.1 };

function sizeSimilarity(a: number | null, b: number | null): number {
  if (!a || !b) return 0.5;
  // Four times larger or smaller is as dissimilar as it gets.
  return Math.max(0, 1 - Math.abs(Math.log(a / b)) / Math.log(4));
}

/** Miles at which closeness counts half: a fixed scale, so a sale scores the same whatever radius was searched. */
export const DISTANCE_HALF_MILES = 10;

/** Months a sale's recency fades over, before the subject's last sale. */
export const RECENCY_MONTHS = 60;

/** 1 for a sale on or after the subject's last sale, fading to 0 over RECENCY_MONTHS before it; 0.5 when the subject has no sale. */
export function recencyOf(subjectLastSale: string | null, saleDate: string): number {
  if (!subjectLastSale) return 0.5;
  const monthsBefore = (Date.parse(subjectLastSale) - Date.parse(saleDate)) / (30.44 * 86_400_000);
  return monthsBefore <= 0 ? 1 : Math.max(0, 1 - monthsBefore / RECENCY_MONTHS);
}

export function similarity(subject: SubjectFacts, comp: CompFacts, distanceMiles: number): number {
  const distance = 0.5 ** (distanceMiles / DISTANCE_HALF_MILES);
  const size =
    subject.units && comp.units
      ? sizeSimilarity(subject.units, comp.units)
      : sizeSimilarity(subject.building_area_sqft, comp.building_area_sqft);
  const vintage =
    subject.year_built && comp.year_built ? Math.max(0, 1 - Math.abs(subject.year_built - comp.year_built) / 40) : 0.5;
  const recency = recencyOf(subject.last_sale_date, comp.sale_date);
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
