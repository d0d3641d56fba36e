// Worker-thread entry (see parts.ts): makes the other parcels and writes the part tables of a
// parallel build (parcels, listings, sales) into a part file, taking each round's rows from
// the main thread in order, and hands back the markets' sales groups; then writes the market
// history there too, from its sales and the markets the main thread hands over, and hands back
// the history's coverage. It blocks on shared flags between steps, so it needs no event loop.
// Nothing happens when this module is imported outside such a worker.
import { isMainThread, receiveMessageOnPort, workerData } from "node:worker_threads";
import { DONE, FAILED, HISTORY_POSTED, POSTED, SALES_READY, STARTED, STATE } from "./part-flags";
import type { HistoryBase } from "../derive/market-history";
import type { PlaceColumns } from "../derive/places";
import type { PartWorkerData } from "./parts";
import type { RoundBatch } from "./plan";

function waitForRound(data: PartWorkerData, flags: Int32Array, k: number): RoundBatch {
  for (;;) {
    const posted = Atomics.load(flags, POSTED);
    const msg = receiveMessageOnPort(data.port);
    if (msg) {
      const batch = msg.message as RoundBatch;
      if (batch.round !== k) throw new Error(`expected round ${k}, got ${batch.round}`);
      return batch;
    }
    Atomics.wait(flags, POSTED, posted, 100);
  }
}

function waitForHistory(data: PartWorkerData, flags: Int32Array): HistoryBase {
  for (;;) {
    const msg = receiveMessageOnPort(data.port);
    if (msg) {
      const { history } = msg.message as { history?: HistoryBase };
      if (!history) throw new Error("expected market history's base");
      return history;
    }
    Atomics.wait(flags, HISTORY_POSTED, 0, 100);
  }
}

function run(data: PartWorkerData): void {
  const flags = new Int32Array(data.flags);
  Atomics.store(flags, STATE, STARTED);
  try {
    // Loaded here, not at the top, so a failure to load is reported like any other.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { SnapshotWriter } = require("../snapshot-file") as typeof import("../snapshot-file");
    const { makeContext } = require("./context") as typeof import("./context");
    const { insertBatch, OtherParcels } = require("./others") as typeof import("./others");
    const { planFor, PART_TABLES } = require("./plan") as typeof import("./plan");
    const { salesGroups } = require("../derive/markets") as typeof import("../derive/markets");
    const { windowsFor } = require("../derive/windows") as typeof import("../derive/windows");
    const { PlaceTally } = require("../derive/places") as typeof import("../derive/places");
    const { HistorySalesTally } = require("../derive/history-inputs") as typeof import("../derive/history-inputs");
    const plan = planFor(data.options.properties);
    const others = new OtherParcels(makeContext(data.options, "parcels"), plan);
    const capture = windowsFor(data.options.capturedAt).capture;
    // The places and the history's sales groups, counted as the rows go in (no scan afterwards).
    const places = new PlaceTally();
    const historySales = new HistorySalesTally(capture);
    const w = new SnapshotWriter(data.path, (table, row) => {
      if (table === "parcels" || table === "listings" || table === "sales") places.add(table, row as PlaceColumns);
    });
    for (let k = 0; k < plan.rounds; k++) {
      w.transaction(() => {
        others.writeRound(w, k);
        const batch = waitForRound(data, flags, k);
        insertBatch(w, batch);
        for (const sale of batch.sales) historySales.add(sale);
      });
    }
    // The main thread derives markets as soon as it has these; the indexes can wait.
    data.port.postMessage({ salesGroups: salesGroups(w.db, windowsFor(data.options.capturedAt)) });
    Atomics.store(flags, SALES_READY, 1);
    Atomics.notify(flags, STATE); // the main thread sleeps on STATE
    // The part's indexes while the main thread derives the markets;
    // then the history, while it indexes and renders documents.
    const { writeMarketHistory } = require("../derive/market-history") as typeof import("../derive/market-history");
    const { cycleHistory } = require("./cycle-history") as typeof import("./cycle-history");
    const laps: string[] = [];
    let t = performance.now();
    const lap = (what: string) => {
      laps.push(`${what} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      t = performance.now();
    };
    const sales = historySales.rows();
    lap("market history's sales rows");
    w.createIndexes(PART_TABLES);
    lap("indexes");
    const base = waitForHistory(data, flags);
    lap("waited for the markets");
    const model = cycleHistory(data.options.seed);
    const history = w.transaction(() => writeMarketHistory(w.db, base, { capture, model, sales, log: (m) => laps.push(m) }));
    w.close();
    data.port.postMessage({ history, places: places.part(), laps });
    Atomics.store(flags, STATE, DONE);
  } catch (err) {
    data.port.postMessage({ error: (err as Error).stack ?? String(err) });
    Atomics.store(flags, STATE, FAILED);
  }
  Atomics.notify(flags, STATE);
  data.port.close();
}

if (!isMainThread && (workerData as PartWorkerData | null)?.role === "snapshot-part") run(workerData as PartWorkerData);
