// The market history as one row per market and quarter, for tests that check it with SQL: a
// TEMP table `market_history_figures` (market, quarter, every metric in the API's units) on
// the given connection, decoded from the snapshot's packed rows (src/snapshot/history-codec.ts),
// every row of a market (one per calendar year) in turn.
// TEMP tables live beside the connection, so this works on a read-only snapshot too.
import type Database from "better-sqlite3";
import { MARKET_HISTORY_METRIC_NAMES } from "../../src/contract/history";
import { historyQuarters, STORED_HISTORY_COLUMNS, type StoredHistory } from "../../src/snapshot/history-codec";

export function loadHistoryFigures(db: Database.Database, schema = "main"): void {
  const cols = MARKET_HISTORY_METRIC_NAMES;
  db.exec(`DROP TABLE IF EXISTS temp.market_history_figures`);
  db.exec(
    `CREATE TEMP TABLE market_history_figures (market INTEGER NOT NULL, quarter INTEGER NOT NULL, ${cols.join(", ")}, PRIMARY KEY (market, quarter))`,
  );
  const insert = db.prepare(
    `INSERT INTO temp.market_history_figures VALUES (${Array(cols.length + 2)
      .fill("?")
      .join(", ")})`,
  );
  const rows = db
    .prepare(`SELECT ${STORED_HISTORY_COLUMNS} FROM ${schema}.market_history ORDER BY market, first_quarter`)
    .all() as StoredHistory[];
  const fill = db.transaction(() => {
    for (const row of rows) for (const q of historyQuarters(row)) insert.run(q.market, q.quarter, ...cols.map((m) => q[m]));
  });
  fill();
}
