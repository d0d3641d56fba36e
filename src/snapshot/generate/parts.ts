// Where the part tables (parcels, listings, sales) get written. Inline, they go straight into
// the snapshot. In parallel, a worker thread makes the other parcels and writes the three tables,
// with their indexes, into a part file while this thread makes properties; the part is then
// copied in (SQLite's transfer optimisation copies rows and index b-trees as they are, with no
// re-sorting). The worker also computes the markets' sales groups from its sales, so markets
// can be derived before the copy, and market history's sales rows, so the main thread does not
// scan the sales again once they are copied in. Either way each table gets the same rows in the same order.
import fs from "node:fs";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { SalesGroup } from "../derive/markets";
import type { HistorySalesRow } from "../derive/market-history";
import type { SnapshotWriter } from "../snapshot-file";
import type { GenContext, GenerateOptions } from "./context";
import { insertBatch, OtherParcels } from "./others";
import { DONE, FAILED, POSTED, SALES_READY, STATE } from "./part-flags";
import { PART_TABLES, type Plan, type RoundBatch } from "./plan";
import { workerScript } from "../worker-script";

export interface PartWriter {
  /** Hands over round k's rows (rounds in order). */
  round(batch: RoundBatch): void;
  /** The sales groups, if the sales are not in the snapshot yet (see derive/markets.ts). */
  salesGroups(): SalesGroup[] | undefined;
  /** Market history's sales rows, if the sales were not in the snapshot while it was derived (after finish). */
  historySales(): HistorySalesRow[] | undefined;
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

  historySales(): undefined {
    return undefined; // and so does market history
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
  private history: HistorySalesRow[] | undefined;

  constructor(
    options: GenerateOptions,
    partPath: string,
    private readonly log: (msg: string) => void = () => {},
  ) {
    const channel = new MessageChannel();
    const shared = new SharedArrayBuffer(12);
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

  historySales(): HistorySalesRow[] | undefined {
    return this.history;
  }

  finish(w: SnapshotWriter): void {
    this.waitFor(() => Atomics.load(this.flags, STATE) === DONE);
    const msg = receiveMessageOnPort(this.port)?.message as { historySales?: HistorySalesRow[] } | undefined;
    if (!msg?.historySales) throw new Error("snapshot part worker sent no market history sales");
    this.history = msg.historySales;
    this.port.close();
    const merging = Date.now();
    this.log(`part worker done at ${((merging - this.started) / 1000).toFixed(1)} s`);
    mergePart(w, this.path);
    this.log(`parcels, listings and sales copied in in ${((Date.now() - merging) / 1000).toFixed(1)} s`);
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
    for (const t of PART_TABLES) w.db.exec(`INSERT INTO main.${t} SELECT * FROM part.${t}`);
  } finally {
    w.db.exec("DETACH DATABASE part");
    fs.rmSync(partPath, { force: true });
  }
}
