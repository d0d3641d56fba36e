// CPU per free place refusal (unknown_place with its suggestions), over a built snapshot:
//   npx tsx scripts/bench-place-refusals.ts data/snapshot.db [calls=3000]
// Each figure is process.cpuUsage() (user + system) over the calls, divided by their count, in
// microseconds. The place and name indexes are built before timing (their build is timed on its
// own); each call parses the text, finds nothing and scores the suggestions, as a request does.
import { parsePlace, type PlaceKind } from "../src/contract/places";
import { openContext } from "../src/server/data/snapshot-context";
import { resolvePlace } from "../src/server/data/place-resolver";

const [file, countText = "3000"] = process.argv.slice(2);
if (!file) throw new Error("usage: bench-place-refusals.ts <snapshot.db> [calls]");
const count = Number(countText);
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

function cpuUsPerCall(call: (i: number) => void): number {
  call(-1);
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) call(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

const buildStart = process.cpuUsage();
void snapshot.places.names;
const built = process.cpuUsage(buildStart);
console.log(`name index build: ${((built.user + built.system) / 1000).toFixed(1)} ms CPU`);

for (const [label, text] of Object.entries(CASES)) {
  const us = cpuUsPerCall((i) => {
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
