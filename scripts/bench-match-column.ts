// npm run bench:match-column [-- --rows 1000] [--snapshot FILE]
//
// A 1,000-address column matched through formulas: the built add-in (dist/addin/functions.js and
// taskpane.js in node:vm, as Excel's shared runtime loads them; scripts/bench-addin-harness.ts)
// against the real service in-process on loopback. The addresses are the snapshot's properties
// typed the ways analysts type them (scripts/address-variants.ts): mostly clean forms, some typos,
// some addresses the snapshot does not hold. Four phases, each with its HTTP requests, credits
// (X-Credits-Charged), seconds to settle and cells per outcome (a property id, #N/A, #VALUE!):
//   1. =PROP.MATCH(A2) ... =PROP.MATCH(A1001), one formula per row, calculated together;
//   2. the same cells calculated again (a recalculation);
//   3. =PROP.MATCH(A2:A1001), one formula over the range, in a fresh add-in (empty cache);
//   4. =PROP.MATCH(A2, B2, C2, D2) per row, the street, city, state and ZIP in their own columns;
//   5. the task pane's "Match a column" over the same column (src/taskpane/match-column.ts, in
//      this process with an add-in session of its own, as the pane runs it), then
//   6. the PROP.MATCH formulas it inserts, calculated in that session (the pane and the functions
//      share Excel's runtime, so one cache): answered from what the match fetched.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { AddressInfo } from "node:net";
import { openSnapshot } from "../src/snapshot/snapshot-file";
import { Random } from "../src/snapshot/generate/random";
import { buildApp } from "../src/server/app";
import { PLANS, type PlanId } from "../src/server/auth/plans";
import { type SqliteStores, openSqliteStores } from "../src/server/stores/sqlite";
import { createSession } from "../src/shared/addin-session";
import { SETTING_KEYS } from "../src/shared/setting-keys";
import type { KeyValueStorage } from "../src/shared/settings";
import { insertion, matchColumn } from "../src/taskpane/match-column";
import type { SheetBlock } from "../src/taskpane/workbook-types";
import { type Cell, type Counter, DIST, benchSnapshot, calculate, count, excelCall, loadAddin, newCounter } from "./bench-addin-harness";
import { type AddressVariant, type VariantGroup, type VariantRow, addressVariants, readVariantRows } from "./address-variants";

const USAGE = "usage: npm run bench:match-column [-- --rows N] [--snapshot FILE]";

/** The column's mix: mostly clean forms, some typos, some addresses the snapshot does not hold. */
const MIX: Record<VariantGroup, number> = { clean: 0.8, typo: 0.1, absent: 0.1 };
/** Seeds the variants and the order of the rows, so every run matches the same column. */
const SEED = 1;
/** The snapshot bench-addin.ts builds (and this benchmark shares with it). */
const DEFAULT_PROPERTIES = 10_000;

/** One row of the column: the address as one cell, and as separate street, city, state and ZIP cells. */
export interface BenchRow {
  /** The address-variants kind it was typed as ("as_stored", "street_typo", "invented_street", ...). */
  kind: string;
  group: VariantGroup;
  /** The property a correct match finds; null for an address the snapshot does not hold. */
  expected: string | null;
  line: string;
  street: string;
  city: string;
  state: string;
  zip: string;
}

/**
 * A one-line address as an analyst's separate columns hold it: the ZIP code at the end, then the
 * state and the city as the last two comma-separated parts, the rest the street line (with its
 * unit). A line without commas ("623 washington blvd austin tx 78721") is split at its
 * property's own city and state; failing that, the words stay in the street cell.
 */
function splitLine(line: string, property: VariantRow | undefined): Pick<BenchRow, "street" | "city" | "state" | "zip"> {
  let rest = line.trim().replace(/,$/, "").trim();
  const zipAt = /[\s,]+(\d{5}(?:-\d{4})?)$/.exec(rest);
  const zip = zipAt?.[1] ?? "";
  if (zipAt) rest = rest.slice(0, zipAt.index);
  const parts = rest.split(",").map((p) => p.trim());
  if (parts.length >= 3) {
    const state = parts.pop()!.replace(/\.$/, "");
    const city = parts.pop()!;
    return { street: parts.join(", "), city, state, zip };
  }
  if (parts.length === 1 && property) {
    const tail = ` ${property.city} ${property.state_code}`;
    if (rest.toLowerCase().endsWith(tail.toLowerCase())) {
      const at = rest.length - tail.length;
      const city = rest.slice(at + 1, at + 1 + property.city.length);
      return { street: rest.slice(0, at), city, state: rest.slice(-property.state_code.length), zip };
    }
  }
  return { street: parts.join(", "), city: "", state: "", zip };
}

/** A variant as a row of the column: a variant given as separate fields is joined into one line for the one-cell forms. */
function benchRow(v: AddressVariant, byId: Map<string, VariantRow>): BenchRow {
  const { address = "", city = "", state = "", zip = "" } = v.input;
  const separate = city !== "" || state !== "" || zip !== "";
  const line = separate ? [address, city, [state, zip].filter(Boolean).join(" ")].filter(Boolean).join(", ") : address;
  const fields = separate ? { street: address, city, state, zip } : splitLine(address, v.expected ? byId.get(v.expected) : undefined);
  return { kind: v.kind, group: v.group, expected: v.expected, line, ...fields };
}

/**
 * `count` rows in the MIX's shares, each group taken round-robin over its kinds (so each kind is
 * about equally common, and a kind short of rows is made up by the others), then shuffled into
 * one seeded order. The parcel-number kinds are left out: MATCH takes addresses.
 */
export function columnRows(variantRows: readonly VariantRow[], count: number): BenchRow[] {
  const typo = Math.round(count * MIX.typo);
  const absent = Math.round(count * MIX.absent);
  const wanted: [VariantGroup, number][] = [
    ["clean", count - typo - absent],
    ["typo", typo],
    ["absent", absent],
  ];
  const variants = addressVariants(variantRows, { seed: SEED, perKind: Math.max(...wanted.map(([, n]) => n)) }).filter(
    (v) => v.input.address !== undefined,
  );
  const byId = new Map(variantRows.map((r) => [r.id, r]));
  const picked: BenchRow[] = [];
  for (const [group, n] of wanted) {
    const kinds = new Map<string, AddressVariant[]>();
    for (const v of variants.filter((v) => v.group === group)) kinds.set(v.kind, [...(kinds.get(v.kind) ?? []), v]);
    const queues = [...kinds.values()];
    let taken = 0;
    while (taken < n && queues.some((q) => q.length > 0)) {
      for (const q of queues) {
        if (taken < n && q.length > 0) {
          picked.push(benchRow(q.shift()!, byId));
          taken++;
        }
      }
    }
    if (taken < n) throw new Error(`the snapshot gives only ${taken} ${group} addresses of the ${n} wanted: use a larger snapshot`);
  }
  const rng = new Random(SEED, "bench-match-column:order");
  for (let i = picked.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [picked[i], picked[j]] = [picked[j], picked[i]];
  }
  return picked;
}

export interface BenchService {
  /** The service's base URL on loopback ("http://127.0.0.1:PORT"). */
  origin: string;
  stores: SqliteStores;
  /** The column, in sheet order. */
  rows: BenchRow[];
  /** How many properties the snapshot holds. */
  properties: number;
  /** The plan freshKey's accounts are on. */
  plan: PlanId;
  /** A key on a new account: each phase spends a month of credits of its own. */
  freshKey(name: string): string;
  /** The harness's counter of requests and credits. */
  newCounter(): Counter;
  /** fetch, counting each answer into `counter` as the harness's add-in does. */
  countingFetch(counter: Counter): typeof fetch;
  close(): Promise<void>;
}

/**
 * The service in this process on loopback over the snapshot (`snapshot`, or bench-addin.ts's),
 * with an in-memory accounts store, and the column of `rows` addresses drawn from it. Fresh keys
 * are on Explorer (what sign-up gives, 1,000 credits a month: a matched row each, and a credit
 * held per row sent) while that covers the column; a longer column gets the operators' unlimited
 * plan, so no phase runs out of credits.
 */
export async function benchService(options: { rows: number; snapshot?: string }): Promise<BenchService> {
  const snapshotDb = openSnapshot(options.snapshot ?? benchSnapshot(DEFAULT_PROPERTIES));
  const variantRows = readVariantRows(snapshotDb);
  const rows = columnRows(variantRows, options.rows);
  const pepper = crypto.randomBytes(32);
  const stores = openSqliteStores(":memory:", pepper);
  const app = buildApp({ snapshotDb, stores, pepper });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const plan: PlanId = rows.length <= PLANS.explorer.monthlyCredits ? "explorer" : "unlimited";
  return {
    origin,
    stores,
    rows,
    properties: variantRows.length,
    plan,
    freshKey: (name) => stores.keys.createKey(stores.accounts.create(`${name}@bench.example`, plan).id, `bench ${name}`).raw,
    newCounter,
    countingFetch: (counter) => async (input, init) => {
      const response = await fetch(input, init);
      count(counter, init?.method ?? "GET", String(input), response);
      return response;
    },
    close: () => app.close(),
  };
}

/** What a cell (or a row of a spill) shows. */
export type Outcome = "id" | "#N/A" | "#VALUE!" | "other";

function outcomeOf(cell: unknown): Outcome {
  if (typeof cell === "string" && cell.startsWith("cp_")) return "id";
  const code = (cell as { code?: unknown } | null)?.code;
  return code === "#N/A" || code === "#VALUE!" ? code : "other";
}

export interface PhaseFigures {
  name: string;
  formulas: number;
  requests: number;
  credits: number;
  seconds: number;
  /** Rows per outcome: a one-row formula counts once, a spill once per row. */
  outcomes: Record<Outcome, number>;
  /** Each row's answer in column order (the property id, or the error's code), to compare phases. */
  answers: string[];
}

/**
 * Calculates `cells` together as Excel does (the harness's calculate: every cell at once, the
 * requests and credits `counter` saw meanwhile) and counts each row's outcome: a formula that
 * failed is one row of its error; one that answered is the rows of its spill.
 */
export async function measurePhase(name: string, cells: Cell[], run: (cell: Cell) => Promise<unknown>, counter: Counter) {
  const phase = await calculate(cells, run, counter);
  const answers = phase.results.flatMap((r) =>
    r.status === "rejected" ? [r.reason] : Array.isArray(r.value) ? (r.value as unknown[][]).map((row) => row[0]) : [r.value],
  );
  const outcomes: Record<Outcome, number> = { id: 0, "#N/A": 0, "#VALUE!": 0, other: 0 };
  for (const a of answers) outcomes[outcomeOf(a)]++;
  return {
    name,
    formulas: cells.length,
    requests: phase.requests,
    credits: phase.credits,
    seconds: phase.ms / 1000,
    outcomes,
    answers: answers.map((a) => (outcomeOf(a) === "id" ? String(a) : outcomeOf(a))),
  } satisfies PhaseFigures;
}

/**
 * The built add-in on a fresh key (empty cache), counting from zero once the pane's start-up
 * coverage call has settled: freshAddin's steps, with the key from service.freshKey (freshAddin
 * makes its own Explorer account, too small for a column longer than 1,000 rows).
 */
async function freshFormulas(service: BenchService, name: string) {
  const counter = service.newCounter();
  const addin = loadAddin(service.origin, service.freshKey(name), counter);
  await new Promise((r) => setTimeout(r, 200));
  Object.assign(counter, newCounter());
  return { counter, run: excelCall(addin.associated) };
}

/** A cell reference as a matrix argument receives it: a 1 x 1 array; an empty cell is "". */
const ref = (value: unknown) => [[value]];
/** A ZIP code typed into a cell: Excel keeps 78721 as a number (and drops a leading zero); ZIP+4 stays text. */
const zipCell = (zip: string) => (/^\d{5}$/.test(zip) ? Number(zip) : zip);

/** The four phases over the service's column. */
export async function formulaPhases(service: BenchService): Promise<PhaseFigures[]> {
  const { rows } = service;
  const perRow = rows.map((r): Cell => ({ id: "MATCH", args: [ref(r.line)], kind: "point" }));
  // A range arrives as a 2-D array of its values, rows x 1.
  const range: Cell[] = [{ id: "MATCH", args: [rows.map((r) => [r.line])], kind: "table" }];
  const split = rows.map((r): Cell => ({
    id: "MATCH",
    args: [ref(r.street), ref(r.city), ref(r.state), ref(zipCell(r.zip))],
    kind: "point",
  }));

  const first = await freshFormulas(service, "per-row");
  const phases = [await measurePhase("1. one formula per row", perRow, first.run, first.counter)];
  phases.push(await measurePhase("2. recalculation", perRow, first.run, first.counter));
  const whole = await freshFormulas(service, "range");
  phases.push(await measurePhase("3. one formula over the range", range, whole.run, whole.counter));
  const fields = await freshFormulas(service, "fields");
  phases.push(await measurePhase("4. separate street/city/state/zip", split, fields.run, fields.counter));
  return phases;
}

/**
 * The pane's Match a column over the column (one column of whole addresses under a header), in a
 * session of its own; then the formulas Insert writes, one per row, calculated in that session.
 */
export async function panePhases(service: BenchService): Promise<PhaseFigures[]> {
  const { rows } = service;
  const counter = service.newCounter();
  const items = new Map<string, string>([
    [SETTING_KEYS.apiKey, service.freshKey("pane")],
    [SETTING_KEYS.baseUrl, service.origin],
  ]);
  const storage: KeyValueStorage = {
    getItem: async (k) => items.get(k) ?? null,
    setItem: async (k, v) => void items.set(k, v),
    removeItem: async (k) => void items.delete(k),
  };
  const session = createSession({ storage: () => storage, fetch: service.countingFetch(counter) });
  const block: SheetBlock = {
    sheet: "Sheet1",
    selection: `Sheet1!A1:A${rows.length + 1}`,
    headerRow: 0,
    firstRow: 1,
    column: 0,
    header: ["Address"],
    rows: rows.map((r) => [r.line]),
    formulas: rows.map(() => [false]),
    selectedRows: rows.map((_, i) => i),
    selectedColumns: [0],
  };
  const paneRun = async () => {
    const match = await matchColumn(session, block, ["address"]);
    // What Insert writes is built too (its time counts); a header and a row per address.
    const { cells } = insertion(block, ["address"], match, new Map(), true);
    if (cells.length !== rows.length + 1) throw new Error(`the insertion has ${cells.length} rows`);
    // As a spill: a row per address, the id or the #N/A the formula shows.
    return match.rows.map((r) => [r.kind === "answered" && r.answer.status === "matched" ? r.answer.property_id : { code: "#N/A" }]);
  };
  const pane = await measurePhase("5. pane: Match a column", [{ id: "pane", args: [], kind: "table" }], paneRun, counter);
  // measurePhase counts the pane's one "cell" as a spill of its rows.
  const perRow = rows.map((r): Cell => ({ id: "MATCH", args: [r.line], kind: "point" }));
  // Each formula asks as PROP.MATCH does (CachedApi.match, the address read as the function
  // reads it); the cell's own shaping needs Excel's CustomFunctions, which the vm phases have.
  const formulas = await measurePhase(
    "6. pane: its inserted formulas",
    perRow,
    async (cell) => {
      const answer = await session.api.match({ address: String(cell.args[0]) });
      return answer.status === "matched" ? answer.property_id : { code: "#N/A" };
    },
    counter,
  );
  return [pane, formulas];
}

/** The figures as a plain-text table, then how each phase's answers compare with the first's. */
export function printFigures(phases: readonly PhaseFigures[]) {
  const header = ["phase".padEnd(36), "formulas", "requests", "credits", "seconds", "    ids", "   #N/A", "#VALUE!", "  other"];
  console.log(header.join("  "));
  for (const p of phases) {
    const cells = [
      p.name.padEnd(36),
      String(p.formulas).padStart(8),
      String(p.requests).padStart(8),
      String(p.credits).padStart(7),
      p.seconds.toFixed(2).padStart(7),
      ...(["id", "#N/A", "#VALUE!", "other"] as const).map((o) => String(p.outcomes[o]).padStart(7)),
    ];
    console.log(cells.join("  "));
  }
  const base = phases[0];
  const differing = phases.slice(1).map((p) => `${p.name.split(" ")[0]} ${p.answers.filter((a, i) => a !== base.answers[i]).length}`);
  console.log(`\nRows answered otherwise than in phase 1: ${differing.join(", ")}`);
}

/** The command line's options; anything else, or a --rows that is not a positive integer, exits with the usage. */
function options(): { rows: number; snapshot?: string } {
  try {
    // `npx tsx scripts/bench-match-column.ts -- --rows 500` passes the "--" on: skip it.
    const args = process.argv.slice(2);
    const { values } = parseArgs({
      args: args[0] === "--" ? args.slice(1) : args,
      options: { rows: { type: "string", default: "1000" }, snapshot: { type: "string" } },
    });
    if (!/^[1-9]\d*$/.test(values.rows)) throw new Error(`--rows must be a positive integer, got '${values.rows}'`);
    if (values.snapshot !== undefined && !fs.existsSync(values.snapshot)) throw new Error(`--snapshot: no file '${values.snapshot}'`);
    return { rows: Number(values.rows), snapshot: values.snapshot };
  } catch (err) {
    // node:util's message, without its hint about quoting arguments that start with "-".
    console.error(`${(err as Error).message.replace(/\. To specify a positional argument[\s\S]*$/, "")}\n${USAGE}`);
    process.exit(1);
  }
}

async function main() {
  const opts = options();
  if (!fs.existsSync(path.join(DIST, "functions.js"))) throw new Error("dist/addin/functions.js is missing: run npm run build:addin first");
  const service = await benchService(opts);
  let phases: PhaseFigures[];
  try {
    phases = [...(await formulaPhases(service)), ...(await panePhases(service))];
  } finally {
    await service.close();
  }

  const { rows } = service;
  const groups = (["clean", "typo", "absent"] as const).map((g) => `${rows.filter((r) => r.group === g).length} ${g}`).join(", ");
  const kinds = new Set(rows.map((r) => r.kind)).size;
  const distinct = new Set(rows.map((r) => r.line)).size;
  console.log(
    `\nMATCH over a ${rows.length.toLocaleString("en-US")}-address column (${groups}; ${kinds} ways of typing; ${distinct} distinct lines); snapshot of ${service.properties.toLocaleString("en-US")} properties; Node ${process.version}`,
  );
  console.log(`Credits from X-Credits-Charged. Each of phases 1, 3 and 4 on a fresh account, plan ${PLANS[service.plan].name}.\n`);
  printFigures(phases);

  const [perRow, recalc, range, fields, pane, inserted] = phases;
  // The matcher's own accuracy is match-accuracy.ts's subject; this only says whether the ids shown are the right ones.
  const wrongIds = perRow.answers.filter((a, i) => a.startsWith("cp_") && a !== rows[i].expected).length;
  console.log(`Ids in phase 1 that are not the property the row was typed from: ${wrongIds}`);
  const checks: [string, boolean, unknown][] = [
    ["recalculation makes 0 requests", recalc.requests === 0, recalc.requests],
    ["one formula over the range costs what one formula per row does", range.credits === perRow.credits, `${range.credits} credits`],
    // Split into fields, two lines of one property can become one row (Texas and TX are one state): at most the same.
    ["separate fields cost at most what one line does", fields.credits <= perRow.credits, `${fields.credits} credits`],
    ["the pane's match costs what the formulas do", pane.credits === perRow.credits, `${pane.credits} credits`],
    ["the formulas the pane inserts make 0 requests", inserted.requests === 0, inserted.requests],
    [
      "every row answered in every phase",
      phases.every((p) => p.answers.length === rows.length),
      phases.map((p) => p.answers.length).join("/"),
    ],
  ];
  console.log("");
  for (const [what, ok, value] of checks) console.log(`${ok ? "PASS" : "FAIL"}  ${what} (${value})`);
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
