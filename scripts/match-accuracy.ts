// How well address matching does on the acceptance test set (address-variants.ts): per kind of
// variant, how many rows matched the right property, matched a wrong one, were ambiguous with
// the right one among the candidates, or were not matched; and the figures the targets name:
// precision (wrong unique matches), clean variants matched, typos matched or among the
// candidates, absent addresses matched, rows whose city and ZIP code disagree offering the city's
// property, rows that name a property (matched, or candidates: the rows charged), and one-line and
// column forms of a row agreeing.
//   npx tsx scripts/match-accuracy.ts <snapshot.db> [seed=1] [perKind=100]
import { type MatchFields, type MatchResult, namesProperty } from "../src/contract/property-match";
import { openContext } from "../src/server/data/snapshot-context";
import { matchRows } from "../src/server/data/property-match";
import { type AddressVariant, type VariantGroup, addressVariants, readVariantRows } from "./address-variants";

export interface KindFigures {
  kind: string;
  group: VariantGroup;
  rows: number;
  right: number;
  wrong: number;
  /** Not matched, with the expected property among the candidates. */
  offered: number;
  /** Not matched, and the expected property not among the candidates (for an absent address: any row not matched). */
  missed: number;
}

export interface AccuracyFigures {
  kinds: KindFigures[];
  /** Right unique matches over all unique matches (an absent address matched is a wrong one). */
  precision: number;
  wrong: number;
  matched: number;
  /** Share of the clean variants matched to their property. */
  clean: number;
  /** Share of the typos matched to their property or offering it among the candidates. */
  typos: number;
  /** Absent addresses matched to anything. */
  absentMatched: number;
  /** Share of the rows that name properties to offer (a city's and a ZIP code's that disagree) listing them all among the candidates. */
  offered: number;
  /** Rows whose answer names a property: matched, or with candidates. */
  namingProperty: number;
}

type Answer = Pick<MatchResult, "status" | "property_id" | "candidates">;

/** The figures of `results`, one per variant in the same order. */
export function accuracyOf(variants: readonly AddressVariant[], results: readonly Answer[]) {
  const kinds = new Map<string, KindFigures>();
  variants.forEach((v, i) => {
    const r = results[i];
    let k = kinds.get(v.kind);
    if (!k) kinds.set(v.kind, (k = { kind: v.kind, group: v.group, rows: 0, right: 0, wrong: 0, offered: 0, missed: 0 }));
    k.rows++;
    if (r.status === "matched") {
      if (r.property_id === v.expected) k.right++;
      else k.wrong++;
    } else if (v.expected !== null && r.candidates.some((c) => c.property_id === v.expected)) k.offered++;
    else k.missed++;
  });
  const all = [...kinds.values()];
  const offers = variants.flatMap((v, i) => (v.offers ? [[v, results[i]] as const] : []));
  const sum = (list: KindFigures[], f: (k: KindFigures) => number) => list.reduce((n, k) => n + f(k), 0);
  const group = (g: VariantGroup) => all.filter((k) => k.group === g);
  const matched = sum(all, (k) => k.right + k.wrong);
  const wrong = sum(all, (k) => k.wrong);
  return {
    kinds: all,
    precision: matched ? (matched - wrong) / matched : 1,
    wrong,
    matched,
    clean:
      sum(group("clean"), (k) => k.right) /
      Math.max(
        1,
        sum(group("clean"), (k) => k.rows),
      ),
    typos:
      sum(group("typo"), (k) => k.right + k.offered) /
      Math.max(
        1,
        sum(group("typo"), (k) => k.rows),
      ),
    absentMatched: sum(group("absent"), (k) => k.right + k.wrong),
    offered:
      offers.filter(([v, r]) => v.offers!.every((id) => r.candidates.some((c) => c.property_id === id))).length /
      Math.max(1, offers.length),
    namingProperty: results.filter(namesProperty).length,
  } satisfies AccuracyFigures;
}

/** The answer a row gets: its status, and the property it names or the candidates it lists. */
export const answerOf = (r: Answer) => `${r.status} ${r.property_id ?? ""} ${r.candidates.map((c) => c.property_id).join(",")}`;

/** The variants whose two forms (`input` and `twin`) got different answers. */
export function formDisagreements(
  variants: readonly AddressVariant[],
  results: readonly Answer[],
  twins: readonly Answer[],
): AddressVariant[] {
  return variants.filter((v, i) => v.twin && answerOf(results[i]) !== answerOf(twins[i]));
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

if (require.main === module) {
  const [file, seed = "1", perKind = "100"] = process.argv.slice(2);
  if (!file) throw new Error("usage: npx tsx scripts/match-accuracy.ts <snapshot.db> [seed=1] [perKind=100]");
  const context = openContext(file);
  const variants = addressVariants(readVariantRows(context.db), { seed: Number(seed), perKind: Number(perKind) });
  const match = (inputs: MatchFields[]) => {
    const out: Answer[] = [];
    for (let i = 0; i < inputs.length; i += 1000) out.push(...matchRows(context, inputs.slice(i, i + 1000)));
    return out;
  };
  const started = performance.now();
  const results = match(variants.map((v) => v.input));
  const ms = performance.now() - started;
  const twins = match(variants.map((v) => v.twin ?? v.input));
  const figures = accuracyOf(variants, results);
  const disagreeing = formDisagreements(variants, results, twins);
  console.log(`${variants.length} rows of ${file} (seed ${seed}, ${perKind} per kind), matched in ${ms.toFixed(0)} ms`);
  console.log("| kind | group | rows | right | wrong | not matched, offered | not matched |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const k of figures.kinds)
    console.log(`| ${k.kind} | ${k.group} | ${k.rows} | ${k.right} | ${k.wrong} | ${k.offered} | ${k.missed} |`);
  console.log(
    `precision ${pct(figures.precision)} (${figures.wrong} wrong of ${figures.matched} matched; target 99.5%), ` +
      `clean matched ${pct(figures.clean)} (target 98%), typos matched or offered ${pct(figures.typos)} (target 80%), ` +
      `absent addresses matched ${figures.absentMatched} (target 0), city and ZIP code in conflict offering every property they name ` +
      `${pct(figures.offered)}, rows naming a property ${figures.namingProperty} of ${variants.length}, ` +
      `one-line and column forms disagreeing on ${disagreeing.length} of ${variants.filter((v) => v.twin).length} rows (target 0)`,
  );
  context.close();
}
