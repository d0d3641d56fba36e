// CPU per owner/tenant name that matches no company (the free 404), and per name that matches
// by containment, over a built snapshot:
//   npx tsx scripts/bench-company-names.ts /tmp/dups-100k.db [refusals=500]
// Each figure is process.cpuUsage() (user + system) over the lookups, divided by their count.
// The first lookup of a type builds that type's name index; it is timed on its own.
import { findCompany } from "../src/server/data/company-lookup";
import { openContext } from "../src/server/data/snapshot-context";

const [file, countText = "500"] = process.argv.slice(2);
if (!file) throw new Error("usage: bench-company-names.ts <snapshot.db> [refusals]");
const count = Number(countText);
const snapshot = openContext(file);

/** Names no company holds: real words of company names, in an order none has. */
const missing = (i: number) => `Zephyr Quay ${i} Holdings`;
/** Names that are part of some company's name (the contains path, not the exact one). */
const partial = ["Hill Talent", "Pioneer Prop", "Residential Fund", "Aerospace", "Staffing Sol"];

function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function cpuMsPerCall(call: (i: number) => void): number {
  call(-1);
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) call(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / count;
}

const refusal = (type: "owner" | "tenant") => (i: number) => {
  try {
    findCompany(snapshot, type, undefined, missing(i));
  } catch {
    return;
  }
  throw new Error(`'${missing(i)}' matched a ${type}`);
};
const contains = (type: "owner" | "tenant") => (i: number) => {
  try {
    findCompany(snapshot, type, undefined, partial[Math.abs(i) % partial.length]);
  } catch {
    // Some parts name owners only or tenants only; a refusal is a lookup all the same.
  }
};

const companies = snapshot.value<number>("SELECT count(*) FROM companies")!;
console.log(`${file}: ${companies} companies; ${count} lookups each`);
for (const type of ["owner", "tenant"] as const) {
  console.log(`${type} first lookup (builds the name index): ${cpuMs(() => refusal(type)(-2)).toFixed(1)} ms CPU`);
  console.log(`${type} name matching nothing: ${cpuMsPerCall(refusal(type)).toFixed(3)} ms CPU per refusal`);
  console.log(`${type} name contained in others: ${cpuMsPerCall(contains(type)).toFixed(3)} ms CPU per lookup`);
}
snapshot.close();
