// Status: plan and credits left (from the headers of the latest answer), the snapshot in use
// and when it was captured, the last refresh, and what "Refresh workbook" will cost before it
// runs. Updates as the functions and the pane make calls.
import { ProgressBar, Text } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import type { CreditState } from "../../shared/credit-meter";
import { describeRefreshCost, estimateRefresh } from "../refresh-estimate";
import { creditSummary, formatMoment, snapshotLine } from "../status-text";
import { usePane } from "./pane-state";

/** Re-renders on every credit update and every cache change. */
function useLiveState() {
  const { session } = usePane();
  const [credits, setCredits] = useState<CreditState | null>(session.meter.current());
  const [cacheVersion, setCacheVersion] = useState(0);
  useEffect(() => session.meter.subscribe(setCredits), [session]);
  useEffect(() => session.cache.onChange(() => setCacheVersion((v) => v + 1)), [session]);
  return { credits, cacheVersion };
}

export function StatusCard() {
  const pane = usePane();
  const { credits } = useLiveState();
  if (!pane.connection) return null;
  const summary = creditSummary(credits);
  const snapshot = pane.connection.coverage.snapshot ?? null;
  const estimate = estimateRefresh(pane.session.cache.list(), snapshot?.id ?? null);
  return (
    <section className="card status" aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
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
      <dl>
        <dt>Data</dt>
        <dd className="snapshot">{snapshotLine(snapshot)}</dd>
        <dt>Last refresh</dt>
        <dd className="last-refresh">{formatMoment(pane.lastRefresh)}</dd>
        <dt>Refresh cost</dt>
        <dd className="refresh-cost">{describeRefreshCost(estimate)}</dd>
      </dl>
    </section>
  );
}
