// Where the part tables (parcels, listings, sales) get written. Inline, they go straight into
// the snapshot. In parallel, a worker thread makes the other parcels and writes the three tables,
// with their indexes, into a part file while this thread makes properties; the part is then
// copied in (SQLite's transfer optimisation copies rows and index b-trees as they are, with no
// re-sorting). The worker also computes the markets' sales groups from its sales, so markets
// can be derived before the copy. It also writes the market history into the part file, from
// the sales it holds and the markets and properties' facts this thread hands it (HistoryBase), while
// this thread indexes and renders documents; the history is copied in with the part tables.
// Either way each table gets the same rows in the same order.
import fs from "node:fs";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { SalesGroup } from "../derive/markets";
import type { HistoryCoverage } from "../../contract/coverage";
import type { HistoryBase } from "../derive/market-history";
import type { PartPlaces } from "../derive/places";
import type { SnapshotWriter } from "../snapshot-file";
import type { GenContext, GenerateOptions } from "./context";
import { insertBatch, OtherParcels } from "./others";
import { DONE, FAILED, HISTORY_POSTED, POSTED, SALES_READY, SLOTS, STATE } from "./part-flags";
import { PART_TABLES, type Plan, type RoundBatch } from "./plan";
import { workerScript } from "../worker-script";

export interface PartWriter {
  /** Hands over round k's rows (rounds in order). */
  round(batch: RoundBatch): void;
  /** The sales groups, if the sales are not in the snapshot yet (see derive/markets.ts). */
  salesGroups(): SalesGroup[] | undefined;
  /** Whether this writer writes the market history (from a base handed over by writeHistory); else it is derived after finish. */
  readonly writesHistory: boolean;
  /** Hands over the markets and the properties' facts, from which the writer writes the market history. */
  writeHistory(base: HistoryBase): void;
  /** The history's coverage, when this writer wrote it (after finish). */
  historyCoverage(): HistoryCoverage | undefined;
  /** The place groups of the part tables, when this writer counted them (after finish). */
  partPlaces(): PartPlaces | undefined;
  /** Waits for the rest and leaves every part table complete and indexed in `w`. */
  finish(w: SnapshotWriter): void;
  /** Stops the work after a failure elsewhere (a worker would otherwise wait for rounds forever). */
  abort(): void;
}

export class InlinePart implements PartWriter {
  private readonly others: OtherParcels;
  constructor(
    private readonly w: SnapshotWriter,
    ctx: GenContext,
    plan: Plan,
  ) {
    this.others = new OtherParcels(ctx, plan);
  }

  round(batch: RoundBatch): void {
    this.w.transaction(() => {
      this.others.writeRound(this.w, batch.round);
      insertBatch(this.w, batch);
    });
  }

  salesGroups(): undefined {
    return undefined; // the sales are in the snapshot: markets read them there
  }

  readonly writesHistory = false; // the sales are in the snapshot: market history reads them there

  writeHistory(): void {
    throw new Error("an inline part does not write the market history");
  }

  historyCoverage(): undefined {
    return undefined;
  }

  partPlaces(): undefined {
    return undefined; // the tables are in the snapshot: places are counted there
  }

  finish(w: SnapshotWriter): void {
    w.createIndexes(PART_TABLES);
  }

  abort(): void {}
}

export interface PartWorkerData {
  role: "snapshot-part";
  options: GenerateOptions;
  path: string;
  port: MessagePort;
  flags: SharedArrayBuffer;
}

const START_TIMEOUT_MS = 60_000;
const FINISH_TIMEOUT_MS = 30 * 60_000;

export class WorkerPart implements PartWriter {
  private readonly port: MessagePort;
  private readonly flags: Int32Array;
  private readonly path: string;
  private readonly started = Date.now();
  private readonly worker: Worker;
  private history: HistoryCoverage | undefined;
  private places: PartPlaces | undefined;
  private historyPosted = false;
  readonly writesHistory = true;

  constructor(
    options: GenerateOptions,
    partPath: string,
    private readonly log: (msg: string) => void = () => {},
  ) {
    const channel = new MessageChannel();
    const shared = new SharedArrayBuffer(SLOTS * 4);
    this.flags = new Int32Array(shared);
    this.port = channel.port1;
    this.path = partPath;
    const { file, execArgv } = workerScript(__filename, "part-worker");
    const workerData: PartWorkerData = {
      role: "snapshot-part",
      options: { ...options, log: undefined },
      path: partPath,
      port: channel.port2,
      flags: shared,
    };
    this.worker = new Worker(file, { workerData, transferList: [channel.port2], execArgv });
    this.worker.unref();
  }

  round(batch: RoundBatch): void {
    if (Atomics.load(this.flags, STATE) === FAILED) this.fail();
    this.port.postMessage(batch);
    Atomics.store(this.flags, POSTED, batch.round + 1);
    Atomics.notify(this.flags, POSTED);
  }

  salesGroups(): SalesGroup[] {
    this.waitFor(() => Atomics.load(this.flags, SALES_READY) === 1);
    const msg = receiveMessageOnPort(this.port)?.message as { salesGroups?: SalesGroup[] } | undefined;
    if (!msg?.salesGroups) throw new Error("snapshot part worker sent no sales groups");
    return msg.salesGroups;
  }

  writeHistory(base: HistoryBase): void {
    if (Atomics.load(this.flags, STATE) === FAILED) this.fail();
    // The properties' arrays are moved, not copied: this thread has no further use for them.
    this.historyPosted = true;
    const p = base.properties;
    this.port.postMessage({ history: base }, [p.group.buffer, p.at.buffer, p.area.buffer, p.units.buffer]);
    Atomics.store(this.flags, HISTORY_POSTED, 1);
    Atomics.notify(this.flags, HISTORY_POSTED);
  }

  historyCoverage(): HistoryCoverage | undefined {
    return this.history;
  }

  partPlaces(): PartPlaces | undefined {
    return this.places;
  }

  finish(w: SnapshotWriter): void {
    if (!this.historyPosted) throw new Error("the part worker writes the market history: hand it the base (writeHistory) before finish");
    this.waitFor(() => Atomics.load(this.flags, STATE) === DONE);
    const msg = receiveMessageOnPort(this.port)?.message as { history?: HistoryCoverage; places?: PartPlaces; laps?: string[] } | undefined;
    if (!msg?.history || !msg.places) throw new Error("snapshot part worker sent no market history or places");
    this.history = msg.history;
    this.places = msg.places;
    this.port.close();
    const merging = Date.now();
    for (const lap of msg.laps ?? []) this.log(`part worker: ${lap}`);
    this.log(`part worker done at ${((merging - this.started) / 1000).toFixed(1)} s`);
    mergePart(w, this.path);
    this.log(`parcels, listings, sales and market history copied in in ${((Date.now() - merging) / 1000).toFixed(1)} s`);
  }

  abort(): void {
    void this.worker.terminate();
    this.port.close();
  }

  /** Blocks until `ready` (the build is synchronous, and this thread has nothing else to do). */
  private waitFor(ready: () => boolean): void {
    while (!ready()) {
      const s = Atomics.load(this.flags, STATE);
      if (s === FAILED) this.fail();
      const waited = Date.now() - this.started;
      if ((s === 0 && waited > START_TIMEOUT_MS) || waited > FINISH_TIMEOUT_MS) throw new Error("snapshot part worker did not finish");
      Atomics.wait(this.flags, STATE, s, 200);
    }
  }

  private fail(): never {
    const msg = receiveMessageOnPort(this.port)?.message as { error?: string } | undefined;
    throw new Error(`snapshot part worker failed: ${msg?.error ?? "unknown error"}`);
  }
}

function mergePart(w: SnapshotWriter, partPath: string): void {
  w.createIndexes(PART_TABLES); // on the empty tables, so the copy brings the index b-trees along
  w.db.prepare("ATTACH DATABASE ? AS part").run(partPath);
  try {
    for (const t of [...PART_TABLES, "market_history"]) w.db.exec(`INSERT INTO main.${t} SELECT * FROM part.${t}`);
  } finally {
    w.db.exec("DETACH DATABASE part");
    fs.rmSync(partPath, { force: true });
  }
}
