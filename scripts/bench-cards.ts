// npm run bench:cards [-- --cards 1000] [--snapshot FILE]
//
// Property cards at the scale of a model: the built add-in (dist/addin/functions.js and
// taskpane.js in node:vm, as Excel's shared runtime loads them; scripts/bench-addin-harness.ts)
// against the real service in this process on loopback, over the add-in benchmarks' snapshot.
//   1. =PROP.CARD(id) over 1,000 distinct properties, calculated together, on a host with
//      CustomFunctionsRuntime 1.4: requests, credits, seconds to settle;
//   2. the same cells again (a recalculation: from the cache, no request);
//   3. the same cells on a host without 1.4 (the property id is the fallback), fresh account;
//   4. =PROP.SEARCH(,, "limit=1000; ids=cards"): one list, its id column as cards;
//   5. the same list without ids=cards.
// Then the build alone, in this process: buildCard over the 1,000 records and over the 1,000
// rows (the median of 20 rounds), and each card's size as JSON (what Excel holds per card).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { AddressInfo } from "node:net";
import { openSnapshot } from "../src/snapshot/snapshot-file";
import { buildApp } from "../src/server/app";
import { openSqliteStores } from "../src/server/stores/sqlite";
import { ALL_PROPERTY_FIELDS } from "../src/shared/property-batching";
import { PROPERTY_CARD, buildCard, type CardSpec, type PropertyCard } from "../src/functions/property-card";
import {
  type Cell,
  type Counter,
  DIST,
  benchSnapshot,
  calculate,
  errorText,
  excelCall,
  loadAddin,
  newCounter,
} from "./bench-addin-harness";

const USAGE = "usage: npm run bench:cards [-- --cards N] [--snapshot FILE]";
const ROUNDS = 20;
const CARDS_HOST = { CustomFunctionsRuntime: "1.4" };

function options(): { cards: number; snapshot?: string } {
  try {
    const args = process.argv.slice(2);
    const { values } = parseArgs({
      args: args[0] === "--" ? args.slice(1) : args,
      options: { cards: { type: "string", default: "1000" }, snapshot: { type: "string" } },
    });
    if (!/^[1-9]\d*$/.test(values.cards) || Number(values.cards) > 1000) {
      throw new Error(`--cards must be a whole number from 1 to 1000 (a list's most rows), got '${values.cards}'`);
    }
    if (values.snapshot !== undefined && !fs.existsSync(values.snapshot)) throw new Error(`--snapshot: no file '${values.snapshot}'`);
    return { cards: Number(values.cards), snapshot: values.snapshot };
  } catch (err) {
    console.error(`${(err as Error).message.replace(/\. To specify a positional argument[\s\S]*$/, "")}\n${USAGE}`);
    process.exit(1);
  }
}

interface Figures {
  name: string;
  formulas: number;
  requests: number;
  credits: number;
  ms: number;
  cards: number;
  failed: number;
}

const isCard = (v: unknown): v is PropertyCard => typeof v === "object" && v !== null && (v as PropertyCard).type === "Entity";

/** Calculates `cells` together and counts the cards among the answers (a cell, or the cells of a spill). */
async function phase(name: string, cells: Cell[], run: (cell: Cell) => Promise<unknown>, counter: Counter) {
  const result = await calculate(cells, run, counter);
  const values = result.results.flatMap((r) => (r.status === "fulfilled" ? (Array.isArray(r.value) ? r.value.flat() : [r.value]) : []));
  const failed = result.results.filter((r) => r.status === "rejected");
  if (failed.length > 0) console.error(`${name}: ${failed.length} failed, e.g. ${errorText(failed[0])}`);
  const figures: Figures = {
    name,
    formulas: cells.length,
    requests: result.requests,
    credits: result.credits,
    ms: result.ms,
    cards: values.filter(isCard).length,
    failed: failed.length,
  };
  return { figures, values };
}

/** The add-in on a new account of `plan`, with the host's requirement sets, counting from zero once the pane's start-up call settled. */
async function freshAddin(origin: string, key: string, sets: Record<string, string>) {
  const counter = newCounter();
  const addin = loadAddin(origin, key, counter, sets);
  await new Promise((r) => setTimeout(r, 200));
  Object.assign(counter, newCounter());
  return { counter, run: excelCall(addin.associated) };
}

/** The median milliseconds of building one card per record, `ROUNDS` times over. */
function buildMs(records: readonly Record<string, unknown>[], spec: CardSpec, serviceUrl: string): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    for (const record of records) if (!buildCard(record, spec, serviceUrl)) throw new Error("a record without an id");
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

function sizes(cards: readonly PropertyCard[]): { mean: number; max: number } {
  const bytes = cards.map((c) => Buffer.byteLength(JSON.stringify(c)));
  return { mean: bytes.reduce((a, b) => a + b, 0) / Math.max(1, bytes.length), max: Math.max(...bytes) };
}

async function main() {
  const opts = options();
  if (!fs.existsSync(path.join(DIST, "functions.js"))) throw new Error("dist/addin/functions.js is missing: run npm run build:addin first");
  const snapshotDb = openSnapshot(opts.snapshot ?? benchSnapshot(10_000));
  const ids = (snapshotDb.prepare("SELECT id FROM properties ORDER BY id LIMIT ?").all(opts.cards) as { id: string }[]).map((r) => r.id);
  if (ids.length < opts.cards) throw new Error(`the snapshot holds ${ids.length} properties, fewer than --cards ${opts.cards}`);
  const pepper = crypto.randomBytes(32);
  const stores = openSqliteStores(":memory:", pepper);
  const app = buildApp({ snapshotDb, stores, pepper });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // Explorer, what sign-up gives: 1,000 cards are 40 compare requests (80 credits).
  const key = (name: string) => stores.keys.createKey(stores.accounts.create(`${name}@bench.example`).id, `bench ${name}`).raw;
  const cardCells = ids.map((id): Cell => ({ id: "CARD", args: [id], kind: "point" }));
  const search = (options: string): Cell[] => [{ id: "SEARCH", args: [null, null, options], kind: "table" }];
  const phases: Figures[] = [];
  let pointCards: PropertyCard[] = [];
  let rowCards: PropertyCard[] = [];
  let records: Record<string, unknown>[] = [];
  let rows: Record<string, unknown>[] = [];
  try {
    const cards = await freshAddin(origin, key("cards"), CARDS_HOST);
    const first = await phase(`1. ${ids.length} PROP.CARD cells`, cardCells, cards.run, cards.counter);
    pointCards = first.values.filter(isCard);
    phases.push(first.figures, (await phase("2. recalculation", cardCells, cards.run, cards.counter)).figures);
    const plain = await freshAddin(origin, key("plain"), {});
    phases.push((await phase("3. host without 1.4 (ids)", cardCells, plain.run, plain.counter)).figures);
    const list = await freshAddin(origin, key("list"), CARDS_HOST);
    const carded = await phase(
      `4. SEARCH limit=${ids.length}; ids=cards`,
      search(`limit=${ids.length}; ids=cards`),
      list.run,
      list.counter,
    );
    rowCards = carded.values.filter(isCard);
    phases.push(carded.figures);
    const bare = await freshAddin(origin, key("bare"), CARDS_HOST);
    phases.push((await phase(`5. SEARCH limit=${ids.length}`, search(`limit=${ids.length}`), bare.run, bare.counter)).figures);

    // The records and rows the cards were built from, fetched again outside the add-in for the in-process build.
    const headers = { authorization: `Bearer ${key("records")}`, "content-type": "application/json" };
    for (let i = 0; i < ids.length; i += 25) {
      const response = await fetch(`${origin}/v1/commercial/properties/compare`, {
        method: "POST",
        headers,
        body: JSON.stringify({ property_ids: ids.slice(i, i + 25), fields: ALL_PROPERTY_FIELDS }),
      });
      records.push(...((await response.json()) as { properties: Record<string, unknown>[] }).properties);
    }
    for (let offset = 0; offset < ids.length; offset += 100) {
      const response = await fetch(`${origin}/v1/commercial/properties?limit=${Math.min(100, ids.length - offset)}&offset=${offset}`, {
        headers,
      });
      rows.push(...((await response.json()) as { data: Record<string, unknown>[] }).data);
    }
  } finally {
    await app.close();
  }
  records = records.slice(0, ids.length);
  rows = rows.slice(0, ids.length);

  const { n } = snapshotDb.prepare("SELECT count(*) AS n FROM properties").get() as { n: number };
  console.log(
    `\nProperty cards: ${ids.length.toLocaleString("en-US")} distinct properties of a ${n.toLocaleString("en-US")}-property snapshot; Node ${process.version}`,
  );
  console.log("Credits from X-Credits-Charged; each of phases 1, 3, 4 and 5 on a fresh Explorer account.\n");
  console.log(["phase".padEnd(34), "formulas", "requests", "credits", "     ms", "  cards", "failed"].join("  "));
  for (const p of phases) {
    console.log(
      [
        p.name.padEnd(34),
        String(p.formulas).padStart(8),
        String(p.requests).padStart(8),
        String(p.credits).padStart(7),
        p.ms.toFixed(0).padStart(7),
        String(p.cards).padStart(7),
        String(p.failed).padStart(6),
      ].join("  "),
    );
  }
  const point = sizes(pointCards);
  const row = sizes(rowCards);
  console.log(`\nBuilding the cards alone, in this process (median of ${ROUNDS} rounds):`);
  console.log(["cards from".padEnd(34), "  cards", "ms / all", "bytes mean", "bytes max"].join("  "));
  const line = (name: string, n: number, ms: number, s: { mean: number; max: number }) =>
    console.log(
      [name.padEnd(34), String(n).padStart(7), ms.toFixed(1).padStart(8), s.mean.toFixed(0).padStart(10), String(s.max).padStart(9)].join(
        "  ",
      ),
    );
  line("property records (PROP.CARD)", records.length, buildMs(records, PROPERTY_CARD, origin), point);
  line("search rows (ids=cards)", rows.length, buildMs(rows, PROPERTY_CARD, origin), row);
  console.log("(bytes: the card as JSON, UTF-8, as the add-in hands it to Excel)");
  const checks: [string, boolean][] = [
    ["every PROP.CARD cell is a card", pointCards.length === ids.length],
    ["the recalculation makes no request", phases[1].requests === 0],
    [
      "without 1.4, the same requests and credits, and no card",
      phases[2].requests === phases[0].requests && phases[2].credits === phases[0].credits && phases[2].cards === 0,
    ],
    ["ids=cards costs what the list costs", phases[3].requests === phases[4].requests && phases[3].credits === phases[4].credits],
    ["every row of the list has a card", rowCards.length === ids.length],
  ];
  console.log("");
  for (const [what, ok] of checks) console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
