// The latest refresh report of this runtime, whichever ran it: the pane's Refresh or the
// ribbon's Refresh workbook (both run in the add-in's shared runtime). The pane's Refresh tab
// shows it, so a refresh from the ribbon leaves the same report for the pane. Created on
// first use.
import type { RefreshReport } from "./refresh-formulas";

/** A report and what ran the refresh. */
export interface PublishedReport {
  report: RefreshReport;
  by: "pane" | "ribbon";
}

export type ReportListener = (published: PublishedReport) => void;

export class RefreshReports {
  private published: PublishedReport | null = null;
  private readonly listeners = new Set<ReportListener>();

  latest(): PublishedReport | null {
    return this.published;
  }

  publish(report: RefreshReport, by: PublishedReport["by"]): void {
    this.published = { report, by };
    for (const listener of this.listeners) listener(this.published);
  }

  /** Calls `listener` with every report published from now on; returns the function that stops it. */
  subscribe(listener: ReportListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

let current: RefreshReports | null = null;

/** The runtime's reports (the pane and the ribbon share them). */
export function refreshReports(): RefreshReports {
  current ??= new RefreshReports();
  return current;
}
