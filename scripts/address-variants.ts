// The acceptance test set of address matching: from a snapshot's properties, the ways people
// write an address the snapshot holds ("clean"), misspell one ("typo"), name one it does not hold
// ("absent", among them a street one letter from a property's that is itself a street's name:
// Mill Dr beside Hill Dr, or a city and a ZIP code that disagree), each with the property id a
// correct matcher finds (null when absent; a row whose city and ZIP code disagree also names the
// property it must offer among its candidates, and not match). An address row is written in one line or in columns (address, city,
// state, ZIP), and carries the other form as its `twin`: both must get the same answer.
// Sampling is seeded, so a seed names one fixed test set:
//   npx tsx scripts/address-variants.ts <snapshot.db> [seed=1] [perKind=40]   (JSON lines on stdout)
import type Database from "better-sqlite3";
import { editDistance } from "../src/contract/near-names";
import { namesPlace } from "../src/contract/place-aliases";
import type { MatchFields } from "../src/contract/property-match";
import { cityKey, countyKey } from "../src/contract/street-address";
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
  /** The same row in the other form (columns for a one-line row, one line for columns); none for a parcel number. */
  twin?: MatchInput;
  /** the property id a correct matcher finds, null for an address the snapshot does not hold */
  expected: string | null;
  /** Properties a correct matcher offers among the candidates and does not match (the city's, and the ZIP code's when it holds the street line). */
  offers?: string[];
}

/** An address as a kind writes it: its parts, in one line (`line`, or the parts joined) or in columns. */
interface Written {
  street: string;
  city?: string;
  state?: string;
  zip?: string;
  /** The one line as written, when it is not the parts joined by commas. */
  line?: string;
  as: "line" | "columns";
}

const joinedLine = (w: Written) => [w.street, w.city, [w.state, w.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
const columnsOf = (w: Written): MatchInput => ({
  address: w.street,
  ...(w.city ? { city: w.city } : {}),
  ...(w.state ? { state: w.state } : {}),
  ...(w.zip ? { zip: w.zip } : {}),
});

/** A written address as a row, and its twin in the other form. */
function rowOf(w: Written): { input: MatchInput; twin: MatchInput } {
  const line = { address: w.line ?? joinedLine(w) };
  return w.as === "line" ? { input: line, twin: columnsOf(w) } : { input: columnsOf(w), twin: line };
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
/** A city's first word in its other form: Saint and St, Fort and Ft, Mount and Mt. */
const CITY_WORD_FORMS: Record<string, string> = { Saint: "St.", St: "Saint", Fort: "Ft.", Ft: "Fort", Mount: "Mt.", Mt: "Mount" };
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
  /** The row for one sampled property (the `n`th of the kind, for forms that alternate): an address written, a parcel's input, or null when the property gives none. */
  make: (p: Prepared, rng: Random, n: number) => Written | MatchInput | null;
  /** The sampled property is to be offered, not matched. */
  offered?: boolean;
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
  const parts = (street: string, r: VariantRow, as: Written["as"] = "line", zip = r.zip): Written => ({
    street,
    city: r.city,
    state: r.state_code,
    zip,
    as,
  });
  const lower = (w: Written): Written => ({
    ...w,
    street: w.street.toLowerCase(),
    city: w.city?.toLowerCase(),
    state: w.state?.toLowerCase(),
  });
  const apnInState = (r: VariantRow) => `a|${r.state_code}|${(r.apn ?? "").replace(/[\s-]/g, "").toUpperCase()}`;
  for (const { row } of prepared) if (row.apn) count(apnInState(row));

  // Street-name words one letter apart (Mill and Hill, Pine and Vine), both names of the snapshot's streets.
  const nameWords = [...new Set(prepared.flatMap((p) => p.tokens.filter((t) => t.role === "name").map((t) => t.text.toLowerCase())))];
  const siblings = new Map<string, string[]>();
  for (const a of nameWords) {
    const near = nameWords.filter((b) => b !== a && b.length === a.length && /^[a-z]{4,}$/.test(b) && editDistance(a, b) === 1);
    if (near.length && /^[a-z]{4,}$/.test(a)) siblings.set(a, near);
  }

  // The ZIP codes of each state, and for a property the one elsewhere with its street line in another city and ZIP code of its state.
  const zipsByState = new Map<string, Set<string>>();
  for (const { row } of prepared) {
    if (!zipsByState.has(row.state_code)) zipsByState.set(row.state_code, new Set());
    zipsByState.get(row.state_code)!.add(row.zip);
  }
  const byStreet = new Map<string, VariantRow[]>();
  for (const { row, key } of prepared) byStreet.set(inState(row, key), [...(byStreet.get(inState(row, key)) ?? []), row]);
  // Anywhere: "469 Valley St, Waterville, 83303" names Waterville's (Maine) and 83303's (Idaho).
  const sameStreetElsewhere = new Map<string, VariantRow>();
  const anywhere = new Map<string, VariantRow[]>();
  for (const { row, key } of prepared) anywhere.set(key, [...(anywhere.get(key) ?? []), row]);
  for (const list of anywhere.values()) {
    for (const a of list) {
      const b = list.find((o) => o.zip !== a.zip && cityKey(o.city) !== cityKey(a.city));
      if (b) sameStreetElsewhere.set(a.id, b);
    }
  }

  /** The city as analysts write it: New York for a New York City borough or neighbourhood, Bronx for The Bronx, St for Saint, Fort for Ft. */
  const aliasOf = (r: VariantRow): string | null => {
    const swapped = r.city.replace(/^(Saint|St\.?|Fort|Ft\.?|Mount|Mt\.?)(?= )/, (w) => CITY_WORD_FORMS[w.replace(".", "")] ?? w);
    if (swapped !== r.city) return swapped;
    if (r.state_code !== "NY") return null;
    if (r.city === "The Bronx") return "Bronx";
    const place = { state: "NY", city: cityKey(r.city), county: countyKey(r.county) };
    return namesPlace("NEW YORK", place) ? (r.city === "New York City" ? "NYC" : "New York") : null;
  };
  /** No other property with this street line is in the places the alias names. */
  const aliasUnique = (p: Prepared, alias: string) =>
    (byStreet.get(inState(p.row, p.key)) ?? []).filter((o) =>
      namesPlace(cityKey(alias), { state: o.state_code, city: cityKey(o.city), county: countyKey(o.county) }),
    ).length === 1;
  /** A county's name written otherwise: its spaces left out (Du Page as DuPage), or St as Saint. */
  const countyAlias = (county: string): string | null => {
    const saint = county.replace(/^St\.? /, "Saint ");
    if (saint !== county) return saint;
    return /^(Du|La|De|Le|Mc) \w/.test(county) ? county.replace(" ", "") : null;
  };

  const kinds: Kind[] = [
    { kind: "as_stored", group: "clean", make: ({ row: r }) => parts(r.address, r) },
    {
      kind: "suffix_spelled",
      group: "clean",
      eligible: (p) => spelled(p.tokens) !== p.row.address,
      make: (p) => parts(spelled(p.tokens), p.row),
    },
    {
      kind: "lower_no_commas",
      group: "clean",
      make: ({ row: r }) => {
        const w = lower({ street: r.address, city: r.city, state: r.state_code, zip: r.zip, as: "line" });
        return { ...w, line: [w.street, w.city, w.state, w.zip].join(" ") };
      },
    },
    {
      kind: "state_name",
      group: "clean",
      eligible: (p) => stateName(p.row.state_code) !== null,
      make: ({ row: r }, _, n) => ({
        street: r.address,
        city: r.city,
        state: stateName(r.state_code)!,
        ...(n % 2 ? {} : { zip: r.zip }),
        as: n % 4 < 2 ? "line" : "columns",
      }),
    },
    { kind: "no_zip", group: "clean", make: ({ row: r }) => ({ street: r.address, city: r.city, state: r.state_code, as: "line" }) },
    {
      kind: "street_zip_only",
      group: "clean",
      make: ({ row: r }, _, n) => ({ street: r.address, zip: r.zip, line: `${r.address}${n % 2 ? "," : ""} ${r.zip}`, as: "line" }),
    },
    {
      kind: "suite",
      group: "clean",
      make: ({ row: r }, rng) => parts(`${r.address}${rng.chance(0.5) ? "," : ""} ${rng.pick(UNITS)}`, r),
    },
    { kind: "zip_plus4", group: "clean", make: ({ row: r }, rng) => parts(r.address, r, "line", `${r.zip}-${rng.digits(4)}`) },
    {
      kind: "zip_lost_zero",
      group: "clean",
      eligible: (p) => p.row.zip.startsWith("0"),
      make: ({ row: r }) => ({
        street: r.address,
        city: r.city,
        state: r.state_code,
        line: line(r.address, r, r.zip.slice(1)),
        as: "line",
      }),
    },
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
        const state = `${r.state_code}${dots ? "." : ""}`;
        const text = `${street},${sep}${r.city},${sep}${state} ${r.zip}${trailing ? "," : ""}`;
        return { street, city: r.city, state, zip: r.zip, line: text, as: "line" };
      },
    },
    {
      kind: "separate_fields",
      group: "clean",
      eligible: (p) => stateName(p.row.state_code) !== null,
      make: ({ row: r }, _, n) => {
        const state = (n % 2 && stateName(r.state_code)) || r.state_code;
        return { street: r.address, city: r.city, state, ...(n % 4 < 2 ? { zip: r.zip } : {}), as: "columns" };
      },
    },
    {
      kind: "place_alias",
      group: "clean",
      // A city written as analysts write it (New York for Manhattan, Bronx for The Bronx, Saint for St, Ft for Fort), the street line still one of its kind there.
      eligible: (p) => aliasOf(p.row) !== null && aliasUnique(p, aliasOf(p.row)!),
      make: ({ row: r }, _, n) => ({
        street: r.address,
        city: aliasOf(r)!,
        state: r.state_code,
        ...(n % 3 === 2 ? { zip: r.zip } : {}),
        as: n % 2 ? "columns" : "line",
      }),
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
      kind: "apn_county_alias",
      group: "clean",
      // DuPage for Du Page, Saint Clair for St Clair: a county's name as analysts write it, without its state.
      eligible: (p) => hasApn(p) && countyAlias(p.row.county) !== null,
      make: ({ row: r }, _, n) => ({ apn: apnAsGiven(r.apn ?? "", n), county: countyAlias(r.county)! }),
    },
    {
      kind: "apn_fips",
      group: "clean",
      eligible: hasApn,
      make: ({ row: r }, _, n) => ({ apn: apnAsGiven(r.apn ?? "", n), county: r.county_fips }),
    },
    {
      kind: "apn_state",
      group: "clean",
      eligible: (p) => hasApn(p) && counts.get(apnInState(p.row)) === 1,
      make: ({ row: r }, _, n) => ({
        apn: apnAsGiven(r.apn ?? "", n),
        state: n % 2 ? r.state_code : (stateName(r.state_code) ?? r.state_code),
      }),
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
          if (n % 3 === 2) return { street, city: r.city, state: r.state_code, zip: r.zip, as: "columns" };
          return n % 3 ? { street, city: r.city, state: r.state_code, as: "line" } : parts(street, r);
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
          if (number > 0 && !held(r, streetKey(street))) return parts(street, r);
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
        return parts(`${tokens[0].text} ${rng.pick(invented)} ${suffix}`, r);
      },
    },
    {
      kind: "sibling_street",
      group: "absent",
      // Mill Dr for Hill Dr at the same number, in its city and ZIP code: Mill is a street's name too, so it is no typo.
      eligible: (p) => numbered(p) && p.tokens.some((t) => t.role === "name" && siblings.has(t.text.toLowerCase())),
      make: ({ row: r, tokens }, rng, n) => {
        const at = tokens.findIndex((t) => t.role === "name" && siblings.has(t.text.toLowerCase()));
        const others = siblings.get(tokens[at].text.toLowerCase())!;
        for (let k = 0, start = rng.int(0, others.length - 1); k < others.length; k++) {
          const other = others[(start + k) % others.length];
          const street = joined(tokens.map((t, i) => (i === at ? { ...t, text: caseOf(t.text[0], other[0]) + other.slice(1) } : t)));
          if (!held(r, streetKey(street))) return parts(street, r, n % 2 ? "columns" : "line");
        }
        return null;
      },
    },
    {
      kind: "other_state",
      group: "absent",
      make: ({ row: r, key }, rng) => {
        for (let attempt = 0; attempt < 30; attempt++) {
          const other = rng.pick(rows);
          if (other.state_code !== r.state_code && !counts.has(inState(other, key)) && !held(other, key)) return parts(r.address, other);
        }
        return null;
      },
    },
    {
      kind: "city_zip_conflict",
      group: "absent",
      offered: true,
      // The property's city with the ZIP code of another property with its street line (first), or of another place in
      // its state; the state is given only when it is both's.
      eligible: (p) => sameStreetElsewhere.has(p.row.id) || zipsByState.get(p.row.state_code)!.size > 1,
      make: ({ row: r }, rng, n) => {
        const twin = sameStreetElsewhere.get(r.id);
        const zip = twin?.zip ?? rng.pick([...zipsByState.get(r.state_code)!].filter((z) => z !== r.zip));
        const state = n % 2 && (!twin || twin.state_code === r.state_code) ? { state: r.state_code } : {};
        return { street: r.address, city: r.city, ...state, zip, as: n % 4 < 2 ? "line" : "columns" };
      },
    },
  ];

  const offersOf = (id: string) => [id, ...(sameStreetElsewhere.has(id) ? [sameStreetElsewhere.get(id)!.id] : [])];
  const variants: AddressVariant[] = [];
  for (const { kind, group, eligible, make, offered } of kinds) {
    const rng = new Random(options.seed, `address-variants:${kind}`);
    const all = prepared.filter((p) => ((group === "absent" && !offered) || p.unique) && (eligible?.(p) ?? true));
    // A conflict's rare rows whose ZIP code holds the same street line elsewhere come first, up to half of the kind.
    const first = offered ? all.filter((p) => sameStreetElsewhere.has(p.row.id)).slice(0, Math.ceil(options.perKind / 2)) : [];
    const pool = [...first, ...all.filter((p) => !first.includes(p))];
    // A Fisher-Yates shuffle run only as far as needed: rows in a seeded order, each at most once.
    for (let i = 0, made = 0; i < pool.length && made < options.perKind; i++) {
      const j = i < first.length ? i : rng.int(i, pool.length - 1);
      [pool[i], pool[j]] = [pool[j], pool[i]];
      const written = make(pool[i], rng, made);
      if (!written) continue;
      const row = "street" in written ? rowOf(written) : { input: written };
      const id = pool[i].row.id;
      variants.push({ kind, group, ...row, expected: group === "absent" ? null : id, ...(offered ? { offers: offersOf(id) } : {}) });
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
