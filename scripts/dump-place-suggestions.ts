// The "did you mean" suggestions for thousands of misspelt place names, one line each, to
// compare two versions of the suggestions (run it on each and diff the outputs):
//   npx tsx scripts/dump-place-suggestions.ts <snapshot.db> <out.txt> [names=12000]
// The names are the snapshot's own cities and counties with one letter dropped, added, changed
// or swapped with its neighbour, half with their state, from a fixed seed, and a few fixed ones.
import fs from "node:fs";
import { parsePlace, type PlaceKind } from "../src/contract/places";
import { openContext } from "../src/server/data/snapshot-context";
import { resolvePlace } from "../src/server/data/place-resolver";
import { ApiProblem } from "../src/server/http/problem";

const [file, out, countText = "12000"] = process.argv.slice(2);
if (!file || !out) throw new Error("usage: dump-place-suggestions.ts <snapshot.db> <out.txt> [names]");
const snapshot = openContext(file);
/** What a market takes: one place of any kind. */
const MARKET: readonly PlaceKind[] = ["state", "county", "metro", "city", "zip"];
const places = [...(snapshot.places.all.get("city") ?? []), ...(snapshot.places.all.get("county") ?? [])];

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

function misspelt(name: string, how: number): string {
  const at = 1 + Math.floor(random() * Math.max(1, name.length - 2));
  const letter = LETTERS[Math.floor(random() * LETTERS.length)];
  switch (how) {
    case 0:
      return name.slice(0, at) + name.slice(at + 1);
    case 1:
      return name.slice(0, at) + letter + name.slice(at);
    case 2:
      return name.slice(0, at) + letter + name.slice(at + 1);
    default:
      return name.slice(0, at - 1) + name[at] + name[at - 1] + name.slice(at + 1);
  }
}

const names: string[] = [];
for (let i = 0; i < Number(countText); i++) {
  const place = places[Math.floor(random() * places.length)];
  const text = misspelt(place.local, i % 4);
  names.push(i % 2 ? `${text}, ${place.state}` : text);
}
names.push("zzzzzzzzzzzz", "toString", "Texsa", "Austn MSA", "Huston, TX", "Springfeld", "New Yrok, NY", "Sna Antonio", "Zzyzx County, CA");

const lines = names.map((given) => {
  try {
    resolvePlace(snapshot.places, parsePlace(given), { accepted: MARKET, parameter: "geography", given, single: true });
    return `${given} => (a place the snapshot holds)`;
  } catch (err) {
    if (!(err instanceof ApiProblem)) return `${given} => ${String(err)}`;
    return `${given} => ${JSON.stringify(err.extra.suggestions ?? [])}`;
  }
});
fs.writeFileSync(out, `${lines.join("\n")}\n`);
console.log(`${lines.length} names written to ${out}`);
snapshot.close();
