// The acceptance test set of address matching: from a snapshot's properties, the ways people
// write an address the snapshot holds ("clean"), misspell one ("typo"), or name one it does not
// hold ("absent"), each with the property id a correct matcher finds (null when absent).
// Sampling is seeded, so a seed names one fixed test set:
//   npx tsx scripts/address-variants.ts <snapshot.db> [seed=1] [perKind=40]   (JSON lines on stdout)
import type Database from "better-sqlite3";
import type { MatchFields } from "../src/contract/property-match";
import { STATE_NAMES, isStateCode } from "../src/contract/states";
import { Random } from "../src/snapshot/generate/random";
import { openSnapshot } from "../src/snapshot/snapshot-file";

/** A variant's fields, as a match row gives them. */
export type MatchInput = MatchFields;

export interface VariantRow {
  id: string;
  address: string;
  city: string;
  state_code: string;
  zip: string;
  county: string;
  county_fips: string;
  apn: string | null;
}

export type VariantGroup = "clean" | "typo" | "absent";

export interface AddressVariant {
  kind: string;
  group: VariantGroup;
  input: MatchInput;
  /** the property id a correct matcher finds, null for an address the snapshot does not hold */
  expected: string | null;
}

/** Every property with its parcel's APN, in rowid order. */
export function readVariantRows(db: Database.Database): VariantRow[] {
  const sql = `SELECT p.id, p.address, p.city, p.state_code, p.zip, p.county, p.county_fips, pa.apn
    FROM properties p LEFT JOIN parcels pa ON pa.id = p.parcel_id ORDER BY p.rowid`;
  return db.prepare(sql).all() as VariantRow[];
}

/** USPS street suffixes, abbreviation:spelled out (a generated address uses the first ten), and directionals. */
const pairs = (text: string): Record<string, string> =>
  Object.fromEntries(text.split(" ").map((pair) => pair.split(":") as [string, string]));
const SUFFIXES = pairs(
  "st:Street ave:Avenue rd:Road dr:Drive blvd:Boulevard ln:Lane way:Way pkwy:Parkway ct:Court pl:Place cir:Circle ter:Terrace trl:Trail hwy:Highway sq:Square",
);
const FULL_SUFFIXES = new Set(Object.values(SUFFIXES).map((s) => s.toLowerCase()));
const DIRECTIONS = pairs("n:North s:South e:East w:West ne:Northeast nw:Northwest se:Southeast sw:Southwest");
const UNITS = ["Suite 200", "Ste 4", "# 12", "#12", "Unit B", "Fl 3", "Floor 2", "Apt 5"];
/** Street names no generated address has; each is used only if no row's address contains any of its words. */
const INVENTED = ["Zephyr", "Quillon", "Marigold Crest", "Obsidian Fen", "Wraithmoor", "Tamarack Quay", "Vellichor", "Brindlewick"];
const KEYS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
const LETTERS = [..."abcdefghijklmnopqrstuvwxyz"];

type Role = "number" | "direction" | "name" | "suffix";
interface Token {
  text: string;
  role: Role;
}

const bare = (word: string) => word.replace(/\.$/, "").toLowerCase();
const isAbbreviation = (t: Token) => (t.role === "suffix" && bare(t.text) in SUFFIXES && bare(t.text) !== "way") || t.role === "direction";

/**
 * A street line's words by role: the house number first, directionals, and the suffix (the last
 * suffix word after a name word, so "St Charles Ave" ends in its "Ave"); the rest name the street.
 */
function parseStreet(line: string): Token[] {
  const words = line.trim().split(/\s+/);
  const roles = words.map((w, i): Role => (i === 0 && /^\d/.test(w) ? "number" : bare(w) in DIRECTIONS ? "direction" : "name"));
  for (let i = words.length - 1; i > 0; i--) {
    const w = bare(words[i]);
    if ((w in SUFFIXES || FULL_SUFFIXES.has(w)) && roles.slice(0, i).includes("name")) {
      roles[i] = "suffix";
      break;
    }
    if (roles[i] !== "direction") break; // only directionals follow a suffix ("Main St NW")
  }
  return words.map((text, i) => ({ text, role: roles[i] }));
}

const joined = (tokens: readonly Token[]) => tokens.map((t) => t.text).join(" ");

/** Abbreviations spelled out: "623 N Washington Blvd" as "623 North Washington Boulevard". */
function spelled(tokens: readonly Token[]): string {
  const full = (t: Token) =>
    t.role === "suffix" ? (SUFFIXES[bare(t.text)] ?? t.text) : t.role === "direction" ? DIRECTIONS[bare(t.text)] : t.text;
  return tokens.map(full).join(" ");
}

/** A street line compared without case, punctuation or abbreviations: "623 Washington Blvd." and "623 washington boulevard" are one. */
const streetKey = (line: string) => spelled(parseStreet(line.replace(/[.,]/g, " "))).toLowerCase();

/** The longest street-name word of at least four letters, where a typo goes. */
function typoWord(tokens: readonly Token[]): number {
  let best = -1;
  tokens.forEach((t, i) => {
    if (t.role === "name" && /^[A-Za-z]{4,}$/.test(t.text) && (best < 0 || t.text.length > tokens[best].text.length)) best = i;
  });
  return best;
}

/** `letter` in the case of `model`. */
const caseOf = (model: string, letter: string) => (model === model.toUpperCase() ? letter.toUpperCase() : letter.toLowerCase());

/** The keys a finger slips to from a letter on a QWERTY keyboard: beside it, and touching it in the rows above and below. */
function nearKeys(letter: string): string[] {
  const r = KEYS.findIndex((row) => row.includes(letter));
  const c = KEYS[r].indexOf(letter);
  const near = [KEYS[r][c - 1], KEYS[r][c + 1], KEYS[r - 1]?.[c], KEYS[r - 1]?.[c + 1], KEYS[r + 1]?.[c - 1], KEYS[r + 1]?.[c]];
  return near.filter((k): k is string => !!k);
}

/** One slip of the keyboard: a letter swapped for a neighbour, dropped, added, or two letters swapped; the word keeps its capitals. */
function typo(word: string, rng: Random): string {
  const at = rng.int(0, word.length - 1);
  switch (rng.int(0, 3)) {
    case 0:
      return word.slice(0, at) + caseOf(word[at], rng.pick(nearKeys(word[at].toLowerCase()))) + word.slice(at + 1);
    case 1:
      return at === 0 ? caseOf(word[0], word[1]) + word.slice(2) : word.slice(0, at) + word.slice(at + 1);
    case 2:
      return word.slice(0, at + 1) + caseOf(word[at], rng.pick(LETTERS)) + word.slice(at + 1);
    default: {
      const i = Math.min(at, word.length - 2);
      return word.slice(0, i) + caseOf(word[i], word[i + 1]) + caseOf(word[i + 1], word[i]) + word.slice(i + 2);
    }
  }
}

/** "Texas" for "TX"; null for a code that is not a state's. */
const stateName = (code: string): string | null => (isStateCode(code) ? STATE_NAMES[code] : null);

/** "Travis County"; a parish in Louisiana; Alaska's boroughs and the independent cities keep their names. */
function countyName(county: string, state: string): string {
  if (state === "AK" || /\b(county|parish|borough|city)$/i.test(county)) return county;
  return `${county} ${state === "LA" ? "Parish" : "County"}`;
}

interface Prepared {
  row: VariantRow;
  tokens: Token[];
  key: string;
  /** The street line is the only one of its kind in its city and state, and in its ZIP. */
  unique: boolean;
}

interface Kind {
  kind: string;
  group: VariantGroup;
  /** The rows this kind may sample (besides the uniqueness rule of clean and typo kinds). */
  eligible?: (p: Prepared) => boolean;
  /** The input for one sampled row (the `n`th of the kind, for forms that alternate), or null when the row gives none. */
  make: (p: Prepared, rng: Random, n: number) => MatchInput | null;
}

/** Deterministic (seeded) variants of `perKind` sampled properties per kind. */
export function addressVariants(rows: readonly VariantRow[], options: { seed: number; perKind: number }): AddressVariant[] {
  // Counts of street lines by city and state, by ZIP and by state, and of APNs by county.
  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const inCity = (r: VariantRow, key: string) => `c|${r.city.trim().toLowerCase()}|${r.state_code}|${key}`;
  const inZip = (r: VariantRow, key: string) => `z|${r.zip}|${key}`;
  const inState = (r: VariantRow, key: string) => `s|${r.state_code}|${key}`;
  const apnKeys = (r: VariantRow) => {
    const apn = (r.apn ?? "").replace(/[\s-]/g, "").toUpperCase();
    return [`f|${r.county_fips}|${apn}`, `n|${r.county.toLowerCase()}|${r.state_code}|${apn}`];
  };
  const held = (r: VariantRow, key: string) => counts.has(inCity(r, key)) || counts.has(inZip(r, key));
  const prepared = rows.map((row) => ({ row, tokens: parseStreet(row.address), key: streetKey(row.address), unique: false }));
  for (const { row, key } of prepared) [inCity(row, key), inZip(row, key), inState(row, key), ...apnKeys(row)].forEach(count);
  for (const p of prepared) p.unique = counts.get(inCity(p.row, p.key)) === 1 && counts.get(inZip(p.row, p.key)) === 1;

  const addresses = rows.map((r) => r.address.toLowerCase()).join("\n");
  const invented = INVENTED.filter((name) => !name.split(" ").some((w) => addresses.includes(w.toLowerCase())));
  const line = (street: string, r: VariantRow, zip = r.zip) => `${street}, ${r.city}, ${r.state_code} ${zip}`;
  const hasApn = (p: Prepared) => !!p.row.apn && apnKeys(p.row).every((k) => counts.get(k) === 1);
  const apnAsGiven = (apn: string, n: number) => (n % 2 ? apn.replace(/[\s-]/g, "") : apn);
  const numbered = (p: Prepared) => p.tokens.length > 1 && p.tokens[0].role === "number" && /^\d+$/.test(p.tokens[0].text);

  const kinds: Kind[] = [
    { kind: "as_stored", group: "clean", make: ({ row: r }) => ({ address: line(r.address, r) }) },
    {
      kind: "suffix_spelled",
      group: "clean",
      eligible: (p) => spelled(p.tokens) !== p.row.address,
      make: (p) => ({ address: line(spelled(p.tokens), p.row) }),
    },
    {
      kind: "lower_no_commas",
      group: "clean",
      make: ({ row: r }) => ({ address: `${r.address} ${r.city} ${r.state_code} ${r.zip}`.toLowerCase() }),
    },
    {
      kind: "state_name",
      group: "clean",
      eligible: (p) => stateName(p.row.state_code) !== null,
      make: ({ row: r }, _, n) => ({ address: `${r.address}, ${r.city}, ${stateName(r.state_code)}${n % 2 ? "" : ` ${r.zip}`}` }),
    },
    { kind: "no_zip", group: "clean", make: ({ row: r }) => ({ address: `${r.address}, ${r.city}, ${r.state_code}` }) },
    { kind: "street_zip_only", group: "clean", make: ({ row: r }, _, n) => ({ address: `${r.address}${n % 2 ? "," : ""} ${r.zip}` }) },
    {
      kind: "suite",
      group: "clean",
      make: ({ row: r }, rng) => ({ address: line(`${r.address}${rng.chance(0.5) ? "," : ""} ${rng.pick(UNITS)}`, r) }),
    },
    { kind: "zip_plus4", group: "clean", make: ({ row: r }, rng) => ({ address: line(r.address, r, `${r.zip}-${rng.digits(4)}`) }) },
    {
      kind: "punctuation",
      group: "clean",
      make: ({ row: r, tokens }, rng) => {
        // Periods after abbreviations, double spaces, shouted street names, a trailing comma: at least one of them.
        const [dots, shout, spaces] = [rng.chance(0.6), rng.chance(0.5), rng.chance(0.5)];
        const trailing = rng.chance(0.5) || !(dots || shout || spaces);
        const word = (t: Token) => {
          const text = dots && isAbbreviation(t) && !t.text.endsWith(".") ? `${t.text}.` : t.text;
          return !shout ? text : t.role === "name" ? text.toUpperCase() : t.role === "suffix" ? text.toLowerCase() : text;
        };
        const sep = spaces ? "  " : " ";
        const street = tokens.map(word).join(sep);
        return { address: `${street},${sep}${r.city},${sep}${r.state_code}${dots ? "." : ""} ${r.zip}${trailing ? "," : ""}` };
      },
    },
    {
      kind: "separate_fields",
      group: "clean",
      eligible: (p) => stateName(p.row.state_code) !== null,
      make: ({ row: r }, _, n) => {
        const state = (n % 2 && stateName(r.state_code)) || r.state_code;
        return { address: r.address, city: r.city, state, ...(n % 4 < 2 ? { zip: r.zip } : {}) };
      },
    },
    {
      kind: "apn_county",
      group: "clean",
      eligible: hasApn,
      make: ({ row: r }, _, n) => ({
        apn: apnAsGiven(r.apn ?? "", n),
        county: n % 4 < 2 ? r.county : countyName(r.county, r.state_code),
        state: r.state_code,
      }),
    },
    {
      kind: "apn_fips",
      group: "clean",
      eligible: hasApn,
      make: ({ row: r }, _, n) => ({ apn: apnAsGiven(r.apn ?? "", n), county: r.county_fips }),
    },
    {
      kind: "street_typo",
      group: "typo",
      eligible: (p) => typoWord(p.tokens) >= 0,
      make: ({ row: r, tokens, key }, rng, n) => {
        const at = typoWord(tokens);
        for (let attempt = 0; attempt < 10; attempt++) {
          const street = joined(tokens.map((t, i) => (i === at ? { ...t, text: typo(t.text, rng) } : t)));
          // A typo that makes another street line of the place (or undoes itself) is no typo.
          if (streetKey(street) === key || held(r, streetKey(street))) continue;
          if (n % 3 === 2) return { address: street, city: r.city, state: r.state_code, zip: r.zip };
          return { address: n % 3 ? `${street}, ${r.city}, ${r.state_code}` : line(street, r) };
        }
        return null;
      },
    },
    {
      kind: "number_not_on_street",
      group: "absent",
      eligible: numbered,
      make: ({ row: r, tokens }, rng) => {
        for (let attempt = 0; attempt < 20; attempt++) {
          const number = Number(tokens[0].text) + rng.int(1, 12) * (rng.chance(0.5) ? 1 : -1);
          const street = `${number} ${joined(tokens.slice(1))}`;
          if (number > 0 && !held(r, streetKey(street))) return { address: line(street, r) };
        }
        return null;
      },
    },
    {
      kind: "invented_street",
      group: "absent",
      eligible: (p) => numbered(p) && p.tokens.some((t) => t.role === "suffix") && invented.length > 0,
      make: ({ row: r, tokens }, rng) => {
        const suffix = tokens.find((t) => t.role === "suffix")?.text ?? "";
        return { address: line(`${tokens[0].text} ${rng.pick(invented)} ${suffix}`, r) };
      },
    },
    {
      kind: "other_state",
      group: "absent",
      make: ({ row: r, key }, rng) => {
        for (let attempt = 0; attempt < 30; attempt++) {
          const other = rng.pick(rows);
          if (other.state_code !== r.state_code && !counts.has(inState(other, key)) && !held(other, key))
            return { address: line(r.address, other) };
        }
        return null;
      },
    },
  ];

  const variants: AddressVariant[] = [];
  for (const { kind, group, eligible, make } of kinds) {
    const rng = new Random(options.seed, `address-variants:${kind}`);
    const pool = prepared.filter((p) => (group === "absent" || p.unique) && (eligible?.(p) ?? true));
    // A Fisher-Yates shuffle run only as far as needed: rows in a seeded order, each at most once.
    for (let i = 0, made = 0; i < pool.length && made < options.perKind; i++) {
      const j = rng.int(i, pool.length - 1);
      [pool[i], pool[j]] = [pool[j], pool[i]];
      const input = make(pool[i], rng, made);
      if (!input) continue;
      variants.push({ kind, group, input, expected: group === "absent" ? null : pool[i].row.id });
      made++;
    }
  }
  return variants;
}

if (require.main === module) {
  const [file, seed = "1", perKind = "40"] = process.argv.slice(2);
  if (!file) throw new Error("usage: address-variants.ts <snapshot.db> [seed] [perKind]");
  const db = openSnapshot(file);
  for (const v of addressVariants(readVariantRows(db), { seed: Number(seed), perKind: Number(perKind) })) console.log(JSON.stringify(v));
  db.close();
}
