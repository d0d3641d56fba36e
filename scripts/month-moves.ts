// npx tsx scripts/month-moves.ts [--properties 2000] [--months 12] [--seed 5] [--min 20]
// Builds a generated snapshot and that many `next-month` snapshots after it (in a temporary
// directory), then prints how far each month moved the markets of --min or more properties:
// the largest vacancy move (bps) of a state and of any other market, the largest asking-rent
// move, and each leased type's vacancy over all properties, first month to last. The figures
// docs/snapshot.md ("How far a month moves a market") states; test/snapshot/next-month-moves.test.ts
// asserts the same bounds on the same chain.
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { LEASED_TYPES } from "../src/snapshot/asset-kinds";
import { buildSnapshot } from "../src/snapshot/build";
import { nextMonthSnapshot } from "../src/snapshot/next-month";

const { values } = parseArgs({
  options: { properties: { type: "string" }, months: { type: "string" }, seed: { type: "string" }, min: { type: "string" } },
});
const PROPERTIES = Number(values.properties ?? 2000);
const MONTHS = Number(values.months ?? 12);
const SEED = Number(values.seed ?? 5);
const MIN = Number(values.min ?? 20);

interface Row {
  id: string;
  geography_type: string;
  property_count: number;
  vacancy_rate: number | null;
  asking_rent_sqft_year: number | null;
  asking_rent_unit_month: number | null;
}

function read<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "month-moves-"));
try {
  const files = [path.join(dir, "m0.db")];
  let started = performance.now();
  buildSnapshot({ out: files[0], seed: SEED, properties: PROPERTIES });
  console.log(`base: ${PROPERTIES} properties, seed ${SEED}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (let i = 1; i <= MONTHS; i++) {
    started = performance.now();
    const r = nextMonthSnapshot({ from: files[i - 1], out: path.join(dir, `m${i}.db`) });
    files.push(r.path);
    console.log(
      `month ${i} (${r.capturedAt.slice(0, 10)}): ${((performance.now() - started) / 1000).toFixed(1)} s ${JSON.stringify(r.tallies.by_event)}`,
    );
  }
  const months = files.map(
    (f) =>
      new Map(
        read<Row>(
          f,
          "SELECT id, geography_type, property_count, vacancy_rate, asking_rent_sqft_year, asking_rent_unit_month FROM markets",
        ).map((m) => [m.id, m]),
      ),
  );
  const most = { state: { bps: 0, at: "" }, other: { bps: 0, at: "" }, rent: { pct: 0, at: "" } };
  let compared = 0;
  for (let i = 1; i < months.length; i++) {
    for (const [id, now] of months[i]) {
      const before = months[i - 1].get(id);
      if (!before || Math.min(before.property_count, now.property_count) < MIN) continue;
      compared++;
      if (before.vacancy_rate !== null && now.vacancy_rate !== null) {
        const bps = Math.round(Math.abs(now.vacancy_rate - before.vacancy_rate) * 10_000);
        const m = now.geography_type === "state" ? most.state : most.other;
        if (bps > m.bps) Object.assign(m, { bps, at: `${id} month ${i}: ${before.vacancy_rate} -> ${now.vacancy_rate}` });
      }
      for (const rent of ["asking_rent_sqft_year", "asking_rent_unit_month"] as const) {
        const [a, b] = [before[rent], now[rent]];
        const pct = a && b ? Math.abs(b / a - 1) * 100 : 0;
        if (pct > most.rent.pct) Object.assign(most.rent, { pct: Math.round(pct * 100) / 100, at: `${id} month ${i}: ${a} -> ${b}` });
      }
    }
  }
  console.log(`\nmarket-months compared (markets of ${MIN}+ properties): ${compared}`);
  console.log(`largest vacancy move, a state:        ${most.state.bps} bps (${most.state.at})`);
  console.log(`largest vacancy move, another market: ${most.other.bps} bps (${most.other.at})`);
  console.log(`largest asking-rent move:             ${most.rent.pct}% (${most.rent.at})`);
  const vacancy = (file: string) =>
    new Map(
      read<{ asset_type: string; v: number }>(
        file,
        `SELECT asset_type, 1 - SUM(occupancy_rate * building_area_sqft) / SUM(building_area_sqft) AS v
         FROM properties WHERE occupancy_rate IS NOT NULL AND building_area_sqft > 0 GROUP BY asset_type`,
      ).map((r) => [r.asset_type, r.v]),
    );
  const [first, last] = [vacancy(files[0]), vacancy(files[MONTHS])];
  console.log(`\nleased types' vacancy over all properties, month 0 -> month ${MONTHS}:`);
  for (const t of LEASED_TYPES) {
    if (!first.has(t)) continue;
    const bps = Math.round((last.get(t)! - first.get(t)!) * 10_000);
    console.log(
      `  ${t.padEnd(26)} ${(first.get(t)! * 100).toFixed(2)}% -> ${(last.get(t)! * 100).toFixed(2)}% (${bps >= 0 ? "+" : ""}${bps} bps)`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
