// The requests the service benchmark matches addresses with (scripts/bench-service.ts): the
// snapshot's own properties written the ways analysts write them (one line with or without
// commas, suffix spelt out, separate fields, a unit, a misspelt street), and some addresses it
// does not hold, each request a different sample.
import type Database from "better-sqlite3";

/** A request wrk sends: a GET path, or a POST with its JSON body. */
export type BenchRequest = string | { method: "POST"; path: string; body: string };

interface Row {
  address: string;
  city: string;
  state_code: string;
  zip: string;
}

const SPELLED: Record<string, string> = { St: "Street", Ave: "Avenue", Rd: "Road", Dr: "Drive", Blvd: "Boulevard", Ln: "Lane" };

/** Row `r` written in form `i` (of several) as a match row's fields. */
function written(r: Row, i: number): Record<string, string> {
  const line = `${r.address}, ${r.city}, ${r.state_code} ${r.zip}`;
  switch (i % 7) {
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
