// The requests the service benchmark matches addresses with (scripts/bench-service.ts): the
// snapshot's own properties written the ways analysts write them (one line with or without
// commas, suffix spelt out, separate fields, a unit, a misspelt street), and some addresses it
// does not hold, each request a different sample. Run on its own, it times matching in one
// process (npx tsx scripts/bench-match.ts <snapshot.db>).
import type Database from "better-sqlite3";
import { matchRows } from "../src/server/data/property-match";
import { openContext } from "../src/server/data/snapshot-context";

/** A request wrk sends: a GET path, or a POST with its JSON body. */
export type BenchRequest = string | { method: "POST"; path: string; body: string };

interface Row {
  address: string;
  city: string;
  state_code: string;
  zip: string;
}

const SPELLED: Record<string, string> = { St: "Street", Ave: "Avenue", Rd: "Road", Dr: "Drive", Blvd: "Boulevard", Ln: "Lane" };

/** How many ways `written` writes an address. */
const FORMS = 7;

/** Row `r` written in form `i % FORMS` as a match row's fields. */
function written(r: Row, i: number): Record<string, string> {
  const line = `${r.address}, ${r.city}, ${r.state_code} ${r.zip}`;
  switch (i % FORMS) {
    case 0:
      return { address: line };
    case 1:
      return { address: line.replace(/,/g, "").toLowerCase() };
    case 2:
      return { address: r.address.replace(/ (\w+)$/, (m, s: string) => ` ${SPELLED[s] ?? s}`), city: r.city, state: r.state_code };
    case 3:
      return { address: `${r.address} Suite ${100 + (i % 300)}`, zip: r.zip };
    case 4:
      // A letter of the street's name dropped.
      return { address: r.address.replace(/ (\w)\w/, " $1"), city: r.city, state: r.state_code, zip: r.zip };
    case 5:
      // A house number the street may not have.
      return { address: line.replace(/^\d+/, (n) => String(Number(n) + 2)) };
    default:
      return { address: `${r.address}, ${r.city}` };
  }
}

/** `singles` GET paths of one address each, and `batches` POSTs of `rows` addresses each. */
export function matchRequests(
  snap: Database.Database,
  singles: number,
  batches: number,
  rows: number,
): { single: string[]; batch: BenchRequest[] } {
  const sample = snap
    .prepare(`SELECT address, city, state_code, zip FROM properties ORDER BY random() LIMIT ?`)
    .all(singles + batches * rows) as Row[];
  // A snapshot with fewer properties than the requests need gives some twice (in other forms).
  const row = (k: number) => sample[k % sample.length];
  const single = Array.from(
    { length: singles },
    (_, i) => `/v1/commercial/properties/match?${new URLSearchParams(written(row(i), i)).toString()}`,
  );
  const batch: BenchRequest[] = [];
  for (let b = 0; b < batches; b++) {
    const addresses = Array.from({ length: rows }, (_, i) => ({ ref: String(i), ...written(row(singles + b * rows + i), b + i) }));
    batch.push({ method: "POST", path: "/v1/commercial/properties/match", body: JSON.stringify({ addresses }) });
  }
  return { single, batch };
}

/** Percentiles of timings in ms, as "p50 x, p99 y". */
function percentiles(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(3);
  return `p50 ${at(0.5)}, p99 ${at(0.99)}`;
}

// Matching in one process, without the service around it: each form of one address, and calls of
// a thousand rows. npx tsx scripts/bench-match.ts <snapshot.db>
if (require.main === module) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: npx tsx scripts/bench-match.ts <snapshot.db>");
  const context = openContext(file);
  const { single, batch } = matchRequests(context.db, 7000, 13, 1000);
  const rows = single.map((p) => Object.fromEntries(new URLSearchParams(p.slice(p.indexOf("?") + 1))));
  for (const row of rows.slice(0, 2000)) matchRows(context, [row]);
  const byForm: number[][] = Array.from({ length: FORMS }, () => []);
  rows.slice(2000).forEach((row, i) => {
    const started = performance.now();
    matchRows(context, [row]);
    byForm[(2000 + i) % FORMS].push(performance.now() - started);
  });
  byForm.forEach((ms, form) => console.log(`one address, form ${form}: ${percentiles(ms)} ms (${ms.length} addresses)`));
  const calls = batch.map((b) => (JSON.parse((b as { body: string }).body) as { addresses: Record<string, string>[] }).addresses);
  for (const call of calls.slice(0, 3)) matchRows(context, call);
  const ms = calls.slice(3).map((call) => {
    const started = performance.now();
    matchRows(context, call);
    return performance.now() - started;
  });
  console.log(`1,000 addresses a call: ${percentiles(ms)} ms (${ms.length} calls)`);
  context.close();
}
