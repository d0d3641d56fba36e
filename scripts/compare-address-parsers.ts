// The service's own reading of an address (match-input.ts, property-match.ts) against two npm
// address parsers put in front of it, on the acceptance test set (address-variants.ts):
//   own            matchRows on the rows as given;
//   parse-address  each one-line address split by parse-address's parseLocation into street
//                  line, city, state and ZIP code, and matchRows on those fields;
//   addresser      the same with addresser's parseAddress.
// A row a parser cannot read goes to matchRows as given, and is counted. Rows already in
// separate fields go through unchanged; the parcel-number kinds are left out (no parser reads
// an APN). Printed: per kind and pipeline the figures of match-accuracy.ts, the summary figures,
// the rows each parser could not read, each reading's time per row, and rows whose outcome differs.
//   npx tsx scripts/compare-address-parsers.ts <snapshot.db> [seed=1] [perKind=100] [examples=2]
import { parseAddress as addresserParse } from "addresser";
import { parseLocation } from "parse-address";
import type { MatchFields } from "../src/contract/property-match";
import { readRow } from "../src/server/data/match-input";
import { type RowMatch, matchRows } from "../src/server/data/property-match";
import { openContext } from "../src/server/data/snapshot-context";
import { type AddressVariant, addressVariants, readVariantRows } from "./address-variants";
import { type KindFigures, accuracyOf } from "./match-accuracy";

/** A parser in front of matchRows: a one-line address as fields, or null when it cannot read it. */
interface Parser {
  name: string;
  /** The parser's own call alone, as timed. */
  parse: (line: string) => unknown;
  /** Its result as matchRows fields, or null for a line it could not read. */
  fields: (line: string) => MatchFields | null;
}

/** Fields without the empty ones. */
function present(fields: MatchFields): MatchFields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => typeof v === "string" && v.trim() !== "")) as MatchFields;
}

const PARSERS: Parser[] = [
  {
    name: "parse-address",
    parse: (line) => parseLocation(line),
    fields: (line) => {
      const p = parseLocation(line);
      if (!p?.number || !p.street) return null;
      const address = [p.number, p.prefix, p.street, p.type, p.suffix].filter(Boolean).join(" ");
      return present({ address, city: p.city, state: p.state, zip: p.zip });
    },
  },
  {
    name: "addresser",
    parse: (line) => {
      try {
        return addresserParse(line);
      } catch (err) {
        return err;
      }
    },
    fields: (line) => {
      try {
        const p = addresserParse(line);
        if (!p.addressLine1) return null;
        return present({ address: p.addressLine1, city: p.placeName, state: p.stateAbbreviation, zip: p.zipCode });
      } catch {
        return null; // it throws (a string) on an address it cannot read
      }
    },
  },
];

/** A one-line address: no field besides `address`. */
const oneLine = (input: MatchFields): input is MatchFields & { address: string } =>
  !!input.address?.trim() && !input.city && !input.state && !input.zip && !input.apn && !input.county;

type Outcome = "right" | "wrong" | "offered" | "missed";

/** A row's outcome as accuracyOf counts it. */
function outcomeOf(v: AddressVariant, r: RowMatch): Outcome {
  if (r.status === "matched") return r.property_id === v.expected ? "right" : "wrong";
  return v.expected !== null && r.candidates.some((c) => c.property_id === v.expected) ? "offered" : "missed";
}

function matchAll(context: ReturnType<typeof openContext>, inputs: readonly MatchFields[]): { results: RowMatch[]; ms: number } {
  const results: RowMatch[] = [];
  const started = performance.now();
  for (let i = 0; i < inputs.length; i += 1000) results.push(...matchRows(context, inputs.slice(i, i + 1000)));
  return { results, ms: performance.now() - started };
}

/** Median over `reps` runs of the time per item of `fn` over `items`, in µs, after one run to warm up. */
function microsPerItem<T>(items: readonly T[], fn: (item: T) => unknown, reps = 7): number {
  if (!items.length) return NaN;
  let sink = 0;
  const run = () => {
    const started = performance.now();
    for (const item of items) if (fn(item)) sink++;
    return ((performance.now() - started) * 1000) / items.length;
  };
  run();
  const times = Array.from({ length: reps }, run).sort((a, b) => a - b);
  if (sink < 0) console.log(sink); // keeps the calls' results used
  return times[Math.floor(reps / 2)];
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const cell = (k: KindFigures | undefined) => (k ? `${k.right} / ${k.wrong} / ${k.offered} / ${k.missed}` : "");

function main(): void {
  const [file, seed = "1", perKind = "100", examples = "2"] = process.argv.slice(2);
  if (!file) throw new Error("usage: npx tsx scripts/compare-address-parsers.ts <snapshot.db> [seed=1] [perKind=100] [examples=2]");
  const context = openContext(file);
  try {
    const generated = performance.now();
    const all = addressVariants(readVariantRows(context.db), { seed: Number(seed), perKind: Number(perKind) });
    const variants = all.filter((v) => !v.input.apn);
    const lines = variants.flatMap((v) => (oneLine(v.input) ? [v.input.address] : []));
    console.log(
      `${variants.length} rows of ${file} (seed ${seed}, ${perKind} per kind; ${all.length - variants.length} APN rows left out), ` +
        `${lines.length} of them one-line addresses; variants made in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
    );

    // Each pipeline's inputs: the rows as given, or each one-line address through a parser.
    const pipelines = [{ name: "own", inputs: variants.map((v) => v.input), unparsed: variants.map(() => false) }];
    for (const parser of PARSERS) {
      const unparsed = variants.map(() => false);
      const inputs = variants.map((v, i) => {
        if (!oneLine(v.input)) return v.input;
        const fields = parser.fields(v.input.address);
        unparsed[i] = !fields;
        return fields ?? v.input;
      });
      pipelines.push({ name: parser.name, inputs, unparsed });
    }
    const runs = pipelines.map((p) => {
      const { results, ms } = matchAll(context, p.inputs);
      return { ...p, results, ms, figures: accuracyOf(variants, results) };
    });

    console.log();
    console.log(
      "Per kind, right / wrong / offered (not matched, expected among the candidates) / missed; parser columns: rows it could not read.",
    );
    console.log();
    console.log(
      `| kind | group | rows | ${runs.map((r) => r.name).join(" | ")} | ${PARSERS.map((p) => `${p.name} unparsed`).join(" | ")} |`,
    );
    console.log(`|---|---|---:|${runs.map(() => "---:|").join("")}${PARSERS.map(() => "---:|").join("")}`);
    for (const k of runs[0].figures.kinds) {
      const unparsed = runs.slice(1).map((r) => variants.filter((v, i) => v.kind === k.kind && r.unparsed[i]).length);
      const cells = runs.map((r) => cell(r.figures.kinds.find((f) => f.kind === k.kind)));
      console.log(`| ${k.kind} | ${k.group} | ${k.rows} | ${cells.join(" | ")} | ${unparsed.join(" | ")} |`);
    }

    // Parse time per one-line row: each parser's call alone, against readRow on the same rows.
    const micros = [microsPerItem(lines, (line) => readRow({ address: line })), ...PARSERS.map((p) => microsPerItem(lines, p.parse))];
    const readAfter = runs.slice(1).map((r) =>
      microsPerItem(
        r.inputs.filter((_, i) => oneLine(variants[i].input)),
        readRow,
      ),
    );

    console.log();
    console.log(`| summary | ${runs.map((r) => r.name).join(" | ")} |`);
    console.log(`|---|${runs.map(() => "---:|").join("")}`);
    const row = (label: string, values: string[]) => console.log(`| ${label} | ${values.join(" | ")} |`);
    row(
      "precision (wrong of matched)",
      runs.map((r) => `${pct(r.figures.precision)} (${r.figures.wrong} of ${r.figures.matched})`),
    );
    row(
      "clean matched (target 98%)",
      runs.map((r) => pct(r.figures.clean)),
    );
    row(
      "typos matched or offered (target 80%)",
      runs.map((r) => pct(r.figures.typos)),
    );
    row(
      "absent matched (target 0)",
      runs.map((r) => String(r.figures.absentMatched)),
    );
    row(
      `one-line rows it could not read (of ${lines.length})`,
      runs.map((r, i) => (i ? String(r.unparsed.filter(Boolean).length) : "")),
    );
    row(
      "parse µs/row (own: readRow; parsers: their call alone; median of 7)",
      micros.map((m) => m.toFixed(1)),
    );
    row("readRow µs/row of the parser's fields", ["", ...readAfter.map((m) => m.toFixed(1))]);
    row(
      "matchRows ms, all rows (own runs first, on a cold cache)",
      runs.map((r) => r.ms.toFixed(0)),
    );

    // Rows whose outcome a parser changes, by change, with a few of each kind.
    for (const r of runs.slice(1)) {
      const changes = new Map<string, number>();
      const shown = new Map<string, number>();
      const shownRows: string[] = [];
      variants.forEach((v, i) => {
        const [before, after] = [outcomeOf(v, runs[0].results[i]), outcomeOf(v, r.results[i])];
        if (before === after) return;
        const change = `${before} → ${after}`;
        changes.set(change, (changes.get(change) ?? 0) + 1);
        const key = `${v.kind}|${change}`;
        if ((shown.get(key) ?? 0) >= Number(examples)) return;
        shown.set(key, (shown.get(key) ?? 0) + 1);
        const detail = r.results[i].detail ?? runs[0].results[i].detail;
        shownRows.push(
          `- ${v.kind}, own ${before} → ${r.name} ${after}${r.unparsed[i] ? " (unparsed)" : ""}: ${JSON.stringify(v.input)} ` +
            `→ ${JSON.stringify(r.inputs[i])}; own: ${runs[0].results[i].status} ${runs[0].results[i].matched_address ?? ""}; ` +
            `${r.name}: ${r.results[i].status} ${r.results[i].matched_address ?? ""}${detail ? ` (${detail})` : ""}`,
        );
      });
      console.log();
      const counted = [...changes].map(([change, n]) => `${change}: ${n}`).join(", ");
      console.log(`${r.name} against own: ${counted || "no row's outcome differs"}`);
      for (const line of shownRows) console.log(line);
      const notRead = new Map<string, string[]>();
      variants.forEach((v, i) => {
        if (!r.unparsed[i]) return;
        const list = notRead.get(v.kind) ?? [];
        if (list.length < Number(examples)) notRead.set(v.kind, [...list, JSON.stringify(v.input.address)]);
      });
      if (notRead.size)
        console.log(`${r.name} could not read, for example: ${[...notRead].map(([k, list]) => `${k}: ${list.join(", ")}`).join("; ")}`);
    }
  } finally {
    context.close();
  }
}

if (require.main === module) main();
