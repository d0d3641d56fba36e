// Status: plan and credits left (from the headers of the latest answer), the data in use by the
// day it was captured, the last refresh, and what "Refresh workbook" will cost before it runs.
// Cells pinned to retired data, or to a snapshot retiring within 30 days, are announced (the
// formulas of the last refresh, against the kept list). Updates as the functions and the pane make calls. Folded (App.tsx), its header still says
// the credits left.
import { AccordionHeader, AccordionItem, AccordionPanel, ProgressBar, Text } from "@fluentui/react-components";
import { describeRefreshCost, estimateRefresh } from "../refresh-estimate";
import { creditSummary, formatMoment, snapshotLine, statusSummary } from "../status-text";
import { refreshReports } from "../refresh-reports";
import { PinNotices } from "./PinNotices";
import { usePane } from "./pane-state";
import { useCacheVersion, useCredits } from "./use-live-state";

export function StatusCard() {
  const pane = usePane();
  const credits = useCredits(pane.session);
  // Re-rendered on every cache change: the refresh cost reads the cache.
  useCacheVersion(pane.session);
  if (!pane.connection) return null;
  const summary = creditSummary(credits);
  const snapshot = pane.connection.coverage.snapshot ?? null;
  const data = snapshotLine(snapshot);
  const estimate = estimateRefresh(pane.session.cache.list(), snapshot?.id ?? null);
  return (
    <AccordionItem value="status" className="card status">
      <AccordionHeader as="h2" size="small" expandIconPosition="end" className="card-header">
        <span className="card-title">Status</span>{" "}
        <span className={summary?.exhausted ? "card-summary credits-out" : "card-summary"}>{statusSummary(credits)}</span>
      </AccordionHeader>
      <AccordionPanel className="card-body">
        {summary ? (
          <div className="credits">
            <Text weight="semibold">{summary.plan} plan</Text>
            <ProgressBar
              value={summary.fraction ?? undefined}
              color={summary.exhausted ? "error" : summary.fraction !== null && summary.fraction < 0.1 ? "warning" : "brand"}
              aria-label="Credits left"
              thickness="large"
            />
            <Text className="credits-left">
              {summary.left}. {summary.resets}.
            </Text>
            {summary.exhausted && (
              <Text className="credits-out" role="alert">
                Out of credits: cached results still show; new calls wait for the reset.
              </Text>
            )}
          </div>
        ) : (
          <Text>Credits: known after the first call.</Text>
        )}
        <Text className="snapshot" title={data.detail ?? undefined}>
          {data.text}
          {data.detail && <span className="snapshot-id">{data.detail}</span>}
        </Text>
        <PinNotices pinned={refreshReports().latest()?.report.pinned} kept={pane.connection.coverage.snapshots} />
        <dl>
          <dt>Last refresh</dt>
          <dd className="last-refresh">{formatMoment(pane.lastRefresh)}</dd>
          <dt>Refresh cost</dt>
          <dd className="refresh-cost">{describeRefreshCost(estimate)}</dd>
        </dl>
      </AccordionPanel>
    </AccordionItem>
  );
}
