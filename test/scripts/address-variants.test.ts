// The acceptance set of address matching (scripts/address-variants.ts) over the test snapshot: one
// seed gives one set, every kind is full, a clean or typo variant names the one property holding
// its street line in its place, an absent variant names a street line no property there holds (or,
// for a city and ZIP code in conflict, the city's property with another ZIP code), and every
// address row carries its twin in the other form.
import type Database from "better-sqlite3";
import { addressVariants, readVariantRows, type AddressVariant, type MatchInput, type VariantRow } from "../../scripts/address-variants";
import { openSnapshot } from "../../src/snapshot/snapshot-file";
import { snapshotPath } from "../helpers/service";

const KINDS = {
  clean: [
    "as_stored",
    "suffix_spelled",
    "lower_no_commas",
    "state_name",
    "no_zip",
    "street_zip_only",
    "suite",
    "zip_plus4",
    "zip_lost_zero",
    "punctuation",
    "separate_fields",
    "place_alias",
    "apn_county",
    "apn_county_alias",
    "apn_fips",
    "apn_state",
  ],
  typo: ["street_typo"],
  absent: ["number_not_on_street", "invented_street", "sibling_street", "other_state", "city_zip_conflict"],
};
const ALL_KINDS = [...KINDS.clean, ...KINDS.typo, ...KINDS.absent];
const PER_KIND = 40;

/** Edits between two strings, an adjacent swap counting as one (optimal string alignment distance). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The rows holding a street line (without case) in a city and state, and in a ZIP. */
function holders(rows: readonly VariantRow[], street: string, city: string, state: string, zip: string) {
  const line = rows.filter((r) => same(r.address, street));
  return { inCity: line.filter((r) => same(r.city, city) && r.state_code === state), inZip: line.filter((r) => r.zip === zip) };
}

/** The street line of an input: its own field, or the text before the first comma of a one-line address. */
const streetOf = (v: AddressVariant) => (v.input.city ? v.input.address! : v.input.address!.split(",")[0]);

/** "623 Washington Blvd, Austin, TX 78721" as its parts, or a row's columns. */
function parts(v: AddressVariant) {
  if (v.input.city) return { street: v.input.address!, city: v.input.city, state: v.input.state ?? "", zip: v.input.zip ?? "" };
  const [street, city, stateZip = ""] = v.input.address!.split(", ");
  const [state, zip] = /^\d/.test(stateZip) ? ["", stateZip] : stateZip.split(" ");
  return { street, city, state, zip };
}

describe("address variants of the test snapshot", () => {
  let db: Database.Database;
  let rows: VariantRow[];
  let variants: AddressVariant[];
  const byId = new Map<string, VariantRow>();
  const ofKind = (kind: string) => variants.filter((v) => v.kind === kind);

  beforeAll(() => {
    db = openSnapshot(snapshotPath());
    rows = readVariantRows(db);
    for (const r of rows) byId.set(r.id, r);
    variants = addressVariants(rows, { seed: 1, perKind: PER_KIND });
  });
  afterAll(() => db.close());

  test("reads every property, with its parcel's APN", () => {
    expect(rows.length).toBe(db.prepare("SELECT count(*) FROM properties").pluck().get());
    expect(rows.filter((r) => r.apn).length).toBeGreaterThan(rows.length / 2);
  });

  test("one seed gives one set, another seed another, and the rows are left as they were", () => {
    const before = structuredClone(rows);
    expect(addressVariants(rows, { seed: 1, perKind: PER_KIND })).toEqual(variants);
    expect(addressVariants(rows, { seed: 2, perKind: PER_KIND })).not.toEqual(variants);
    expect(rows).toEqual(before);
  });

  test("every kind, in its group, with perKind variants, grouped by kind in a stable order", () => {
    expect([...new Set(variants.map((v) => v.kind))]).toEqual(ALL_KINDS);
    for (const kind of ALL_KINDS) expect([kind, ofKind(kind).length]).toEqual([kind, PER_KIND]);
    for (const [group, kinds] of Object.entries(KINDS))
      for (const v of variants.filter((x) => kinds.includes(x.kind))) expect(v.group).toBe(group);
    for (let i = 1; i < variants.length; i++) {
      expect(ALL_KINDS.indexOf(variants[i].kind)).toBeGreaterThanOrEqual(ALL_KINDS.indexOf(variants[i - 1].kind));
    }
  });

  test("a clean or typo variant names the one property holding its street line in its city and state, and in its ZIP", () => {
    for (const v of variants.filter((x) => x.group !== "absent")) {
      const row = byId.get(v.expected!)!;
      expect(row).toBeDefined();
      const { inCity, inZip } = holders(rows, row.address, row.city, row.state_code, row.zip);
      expect([v.kind, inCity.length, inZip.length]).toEqual([v.kind, 1, 1]);
    }
    for (const kind of [...KINDS.clean, ...KINDS.typo]) expect(new Set(ofKind(kind).map((v) => v.expected)).size).toBe(PER_KIND);
  });

  test("clean variants carry the property's own address, APN or place", () => {
    for (const v of ofKind("as_stored")) {
      const r = byId.get(v.expected!)!;
      expect(v.input).toEqual({ address: `${r.address}, ${r.city}, ${r.state_code} ${r.zip}` });
    }
    for (const v of [...ofKind("lower_no_commas"), ...ofKind("zip_plus4"), ...ofKind("street_zip_only")]) {
      expect(v.input.address!.toLowerCase()).toContain(byId.get(v.expected!)!.zip);
    }
    for (const v of ofKind("suffix_spelled"))
      expect(v.input.address).toMatch(/Street|Avenue|Road|Drive|Boulevard|Lane|Parkway|Court|Place|North|South|East|West/);
    for (const v of ofKind("punctuation")) {
      const r = byId.get(v.expected!)!;
      expect(v.input.address).not.toBe(`${r.address}, ${r.city}, ${r.state_code} ${r.zip}`);
    }
    for (const v of [...ofKind("apn_county"), ...ofKind("apn_fips")]) {
      const r = byId.get(v.expected!)!;
      expect(v.input.apn!.replace(/[\s-]/g, "")).toBe(r.apn!.replace(/[\s-]/g, ""));
      expect(v.input.county!.startsWith(v.kind === "apn_fips" ? r.county_fips : r.county)).toBe(true);
    }
    expect(ofKind("apn_county").some((v) => v.input.apn!.includes("-"))).toBe(true);
    expect(ofKind("apn_county").some((v) => / (County|Parish)$/.test(v.input.county!))).toBe(true);
    expect(ofKind("separate_fields").some((v) => v.input.zip === undefined)).toBe(true);
    expect(ofKind("separate_fields").some((v) => (v.input.state ?? "").length > 2)).toBe(true);
  });

  test("a typo is one edit in the street name: the number, the suffix and the place are the property's", () => {
    const forms = new Set<string>();
    for (const v of ofKind("street_typo")) {
      const r = byId.get(v.expected!)!;
      const street = streetOf(v);
      expect([street, editDistance(street.toLowerCase(), r.address.toLowerCase())]).toEqual([street, 1]);
      const [typed, stored] = [street.split(" "), r.address.split(" ")];
      expect([typed[0], typed.at(-1)]).toEqual([stored[0], stored.at(-1)]);
      const rest = v.input.city ? `${v.input.city}, ${v.input.state} ${v.input.zip}` : v.input.address!.slice(street.length + 2);
      expect(`${r.city}, ${r.state_code} ${r.zip}`.startsWith(rest)).toBe(true);
      forms.add(v.input.city ? "fields" : rest.includes(r.zip) ? "line" : "no zip");
    }
    expect(forms.size).toBe(3);
  });

  test("an absent variant's street line is held by no property in its city and state, or in its ZIP", () => {
    for (const v of variants.filter((x) => x.group === "absent")) {
      expect(v.expected).toBeNull();
      if (v.kind === "city_zip_conflict") continue;
      const { street, city, state, zip } = parts(v);
      const { inCity, inZip } = holders(rows, street, city, state, zip);
      expect([v.input.address, inCity.length, inZip.length]).toEqual([v.input.address, 0, 0]);
    }
    // The street is there, the number is not.
    for (const v of ofKind("number_not_on_street")) {
      const { street, city, state } = parts(v);
      const name = street.slice(street.indexOf(" "));
      expect(rows.some((r) => same(r.city, city) && r.state_code === state && r.address.toLowerCase().endsWith(name.toLowerCase()))).toBe(
        true,
      );
    }
    // No property anywhere is on the invented street.
    for (const v of ofKind("invented_street")) {
      const words = parts(v).street.split(" ").slice(1, -1);
      for (const w of words) expect(rows.filter((r) => r.address.toLowerCase().includes(w.toLowerCase()))).toEqual([]);
    }
    // No property in the other state has the street line at all.
    for (const v of ofKind("other_state")) {
      const { street, state } = parts(v);
      expect(rows.filter((r) => r.state_code === state && same(r.address, street))).toEqual([]);
      expect(rows.some((r) => r.state_code !== state && same(r.address, street))).toBe(true);
    }
    // A sibling street is one letter from a property's street at the same number in its city, and a street's name elsewhere.
    for (const v of ofKind("sibling_street")) {
      const { street, city, state } = parts(v);
      const [number, name] = street.split(" ");
      const near = rows.filter(
        (r) => same(r.city, city) && r.state_code === state && r.address.split(" ")[0] === number && editDistance(r.address, street) === 1,
      );
      expect([street, near.length]).toEqual([street, 1]);
      expect(rows.some((r) => same(r.address.split(" ")[1], name))).toBe(true);
    }
    // A conflict is the property's street line and city with a ZIP code of its state that is not its own.
    for (const v of ofKind("city_zip_conflict")) {
      const [r, elsewhere] = v.offers!.map((id) => byId.get(id)!);
      const { street, city, zip } = parts(v);
      expect([street, city]).toEqual([r.address, r.city]);
      expect(zip).not.toBe(r.zip);
      // The ZIP code is of its state, or of the property elsewhere with its street line.
      if (elsewhere) expect([elsewhere.address, elsewhere.zip, elsewhere.city === r.city]).toEqual([r.address, zip, false]);
      else expect(rows.some((o) => o.zip === zip && o.state_code === r.state_code)).toBe(true);
    }
    expect(ofKind("city_zip_conflict").some((v) => v.offers!.length === 2)).toBe(true);
  });

  test("place aliases, county aliases, parcel numbers by state and ZIP codes without their leading zero", () => {
    for (const v of ofKind("place_alias")) {
      const r = byId.get(v.expected!)!;
      expect([parts(v).street, parts(v).city === r.city]).toEqual([r.address, false]);
    }
    expect(ofKind("place_alias").some((v) => /^(New York|NYC|Bronx)$/.test(parts(v).city))).toBe(true);
    for (const v of ofKind("apn_county_alias")) {
      const r = byId.get(v.expected!)!;
      expect(v.input.county).not.toBe(r.county);
      expect(v.input.county!.replace(/^Saint /, "St ").replace(/ /g, "")).toBe(r.county.replace(/^St\.? /, "St ").replace(/ /g, ""));
    }
    for (const v of ofKind("apn_state")) expect([v.input.county, v.input.state!.length >= 2]).toEqual([undefined, true]);
    for (const v of ofKind("zip_lost_zero")) {
      const r = byId.get(v.expected!)!;
      expect(v.input.address!.endsWith(` ${r.state_code} ${r.zip.slice(1)}`)).toBe(true);
    }
  });

  test("every address row carries its twin in the other form: one line for columns, columns for one line", () => {
    for (const v of variants) {
      if (v.input.apn) {
        expect(v.twin).toBeUndefined();
        continue;
      }
      const isLine = (input: MatchInput) => Object.keys(input).length === 1;
      const [line, columns] = isLine(v.input) ? [v.input, v.twin!] : [v.twin!, v.input];
      expect([v.kind, isLine(line), isLine(columns)]).toEqual([v.kind, true, false]);
      expect([v.kind, line.city, line.address!.startsWith(columns.address!)]).toEqual([v.kind, undefined, true]);
    }
  });
});

describe("address variants of a few rows written to repeat", () => {
  const row = (id: string, address: string, city: string, zip: string): VariantRow => ({
    id,
    address,
    city,
    state_code: "TX",
    zip,
    county: "Travis",
    county_fips: "48453",
    apn: `${id}-000`,
  });
  const rows = [
    row("twin_a", "623 Washington Blvd", "Austin", "78721"),
    row("twin_b", "623 washington boulevard", "AUSTIN", "78722"),
    row("zip_a", "10 Oak St", "Austin", "78701"),
    row("zip_b", "10 Oak St", "Sunset Valley", "78701"),
    row("alone", "77 N Cedar Ave", "Austin", "78702"),
  ];

  test("a street line held twice in a city or in a ZIP gives no clean or typo variant; the one held once does", () => {
    const variants = addressVariants(rows, { seed: 3, perKind: 5 });
    for (const v of variants.filter((x) => x.group !== "absent")) expect(v.expected).toBe("alone");
    const spelled = variants.find((v) => v.kind === "suffix_spelled");
    expect(spelled?.input.address).toBe("77 North Cedar Avenue, Austin, TX 78702");
    expect(variants.filter((v) => v.kind === "as_stored")).toHaveLength(1);
    // Every row is in Texas: none can be moved to another state.
    expect(variants.filter((v) => v.kind === "other_state")).toEqual([]);
  });
});
