// CPU per free place refusal (unknown_place with its suggestions), over a built snapshot:
//   npx tsx scripts/bench-place-refusals.ts data/snapshot.db [calls=3000] [cold-MB=0]
// Each figure is process.cpuUsage() (user + system) over the calls, divided by their count, in
// microseconds. The place and name indexes are built before timing (their build is timed on its
// own); each call parses the text, finds nothing and scores the suggestions, as a request does.
// With cold-MB, each call first reads that many megabytes elsewhere, as a service's other work
// empties the processor's caches between two refusals; each figure is then the time of the
// calls alone (process.hrtime around each), not of the reading.
import { parsePlace, type PlaceKind } from "../src/contract/places";
import { openContext } from "../src/server/data/snapshot-context";
import { resolvePlace } from "../src/server/data/place-resolver";

const [file, countText = "3000", coldText = "0"] = process.argv.slice(2);
if (!file) throw new Error("usage: bench-place-refusals.ts <snapshot.db> [calls] [cold-MB]");
const count = Number(countText);
/** Read between two calls when cold-MB is given: one number in each 64-byte line. */
const elsewhere = new Int32Array((Number(coldText) * 2 ** 20) / 4);
const snapshot = openContext(file);

/** What a market takes (one place of any named kind) and what a property search takes. */
const MARKET: readonly PlaceKind[] = ["state", "county", "metro", "city", "zip"];

const CASES: Record<string, (i: number) => string> = {
  "no such word (zzzzzzzzzzzz)": () => "zzzzzzzzzzzz",
  "an Object.prototype name (toString)": () => "toString",
  "a misspelt city (Huston, TX)": () => "Huston, TX",
  "a misspelt city, no state (Sna Antonio)": () => "Sna Antonio",
  "a long unknown name, no state": (i) => `Northwest Riverside Heights ${i % 10}`,
  "a different misspelt city each call, no state": (i) => typo(i, false),
  "a different misspelt city each call, with its state": (i) => typo(i, true),
};

/** The snapshot's i-th city (spread over all of them) with a stray "q" typed in: no two calls alike. */
function typo(i: number, withState: boolean): string {
  const cities = snapshot.places.all.get("city") ?? [];
  const city = cities[((i + 1) * 7919) % cities.length];
  const at = 1 + (i % Math.max(1, city.local.length - 2));
  const text = `${city.local.slice(0, at)}q${city.local.slice(at)}`;
  return withState ? `${text}, ${city.state}` : text;
}

function usPerCall(call: (i: number) => void): number {
  call(-1);
  if (elsewhere.length > 0) {
    let calls = 0n;
    for (let i = 0; i < count; i++) {
      for (let at = 0; at < elsewhere.length; at += 16) elsewhere[at]++;
      const start = process.hrtime.bigint();
      call(i);
      calls += process.hrtime.bigint() - start;
    }
    return Number(calls) / 1000 / count;
  }
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) call(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

const buildStart = process.cpuUsage();
void snapshot.places.names;
const built = process.cpuUsage(buildStart);
console.log(`name index build: ${((built.user + built.system) / 1000).toFixed(1)} ms CPU`);
if (elsewhere.length > 0) console.log(`each call after reading ${coldText} MB elsewhere; time of the calls alone`);

for (const [label, text] of Object.entries(CASES)) {
  const us = usPerCall((i) => {
    const given = text(i);
    try {
      resolvePlace(snapshot.places, parsePlace(given), { accepted: MARKET, parameter: "geography", given, single: true });
    } catch {
      return;
    }
    throw new Error(`'${given}' resolved`);
  });
  console.log(`${label}: ${us.toFixed(1)} µs per call`);
}
snapshot.close();
