// The bench:addin scenarios about snapshots: a model refreshed after the next month's snapshot
// is published (what it bills against a full refresh, what it changed), and a model pinned to
// an older snapshot while newer ones are published (nothing may move, nothing may be billed).
import type { SqliteStores } from "../src/server/stores/sqlite";
import { type Cell, type Phase, calculate, freshAddin } from "./bench-addin-harness";

/** What a cell shows: a value, a spill, or an error's text. */
function shown(result: PromiseSettledResult<unknown>): unknown {
  if (result.status === "fulfilled") return result.value;
  const reason = result.reason as { code?: string; message?: string };
  return `${reason.code ?? "error"}: ${reason.message ?? ""}`;
}

/** Cells whose shown value differs, a spill counted cell by cell (as the pane's Refresh lists them). */
export function changedCells(before: PromiseSettledResult<unknown>[], after: PromiseSettledResult<unknown>[]): number {
  let changed = 0;
  before.forEach((result, i) => {
    const a = shown(result);
    const b = shown(after[i]);
    if (Array.isArray(a) && Array.isArray(b)) {
      const rows = Math.max(a.length, b.length);
      for (let r = 0; r < rows; r++) {
        const ra = (a[r] as unknown[] | undefined) ?? [];
        const rb = (b[r] as unknown[] | undefined) ?? [];
        for (let c = 0; c < Math.max(ra.length, rb.length); c++) if (JSON.stringify(ra[c]) !== JSON.stringify(rb[c])) changed++;
      }
    } else if (JSON.stringify(a) !== JSON.stringify(b)) changed++;
  });
  return changed;
}

/** A "Refresh workbook" on the ribbon (the snapshot check), then Excel's full recalculation. */
async function ribbonRefresh(addin: Awaited<ReturnType<typeof freshAddin>>, cells: Cell[]): Promise<Phase> {
  const before = { ...addin.counter };
  const started = performance.now();
  await new Promise<void>((resolve) => void addin.actions.get("refreshWorkbook")!({ completed: resolve }));
  const recalc = await calculate(cells, addin.run, addin.counter);
  return {
    ...recalc,
    requests: addin.counter.requests - before.requests,
    credits: addin.counter.credits - before.credits,
    ms: performance.now() - started,
  };
}

export interface NextSnapshotResult {
  first: Phase;
  refresh: Phase;
  /** The same model calculated afresh on the new snapshot: what a refresh that re-bills everything costs. */
  full: Phase;
  cellsChanged: number;
  /** Cells whose refreshed value differs from the fresh calculation's (must be 0). */
  wrong: number;
  /** The refresh's credits by operation. */
  byKind: Record<string, number>;
}

/** The model, then the next snapshot published (`publish`), then a refresh; against a fresh calculation on the new data. */
export async function nextSnapshotScenario(
  origin: string,
  stores: SqliteStores,
  cells: Cell[],
  publish: () => Promise<void>,
): Promise<NextSnapshotResult> {
  const addin = await freshAddin(origin, stores, "next-month");
  const first = await calculate(cells, addin.run, addin.counter);
  await publish();
  const before = { ...addin.counter.creditsByOperation };
  const refresh = await ribbonRefresh(addin, cells);
  const byKind = Object.fromEntries(
    Object.entries(addin.counter.creditsByOperation)
      .map(([op, credits]) => [op, credits - (before[op] ?? 0)] as const)
      .filter(([, credits]) => credits > 0),
  );
  const fresh = await freshAddin(origin, stores, "next-month-full");
  const full = await calculate(cells, fresh.run, fresh.counter);
  return {
    first,
    refresh,
    full,
    cellsChanged: changedCells(first.results, refresh.results),
    wrong: changedCells(refresh.results, full.results),
    byKind,
  };
}

export interface PinnedResult {
  first: Phase;
  refresh: Phase;
  cellsChanged: number;
}

/**
 * The model pinned to the snapshot served now (as_of=<id> in every cell's options), calculated;
 * `refresh` is to be called once newer snapshots are published: nothing may change, nothing be billed.
 */
export async function pinnedModelScenario(origin: string, stores: SqliteStores, cells: Cell[], snapshotId: string) {
  const pinned = cells.map((cell) => pinCell(cell, snapshotId));
  const addin = await freshAddin(origin, stores, "pinned");
  const first = await calculate(pinned, addin.run, addin.counter);
  return {
    first,
    refresh: async (): Promise<PinnedResult> => {
      const refresh = await ribbonRefresh(addin, pinned);
      return { first, refresh, cellsChanged: changedCells(first.results, refresh.results) };
    },
  };
}

/** The cell with as_of=<id> added to its options (the options argument of each model function). */
function pinCell(cell: Cell, snapshotId: string): Cell {
  const at = { PROPERTY: 2, SALECOMPS: 2, MARKET: 3, ASSETSEARCH: 2, DILIGENCE: 2, MARKETHISTORY: 5 }[cell.id];
  if (at === undefined) throw new Error(`the pinned scenario does not know where ${cell.id} takes its options`);
  const args = [...cell.args];
  while (args.length <= at) args.push(null);
  const options = args[at];
  args[at] = `as_of=${snapshotId}${typeof options === "string" && options !== "" ? `; ${options}` : ""}`;
  return { ...cell, args };
}
