// How far each month of a chain of `next-month` snapshots moved its markets: what
// test/snapshot/next-month-moves.test.ts bounds and scripts/month-moves.ts prints.
import Database from "better-sqlite3";

/** The market figures a month's move is measured on. */
export interface MarketFigures {
  id: string;
  geography_type: string;
  property_count: number;
  vacancy_rate: number | null;
  asking_rent_sqft_year: number | null;
  asking_rent_unit_month: number | null;
  median_cap_rate: number | null;
  sales_count_12m: number;
}

const RENTS = ["asking_rent_sqft_year", "asking_rent_unit_month"] as const;

/** One market's move from one month to the next. */
export interface MarketMove {
  id: string;
  /** The later month's index in the chain (1 = the first next month). */
  month: number;
  geography_type: string;
  before: MarketFigures;
  now: MarketFigures;
  /** The vacancy's move in basis points (unsigned), or null when either month has none. */
  vacancyBps: number | null;
  /** The median cap rate's move in basis points (unsigned), or null when either month has none. */
  capRateBps: number | null;
  /** Each asking rent held in both months, with its move as a fraction of the earlier one (unsigned). */
  rentMoves: { rent: (typeof RENTS)[number]; from: number; to: number; move: number }[];
}

function read<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

function marketsOf(file: string): Map<string, MarketFigures> {
  const sql = `SELECT id, geography_type, property_count, vacancy_rate, asking_rent_sqft_year, asking_rent_unit_month, median_cap_rate,
    sales_count_12m FROM markets`;
  return new Map(read<MarketFigures>(file, sql).map((m) => [m.id, m]));
}

/** Every month-to-month move of the markets with at least `minProperties` properties in both months. */
export function marketMoves(files: readonly string[], minProperties: number): MarketMove[] {
  const months = files.map(marketsOf);
  const moves: MarketMove[] = [];
  for (let i = 1; i < months.length; i++) {
    for (const [id, now] of months[i]) {
      const before = months[i - 1].get(id);
      if (!before || Math.min(before.property_count, now.property_count) < minProperties) continue;
      const bps = (a: number | null, b: number | null) => (a !== null && b !== null ? Math.abs(b - a) * 10_000 : null);
      const vacancyBps = bps(before.vacancy_rate, now.vacancy_rate);
      const capRateBps = bps(before.median_cap_rate, now.median_cap_rate);
      const rentMoves = RENTS.flatMap((rent) => {
        const [from, to] = [before[rent], now[rent]];
        return from && to ? [{ rent, from, to, move: Math.abs(to / from - 1) }] : [];
      });
      moves.push({ id, month: i, geography_type: now.geography_type, before, now, vacancyBps, capRateBps, rentMoves });
    }
  }
  return moves;
}

/** Each asset type's vacancy over all its properties with an occupancy (area-weighted). */
export function vacancyByType(file: string): Map<string, number> {
  const rows = read<{ asset_type: string; v: number }>(
    file,
    `SELECT asset_type, 1 - SUM(occupancy_rate * building_area_sqft) / SUM(building_area_sqft) AS v
     FROM properties WHERE occupancy_rate IS NOT NULL AND building_area_sqft > 0 GROUP BY asset_type`,
  );
  return new Map(rows.map((r) => [r.asset_type, r.v]));
}
