// npx tsx scripts/month-moves.ts [--properties 2000] [--months 12] [--seed 5] [--min 20] [--min-sales 20]
// Builds a generated snapshot and that many `next-month` snapshots after it (in a temporary
// directory), then prints how far each month moved the markets of --min or more properties:
// the largest vacancy move (bps) of a state and of any other market, the largest asking-rent
// move, the largest median cap-rate move of a market of --min-sales or more sales in the 12 months
// to both months, the largest moves of the markets under --min, and each leased type's vacancy over all properties, first month to last. The figures
// docs/snapshot.md ("How far a month moves a market") states; test/snapshot/next-month-moves.test.ts
// asserts the same bounds on the same chain.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { LEASED_TYPES } from "../src/snapshot/asset-kinds";
import { buildSnapshot } from "../src/snapshot/build";
import { nextMonthSnapshot } from "../src/snapshot/next-month";
import { marketMoves, vacancyByType } from "../src/snapshot/month-moves";

const { values } = parseArgs({
  options: {
    properties: { type: "string" },
    months: { type: "string" },
    seed: { type: "string" },
    min: { type: "string" },
    "min-sales": { type: "string" },
  },
});
const PROPERTIES = Number(values.properties ?? 2000);
const MONTHS = Number(values.months ?? 12);
const SEED = Number(values.seed ?? 5);
const MIN = Number(values.min ?? 20);
/** Markets with this many sales in the last 12 months in both months: the cap-rate bound's. */
const MIN_SALES = Number(values["min-sales"] ?? 20);

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
  const moves = marketMoves(files, MIN);
  const most = { state: { bps: 0, at: "" }, other: { bps: 0, at: "" }, rent: { pct: 0, at: "" }, cap: { bps: 0, at: "" } };
  for (const { id, month, geography_type, before, now, vacancyBps, capRateBps, rentMoves } of moves) {
    const sold = Math.min(before.sales_count_12m, now.sales_count_12m);
    if (capRateBps !== null && sold >= MIN_SALES && Math.round(capRateBps) > most.cap.bps) {
      most.cap = {
        bps: Math.round(capRateBps),
        at: `${id} month ${month}: ${before.median_cap_rate} -> ${now.median_cap_rate}, ${sold} sales`,
      };
    }
    if (vacancyBps !== null) {
      const bps = Math.round(vacancyBps);
      const m = geography_type === "state" || geography_type === "national" ? most.state : most.other;
      if (bps > m.bps) Object.assign(m, { bps, at: `${id} month ${month}: ${before.vacancy_rate} -> ${now.vacancy_rate}` });
    }
    for (const r of rentMoves) {
      const pct = r.move * 100;
      if (pct > most.rent.pct)
        Object.assign(most.rent, { pct: Math.round(pct * 100) / 100, at: `${id} month ${month}: ${r.from} -> ${r.to}` });
    }
  }
  const compared = moves.length;
  console.log(`\nmarket-months compared (markets of ${MIN}+ properties): ${compared}`);
  console.log(`largest vacancy move, a state or US:  ${most.state.bps} bps (${most.state.at})`);
  console.log(`largest vacancy move, another market: ${most.other.bps} bps (${most.other.at})`);
  console.log(`largest asking-rent move:             ${most.rent.pct}% (${most.rent.at})`);
  console.log(`largest cap-rate move, ${MIN_SALES}+ sales:    ${most.cap.bps} bps (${most.cap.at})`);
  // The cap-rate moves by the markets' sales in the 12 months (the median's sample).
  const all = marketMoves(files, 0);
  for (const [lo, hi] of [
    [10, 20],
    [20, 40],
    [40, 80],
    [80, Infinity],
  ]) {
    const inBand = all.filter((m) => {
      const sold = Math.min(m.before.sales_count_12m, m.now.sales_count_12m);
      return m.capRateBps !== null && sold >= lo && sold < hi;
    });
    const top = inBand.reduce((a, m) => (m.capRateBps! > (a?.capRateBps ?? -1) ? m : a), inBand[0]);
    console.log(
      `cap-rate moves, ${lo}-${hi === Infinity ? "" : hi - 1} sales: ${inBand.length} market-months, largest ${top ? Math.round(top.capRateBps!) : 0} bps${top ? ` (${top.id} month ${top.month})` : ""}`,
    );
  }
  // Markets below --min: how far they move (the bounds above are not theirs).
  const thin = all.filter((m) => Math.min(m.before.property_count, m.now.property_count) < MIN);
  const top = (xs: (number | null)[]) => Math.round(Math.max(0, ...xs.filter((x): x is number => x !== null)));
  console.log(
    `markets under ${MIN} properties: ${thin.length} market-months; largest vacancy move ${top(thin.map((m) => m.vacancyBps))} bps, ` +
      `asking rent ${top(thin.flatMap((m) => m.rentMoves.map((r) => r.move * 10_000))) / 100}%`,
  );
  const [first, last] = [vacancyByType(files[0]), vacancyByType(files[MONTHS])];
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
