// npm run bench:addin [-- --properties 10000 --points 1000 --distinct 100 --tables 50]
//
// A simulated underwriting model run through the built add-in (dist/addin/functions.js and
// taskpane.js in node:vm, as Excel's shared runtime loads them) against the real service on
// loopback: 1,000 =PROP.PROPERTY cells over 100 distinct properties plus 50 table cells
// (SALECOMPS, MARKET, ASSETSEARCH, DILIGENCE). It prints HTTP requests, credits and time for
// the first calculation, a recalculation, and a "Refresh workbook" with the snapshot
// unchanged, next to the same model run the naive way (one request per cell, every time).
// Figures, not a timed test: see docs/benchmarks.md ("Add-in").
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { AddressInfo } from "node:net";
import {
  type Cell,
  type Counter,
  type Phase,
  DIST,
  benchSnapshot,
  calculate,
  count,
  errorText,
  excelCall,
  freshAddin,
  loadAddin,
  newCounter,
} from "./bench-addin-harness";
import { openSnapshot, outdatedSnapshot } from "../src/snapshot/snapshot-file";
import { nextMonthSnapshot } from "../src/snapshot/next-month";
import { nextSnapshotScenario, pinnedModelScenario } from "./bench-addin-snapshots";
import { buildApp } from "../src/server/app";
import { type SqliteStores, openSqliteStores } from "../src/server/stores/sqlite";
import { STATE_CODES, stateName } from "../src/contract/states";

const USAGE = "usage: npm run bench:addin [-- --properties N] [--points N] [--distinct N] [--tables N]";

/** The command line's options as numbers; anything else, or a value that is not a positive integer, exits with the usage. */
function options(): Record<"properties" | "points" | "distinct" | "tables", number> {
  try {
    const { values } = parseArgs({
      options: {
        properties: { type: "string", default: "10000" },
        points: { type: "string", default: "1000" },
        distinct: { type: "string", default: "100" },
        tables: { type: "string", default: "50" },
      },
    });
    const number = (name: keyof typeof values) => {
      if (!/^[1-9]\d*$/.test(values[name])) throw new Error(`--${name} must be a positive integer, got '${values[name]}'`);
      return Number(values[name]);
    };
    return { properties: number("properties"), points: number("points"), distinct: number("distinct"), tables: number("tables") };
  } catch (err) {
    // node:util's message, without its hint about quoting arguments that start with "-".
    console.error(`${(err as Error).message.replace(/\. To specify a positional argument[\s\S]*$/, "")}\n${USAGE}`);
    process.exit(1);
  }
}

const OPTIONS = options();
const PROPERTIES = OPTIONS.properties;
const POINT_CELLS = OPTIONS.points;
const DISTINCT = OPTIONS.distinct;
const TABLE_CELLS = OPTIONS.tables;
const FIELDS = [
  "name",
  "asset_type",
  "year_built",
  "building_area_sqft",
  "occupancy_rate",
  "estimated_value",
  "owner_name",
  "last_sale_price",
  "city",
  "state_code",
];

/** The model's cells over real ids of the snapshot. */
function model(db: ReturnType<typeof openSnapshot>): Cell[] {
  const properties = db
    .prepare(
      "SELECT id, asset_type, state_code FROM properties WHERE asset_type IN ('industrial','office','retail','multifamily') ORDER BY id LIMIT ?",
    )
    .all(DISTINCT) as { id: string; asset_type: string; state_code: string }[];
  const cells: Cell[] = [];
  for (let i = 0; i < POINT_CELLS; i++) {
    cells.push({
      id: "PROPERTY",
      args: [properties[i % properties.length].id, FIELDS[Math.floor(i / properties.length) % FIELDS.length]],
      kind: "point",
    });
  }
  for (let i = 0; i < TABLE_CELLS; i++) {
    const p = properties[i % properties.length];
    const table: Cell[] = [
      { id: "SALECOMPS", args: [p.id, null, "limit=10; cols=sale_date,sale_price,cap_rate"], kind: "table" },
      { id: "SALECOMPS", args: [p.state_code, p.asset_type, "limit=10"], kind: "table" },
      { id: "MARKET", args: [p.state_code, p.asset_type, null, null], kind: "table" },
      { id: "ASSETSEARCH", args: [p.asset_type, p.state_code, "limit=25; cols=id,name,building_area_sqft"], kind: "table" },
      { id: "DILIGENCE", args: [p.asset_type, p.state_code, "limit=10"], kind: "table" },
    ];
    cells.push(table[i % table.length]);
  }
  return cells;
}

/** The naive add-in: one request per cell, on every calculation, no cache. */
function naiveCell(origin: string, apiKey: string, counter: Counter) {
  const get = async (pathAndQuery: string) => {
    const url = `${origin}${pathAndQuery}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}`, accept: "application/json" } });
    count(counter, "GET", url, response);
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${pathAndQuery}`);
    return (await response.json()) as Record<string, unknown>;
  };
  return async (cell: Cell) => {
    const [a, b, c] = cell.args as string[];
    const options = Object.fromEntries(
      String(c ?? "")
        .split(";")
        .filter((s) => s.includes("=") && !s.includes("cols"))
        .map((s) => s.trim().split("=")),
    );
    switch (cell.id) {
      case "PROPERTY":
        return (await get(`/v1/commercial/properties/${a}`))[b];
      case "SALECOMPS":
        return get(
          `/v1/commercial/sale-comps?${new URLSearchParams({ ...(a.startsWith("cp_") ? { property_id: a } : { state_code: a, asset_type: b }), ...options })}`,
        );
      case "MARKET":
        return get(`/v1/commercial/markets/snapshot?${new URLSearchParams({ geography: a, asset_type: b })}`);
      case "ASSETSEARCH":
        return get(`/v1/commercial/assets/${a}/properties?${new URLSearchParams({ state_code: b, ...options })}`);
      case "DILIGENCE":
        return get(`/v1/commercial/diligence/candidates?${new URLSearchParams({ asset_type: a, state_code: b, ...options })}`);
      default:
        throw new Error(`no naive form of ${cell.id}`);
    }
  };
}

/**
 * Point cells whose add-in answer differs from the naive model's: the value itself, or #N/A
 * "not recorded" where the service's record has null. Table cells are checked by the tests.
 */
function mismatches(cells: Cell[], addin: Phase, naive: Phase): number {
  let wrong = 0;
  cells.forEach((cell, i) => {
    if (cell.kind !== "point") return;
    const ours = addin.results[i];
    const theirs = naive.results[i];
    const expected = theirs.status === "fulfilled" ? theirs.value : undefined;
    const same =
      ours.status === "fulfilled"
        ? ours.value === expected
        : expected === null && String((ours.reason as { message?: string }).message).includes("is not recorded");
    if (!same) wrong++;
  });
  return wrong;
}

function row(name: string, addin: Phase, naive: Phase): string {
  const cells = [
    name.padEnd(24),
    String(addin.requests).padStart(8),
    String(addin.pointRequests).padStart(7),
    String(addin.credits).padStart(8),
    addin.ms.toFixed(0).padStart(8),
    "  |",
    String(naive.requests).padStart(8),
    String(naive.credits).padStart(8),
    naive.ms.toFixed(0).padStart(8),
  ];
  return cells.join(" ");
}

/** 250 distinct =PROP.MARKET(state, asset_type, metric) cells, 50 states x 5 asset types, calculated at once. */
async function gridScenario(origin: string, stores: SqliteStores) {
  const { counter, run } = await freshAddin(origin, stores, "grid");
  const states = STATE_CODES.filter((s) => s !== "DC").slice(0, 50);
  const types = ["multifamily", "industrial", "office", "retail", "flex"];
  const cells: Cell[] = states.flatMap((s) =>
    types.map((t): Cell => ({ id: "MARKET", args: [s, t, "vacancy_rate", null], kind: "point" })),
  );
  const phase = await calculate(cells, run, counter);
  const errors = phase.results.filter((r) => r.status === "rejected");
  const rateLimited = errors.filter((r) => /too many requests/i.test(errorText(r))).length;
  const noData = errors.filter((r) => /is not recorded for|has no .* properties/i.test(errorText(r))).length;
  return {
    cells: cells.length,
    phase,
    errors: errors.length,
    rateLimited,
    noData,
    status429: counter.statuses["429"] ?? 0,
    statuses: counter.statuses,
  };
}

/**
 * 150 distinct table cells (sale comps of 150 cities): no batch form, one request each, so
 * well past the plan's burst of 60. The add-in paces them to the key's rate limit.
 */
async function pacedTablesScenario(origin: string, stores: SqliteStores, db: ReturnType<typeof openSnapshot>) {
  const { counter, run } = await freshAddin(origin, stores, "paced");
  const cities = db
    .prepare(
      "SELECT name FROM places WHERE kind = 'city' AND code IN (SELECT 'city-' || lower(replace(city, ' ', '-')) || '-' || lower(state_code) FROM sales) ORDER BY record_count DESC LIMIT 150",
    )
    .pluck()
    .all() as string[];
  const cells: Cell[] = cities.map((c): Cell => ({ id: "SALECOMPS", args: [c, null, "limit=5"], kind: "table" }));
  const phase = await calculate(cells, run, counter);
  const errors = phase.results.filter((r) => r.status === "rejected");
  return {
    cells: cells.length,
    phase,
    errors: errors.length,
    rateLimited: errors.filter((r) => /too many requests/i.test(errorText(r))).length,
    status429: counter.statuses["429"] ?? 0,
  };
}

/** Case and spacing variants of 20 places through MARKET and SALECOMPS: each place should cost one request per function. */
async function variantsScenario(origin: string, stores: SqliteStores, db: ReturnType<typeof openSnapshot>) {
  const { counter, run } = await freshAddin(origin, stores, "variants");
  const places = db
    .prepare(
      `SELECT s.city, s.state_code FROM markets m JOIN (SELECT DISTINCT city, state_code FROM sales) s ON m.geography_name = s.city || ', ' || s.state_code
       WHERE m.geography_type = 'city' AND m.asset_type = 'industrial' AND s.city NOT LIKE '% %' ORDER BY m.property_count DESC LIMIT 20`,
    )
    .all() as { city: string; state_code: string }[];
  const variants = (p: { city: string; state_code: string }) => [
    `${p.city}, ${p.state_code}`,
    `${p.city.toLowerCase()}, ${p.state_code.toLowerCase()}`,
    `${p.city.toUpperCase()}, ${p.state_code}`,
    `${p.city},${p.state_code}`,
    `${p.city} ${p.state_code}`,
    `${p.city}, ${stateName(p.state_code)}`,
  ];
  const cells: Cell[] = places.flatMap((p) =>
    variants(p).flatMap((v): Cell[] => [
      { id: "MARKET", args: [v, "industrial", "vacancy_rate", null], kind: "point" },
      { id: "SALECOMPS", args: [v, null, "limit=5"], kind: "table" },
    ]),
  );
  const phase = await calculate(cells, run, counter);
  const errors = phase.results.filter((r) => r.status === "rejected").length;
  return { places: places.length, variantsEach: variants(places[0]).length, cells: cells.length, phase, errors };
}

/** Places the snapshot does not hold, and impossible ranges: none should cost a credit. */
async function unresolvableScenario(origin: string, stores: SqliteStores) {
  const { counter, run } = await freshAddin(origin, stores, "unresolvable");
  const places = [
    "New York, NY",
    "Austin, CA",
    "Springfeld, IL",
    "Sacramento, NV",
    "Dallas, OK",
    "Atlantis, FL",
    "Gotham, NJ",
    "Gotham County, NY",
    "Smallville, KS",
    "Springfield, AK",
    "Los Angelos, CA",
    "Phenix, AZ",
    "Seatle, WA",
    "Bostn, MA",
    "Chicag, IL",
    "Denvr, CO",
    "Mimi, FL",
    "Huston, TX",
    "00000",
    "metro-atlantis-fl",
  ];
  const cells: Cell[] = places.flatMap((p): Cell[] => [
    { id: "SALECOMPS", args: [p, null, "limit=5"], kind: "table" },
    { id: "SEARCH", args: [null, p, "limit=5"], kind: "table" },
    { id: "MARKET", args: [p, "office", "vacancy_rate", null], kind: "point" },
  ]);
  cells.push(
    { id: "SALECOMPS", args: ["TX", null, "min_sale_date=2024-01-01; max_sale_date=2023-01-01"], kind: "table" },
    { id: "SALECOMPS", args: ["TX", null, "min_price=5000000; max_price=1000000"], kind: "table" },
    { id: "LISTINGS", args: ["TX", null, "min_price=900000; max_price=100000"], kind: "table" },
  );
  const phase = await calculate(cells, run, counter);
  const answered = cells
    .filter((_, i) => phase.results[i].status === "fulfilled")
    .map((c) => `${c.id}(${c.args.filter((a) => a !== null).join(", ")})`);
  return { cells: cells.length, phase, answered, statuses: counter.statuses };
}

/** 50 markets x 3 metrics, one =PROP.MARKETHISTORY cell each (default span: the last 40 quarters). */
async function historyGridScenario(origin: string, stores: SqliteStores, db: ReturnType<typeof openSnapshot>) {
  const { counter, run } = await freshAddin(origin, stores, "history");
  const markets = db
    .prepare(
      "SELECT geography_id FROM markets WHERE geography_type = 'state' AND asset_type = 'industrial' ORDER BY property_count DESC LIMIT 50",
    )
    .pluck()
    .all() as string[];
  const metrics = ["asking_rent_sqft_year", "vacancy_rate", "median_cap_rate"];
  const cells: Cell[] = markets.flatMap((m) =>
    metrics.map((metric): Cell => ({ id: "MARKETHISTORY", args: [m, "industrial", metric], kind: "table" })),
  );
  const phase = await calculate(cells, run, counter);
  const fulfilled = phase.results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<unknown[][]> | undefined;
  return {
    cells: cells.length,
    markets: markets.length,
    metrics: metrics.length,
    phase,
    errors: phase.results.filter((r) => r.status === "rejected").length,
    rows: fulfilled ? fulfilled.value.length - 1 : 0,
  };
}

/** The two months after the bench snapshot (npm run snapshot -- next-month), built once and kept beside it. */
function nextMonths(base: string): [string, string] {
  const files: string[] = [];
  let from = base;
  for (const n of [1, 2]) {
    const out = base.replace(/\.db$/, `.next${n}.db`);
    if (!fs.existsSync(out) || outdatedSnapshot(out) || fs.statSync(out).mtimeMs < fs.statSync(from).mtimeMs) {
      console.log(`Building the month ${n} after the bench snapshot into ${out} (once)...`);
      nextMonthSnapshot({ from, out });
    }
    files.push(out);
    from = out;
  }
  return files as [string, string];
}

/** How many properties' detail answers the next month changed, measured from the two files. */
function next1Changed(base: string, next: string): string {
  const db = openSnapshot(base);
  try {
    db.prepare("ATTACH DATABASE ? AS next").run(next);
    const total = db.prepare("SELECT count(*) FROM property_docs").pluck().get() as number;
    const changed = db
      .prepare("SELECT count(*) FROM property_docs a LEFT JOIN next.property_docs b ON b.id = a.id WHERE b.json IS NOT a.json")
      .pluck()
      .get() as number;
    return `${changed.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} properties changed, ${((changed / total) * 100).toFixed(1)}%`;
  } finally {
    db.close();
  }
}

async function main() {
  if (!fs.existsSync(path.join(DIST, "functions.js"))) throw new Error("dist/addin/functions.js is missing: run npm run build:addin first");
  const snapshotPath = benchSnapshot(PROPERTIES);
  const snapshotDb = openSnapshot(snapshotPath);
  const pepper = crypto.randomBytes(32);
  const stores = openSqliteStores(":memory:", pepper);
  const app = buildApp({ snapshotDb, stores, pepper });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // One account per model, so each sees its own credits. The add-in runs on the default plan
  // (Explorer: 1,000 credits a month, bursts of 60 requests); the naive model needs more than
  // that, so it runs on the operators' load-test plan where the service has one.
  const addinKey = stores.keys.createKey(stores.accounts.create("addin@bench.example").id, "bench add-in").raw;
  const naiveKey = stores.keys.createKey(stores.accounts.create("naive@bench.example", "unlimited").id, "bench naive").raw;
  const cells = model(snapshotDb);

  const addinCounter = newCounter();
  const addin = loadAddin(origin, addinKey, addinCounter);
  // Let the pane's own start-up check (a free coverage call) finish before counting.
  await new Promise((r) => setTimeout(r, 200));
  Object.assign(addinCounter, newCounter());
  const runAddin = excelCall(addin.associated);
  const first = await calculate(cells, runAddin, addinCounter);
  const recalc = await calculate(cells, runAddin, addinCounter);
  // "Refresh workbook" on the ribbon: the snapshot check, then Excel's full recalculation.
  const refreshCheck = { ...addinCounter };
  const refreshStarted = performance.now();
  await new Promise<void>((resolve) => void addin.actions.get("refreshWorkbook")!({ completed: resolve }));
  const refreshRecalc = await calculate(cells, runAddin, addinCounter);
  const refresh: Phase = {
    ...refreshRecalc,
    requests: addinCounter.requests - refreshCheck.requests,
    credits: addinCounter.credits - refreshCheck.credits,
    ms: performance.now() - refreshStarted,
  };

  const naiveCounter = newCounter();
  const runNaive = naiveCell(origin, naiveKey, naiveCounter);
  const naive = [
    await calculate(cells, runNaive, naiveCounter),
    await calculate(cells, runNaive, naiveCounter),
    await calculate(cells, runNaive, naiveCounter),
  ];
  // The history grid and the snapshot scenarios come last: they publish newer snapshots.
  const history = await historyGridScenario(origin, stores, snapshotDb);
  const firstId = app.liveSnapshot.current.ref.id;
  const [next1, next2] = nextMonths(snapshotPath);
  // The pinned model is calculated on the snapshot served now; then the next month is published
  // under the unpinned model (refreshed, and calculated afresh), then a third snapshot, and the
  // pinned model is refreshed.
  const pinnedModel = await pinnedModelScenario(origin, stores, cells, firstId);
  const nextMonth = await nextSnapshotScenario(origin, stores, cells, async () => void (await app.liveSnapshot.rollout(next1)));
  await app.liveSnapshot.rollout(next2);
  const pinned = await pinnedModel.refresh();
  const grid = await gridScenario(origin, stores);
  const paced = await pacedTablesScenario(origin, stores, snapshotDb);
  const variants = await variantsScenario(origin, stores, snapshotDb);
  const unresolvable = await unresolvableScenario(origin, stores);
  await app.close();

  const points = cells.filter((c) => c.kind === "point").length;
  const distinct = new Set(cells.filter((c) => c.kind === "point").map((c) => c.args[0])).size;
  console.log(
    `\nAdd-in benchmark: ${points} point cells over ${distinct} properties + ${cells.length - points} table cells; snapshot of ${PROPERTIES.toLocaleString("en-US")} properties; Node ${process.version}`,
  );
  console.log(
    `Credits ${addinCounter.creditsFromHeaders || naiveCounter.creditsFromHeaders ? "from X-Credits-Charged" : "from the published cost of each successful call (the service sent no X-Credits-Charged)"}.`,
  );
  console.log(
    "Plans: add-in on Explorer (the default); naive on the operators' unlimited plan (it would exceed Explorer's 1,000 credits and 60-request burst).\n",
  );
  console.log(`${"".padEnd(24)} ${"add-in (cached, batched)".padEnd(35)}  | naive (one request per cell)`);
  console.log(
    `${"".padEnd(24)} ${"requests".padStart(8)} ${"point".padStart(7)} ${"credits".padStart(8)} ${"ms".padStart(8)}   | ${"requests".padStart(8)} ${"credits".padStart(8)} ${"ms".padStart(8)}`,
  );
  console.log(row("first calculation", first, naive[0]));
  console.log(row("recalculation", recalc, naive[1]));
  console.log(row("refresh, same snapshot", refresh, naive[2]));
  const perDistinct = Math.ceil(distinct / 25);
  const wrong = [first, recalc, refreshRecalc].reduce((n, phase) => n + mismatches(cells, phase, naive[0]), 0);
  const empty = first.results.filter((r, i) => cells[i].kind === "point" && r.status === "rejected").length;
  const checks: [string, boolean, unknown][] = [
    [
      `point cells on first calculation <= ${perDistinct} requests (1 per 25 distinct properties)`,
      first.pointRequests <= perDistinct,
      first.pointRequests,
    ],
    ["recalculation makes 0 requests", recalc.requests === 0, recalc.requests],
    ["refresh with an unchanged snapshot costs 0 credits", refresh.credits === 0, refresh.credits],
    ["every point cell answers what the naive model read from the service, in every phase", wrong === 0, `${wrong} differ`],
  ];
  console.log("");
  for (const [what, ok, value] of checks) console.log(`${ok ? "PASS" : "FAIL"}  ${what} (${value})`);
  console.log(`(${empty} point cells are #N/A in both models: the property has no value for that field.)`);
  console.log(`\nStatuses: add-in ${JSON.stringify(addinCounter.statuses)}, naive ${JSON.stringify(naiveCounter.statuses)}`);

  console.log(
    `\nMarket grid: ${grid.cells} distinct =PROP.MARKET(state, asset_type, "vacancy_rate") cells, fresh Explorer account, one calculation`,
  );
  console.log(
    `  cells in error ${grid.errors} (rate-limited ${grid.rateLimited}; #N/A because the market records no such figure ${grid.noData}), requests ${grid.phase.requests}, 429s received ${grid.status429}, credits ${grid.phase.credits}, settled in ${(grid.phase.ms / 1000).toFixed(2)} s`,
  );
  console.log(`  statuses ${JSON.stringify(grid.statuses)}`);
  console.log(
    `\nPaced tables: ${paced.cells} distinct =PROP.SALECOMPS(city) cells (no batch form), fresh Explorer account, one calculation`,
  );
  console.log(
    `  cells in error ${paced.errors} (rate-limited ${paced.rateLimited}), requests ${paced.phase.requests}, 429s received ${paced.status429}, credits ${paced.phase.credits}, settled in ${(paced.phase.ms / 1000).toFixed(2)} s`,
  );
  console.log(
    `\nPlace variants: ${variants.places} places x ${variants.variantsEach} spellings, through MARKET and SALECOMPS (${variants.cells} cells)`,
  );
  console.log(
    `  requests ${variants.phase.requests} (one per place and function would be ${variants.places * 2}), credits ${variants.phase.credits}, cells in error ${variants.errors}`,
  );
  console.log(
    `\nUnresolvable: 20 places the snapshot does not hold (SALECOMPS, SEARCH, MARKET each) and 3 impossible ranges (${unresolvable.cells} cells)`,
  );
  console.log(
    `  credits ${unresolvable.phase.credits}, requests ${unresolvable.phase.requests}, statuses ${JSON.stringify(unresolvable.statuses)}`,
  );
  if (unresolvable.answered.length) console.log(`  answered with a value: ${unresolvable.answered.join("; ")}`);
  checks.push(
    ["market grid: 0 cells in error after the first calculation", grid.errors - grid.noData === 0, grid.errors - grid.noData],
    ["market grid: 0 rate-limit answers (429) received", grid.status429 === 0, grid.status429],
    [
      "paced tables: 0 cells in error and 0 rate-limit answers (429)",
      paced.errors === 0 && paced.status429 === 0,
      `${paced.errors} errors, ${paced.status429} 429s`,
    ],
    ["place variants: one request per place and function", variants.phase.requests <= variants.places * 2, variants.phase.requests],
    ["unresolvable places and impossible ranges: 0 credits", unresolvable.phase.credits === 0, unresolvable.phase.credits],
  );
  for (const [what, ok, value] of checks.slice(-5)) console.log(`${ok ? "PASS" : "FAIL"}  ${what} (${value})`);
  console.log(
    `\nMarket history grid: ${history.cells} =PROP.MARKETHISTORY cells, ${history.markets} markets x ${history.metrics} metrics, 40 quarters each, fresh Explorer account, one calculation`,
  );
  console.log(
    `  requests ${history.phase.requests}, credits ${history.phase.credits}, cells in error ${history.errors}, rows per spill ${history.rows}, settled in ${(history.phase.ms / 1000).toFixed(2)} s`,
  );
  const share = nextMonth.full.credits === 0 ? 0 : nextMonth.refresh.credits / nextMonth.full.credits;
  console.log(
    `\nNext month: the model above, then a snapshot a month later (${next1Changed(snapshotPath, next1)}) published, then Refresh workbook`,
  );
  console.log(
    `  refresh: requests ${nextMonth.refresh.requests}, credits ${nextMonth.refresh.credits} (${(share * 100).toFixed(1)}% of the ${nextMonth.full.credits} credits of calculating it afresh), cells changed ${nextMonth.cellsChanged}, ${(nextMonth.refresh.ms / 1000).toFixed(2)} s`,
  );
  console.log(`  credits of the refresh by kind of cell: ${JSON.stringify(nextMonth.byKind)}`);
  console.log(`\nPinned model: the model with as_of=${firstId}, calculated, then two newer snapshots published, then Refresh workbook`);
  console.log(
    `  refresh: requests ${pinned.refresh.requests}, credits ${pinned.refresh.credits}, cells that differ from the first calculation ${pinned.cellsChanged}`,
  );
  checks.push(
    ["market history grid: 0 cells in error", history.errors === 0, history.errors],
    ["next month: refresh bills at most 10% of a full refresh", share <= 0.1, `${(share * 100).toFixed(1)}%`],
    ["next month: every refreshed cell equals a fresh calculation on the new data", nextMonth.wrong === 0, `${nextMonth.wrong} differ`],
    [
      "pinned model: 0 cells differ and 0 credits after two newer snapshots",
      pinned.cellsChanged === 0 && pinned.refresh.credits === 0,
      `${pinned.cellsChanged} differ, ${pinned.refresh.credits} credits`,
    ],
  );
  for (const [what, ok, value] of checks.slice(-4)) console.log(`${ok ? "PASS" : "FAIL"}  ${what} (${value})`);
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
