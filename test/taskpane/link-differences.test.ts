// "Link a table", before anything is replaced: the typed values of a column against the
// snapshot's, compared by the field's kind, and the sentence the pane shows about them.
import { PROPERTY_FIELDS } from "../../src/functions/property-field";
import { comparisonOf, differenceSummary, differences, type ColumnDifferences } from "../../src/taskpane/link-differences";
import type { CellValue } from "../../src/taskpane/workbook-types";

/** The counts of a comparison, which always add up to its rows. */
function counts(d: ColumnDifferences) {
  expect(d.same + d.differ + d.typedBlank + d.liveMissing + d.bothBlank).toBe(d.rows);
  const { rows, same, differ, typedBlank, liveMissing, bothBlank, percentPoints, yearsOnly } = d;
  return { rows, same, differ, typedBlank, liveMissing, bothBlank, percentPoints, yearsOnly };
}

const none = { typedBlank: 0, liveMissing: 0, bothBlank: 0, percentPoints: 0, yearsOnly: 0 };

/** `n` rows typed the same as the snapshot's, then the rows given. */
function column(n: number, value: number, rest: Array<[CellValue, unknown]>): [CellValue[], unknown[]] {
  const pairs: Array<[CellValue, unknown]> = [...Array.from({ length: n }, (): [CellValue, unknown] => [value, value]), ...rest];
  return [pairs.map((p) => p[0]), pairs.map((p) => p[1])];
}

test("each field is compared by its kind, from the contract's schema", () => {
  const kinds = Object.fromEntries(PROPERTY_FIELDS.map((f) => [f, comparisonOf(f)]));
  expect(kinds).toMatchObject({
    year_built: "exact",
    units: "exact",
    stories: "exact",
    tenant_count: "exact",
    building_area_sqft: "relative",
    land_area_acres: "relative",
    estimated_value: "relative",
    last_sale_price: "relative",
    asking_rent_sqft_year: "relative",
    latitude: "decimals",
    longitude: "decimals",
    occupancy_rate: "rate",
    last_sale_date: "date",
    owner_name: "text",
    asset_type: "text",
    building_class: "text",
    name: "text",
  });
  expect(() => comparisonOf("sale_price")).toThrow("sale_price is not a field of a commercial property");
});

describe("years and counts: exact", () => {
  test("the pane's example", () => {
    const [typed, live] = column(46, 1998, [
      [1999, 1998],
      [2001, 2003],
      [1980, 1984],
      ["", 1975],
    ]);
    const d = differences("year_built", typed, live);
    expect(counts(d)).toEqual({ rows: 50, same: 46, differ: 3, ...none, typedBlank: 1 });
    expect(d.numbers).toEqual({
      count: 3,
      smallestAbsolute: 1,
      medianAbsolute: 2,
      largestAbsolute: 4,
      medianRelative: 2 / 2003,
      largestRelative: 4 / 1984,
      largest: { row: 48, typed: 1980, live: 1984 },
    });
    expect(differenceSummary("Year built", d)).toBe("Year built: 46 of 50 agree; 3 differ (by 1 to 4 years); 1 blank will be filled.");
  });

  test("a year one off differs; a year typed as text or as a formatted number agrees", () => {
    const d = differences("year_built", ["1998", { type: "Double", basicValue: 2001, numberFormat: "0" }, 2011], [1998, 2001, 2010]);
    expect(counts(d)).toEqual({ rows: 3, same: 2, differ: 1, ...none });
    expect(differenceSummary("Year Built", d)).toBe("Year Built: 2 of 3 agree; 1 differs (by 1 year).");
  });

  test("units: no unit word, no thousands in doubt", () => {
    const d = differences("units", [120, 1200, 118], [120, 1212, 120]);
    expect(differenceSummary("# Units", d)).toBe("# Units: 1 of 3 agrees; 2 differ (by 2 to 12).");
  });
});

describe("amounts: within 0.5%", () => {
  test("rounding to three significant figures agrees; more than 0.5% differs", () => {
    const d = differences(
      "building_area_sqft",
      [100_000, 100_500, 100_501, 99_400, 120_000],
      [100_000, 100_000, 100_000, 100_000, 120_400],
    );
    expect(counts(d)).toEqual({ rows: 5, same: 3, differ: 2, ...none });
    expect(d.numbers?.largest).toEqual({ row: 3, typed: 99_400, live: 100_000 });
    expect(d.numbers?.largestAbsolute).toBe(600);
    expect(d.numbers?.largestRelative).toBeCloseTo(0.006, 12);
  });

  test("median and largest, the largest by its share, named by its sheet row", () => {
    const [typed, live] = column(38, 50_000, [
      [120_000, 98_500],
      [10_210, 10_000],
      [204_000, 200_000],
      [103_000, 100_000],
      [1_050_000, 1_000_000],
    ]);
    const d = differences("building_area_sqft", typed, live);
    expect(counts(d)).toEqual({ rows: 43, same: 38, differ: 5, ...none });
    expect(d.numbers?.medianRelative).toBeCloseTo(0.03, 12);
    expect(d.numbers?.largestRelative).toBeCloseTo(21_500 / 98_500, 12);
    // By its share, not its amount: 50,000 off a million is the larger amount.
    expect(d.numbers?.largestAbsolute).toBe(50_000);
    expect(d.numbers?.largest).toEqual({ row: 38, typed: 120_000, live: 98_500 });
    expect(differenceSummary("Building SF", d, { rowNumber: (i) => i + 2 })).toBe(
      "Building SF: 38 of 43 agree; 5 differ (by 3% at the median and 22% at most, in row 40: 120,000 typed, 98,500 in the snapshot).",
    );
  });

  test("money with $, one difference said once", () => {
    const d = differences("last_sale_price", [12_500_000, 8_000_000], [10_900_000, 8_020_000]);
    expect(counts(d)).toEqual({ rows: 2, same: 1, differ: 1, ...none });
    expect(differenceSummary("Sale Price", d)).toBe(
      "Sale Price: 1 of 2 agrees; 1 differs (by 15%, in row 1: $12,500,000 typed, $10,900,000 in the snapshot).",
    );
  });

  test("text in a number column differs, with what the formula would show", () => {
    const d = differences("building_area_sqft", ["n/a", "120,000", 5_000], [120_000, 120_000, 5_000]);
    expect(counts(d)).toEqual({ rows: 3, same: 1, differ: 2, ...none });
    expect(d.numbers).toBeNull();
    expect(d.text).toEqual({
      count: 2,
      examples: [
        { row: 0, typed: "n/a", live: 120_000 },
        { row: 1, typed: "120,000", live: 120_000 },
      ],
    });
    expect(differenceSummary("RBA", d)).toBe('RBA: 1 of 3 agrees; 2 hold text ("n/a" → 120,000, "120,000" → 120,000).');
  });
});

test("coordinates: within four decimals", () => {
  const d = differences("latitude", [30.2672, 30.2675, -97.7431], [30.26724, 30.2672, -97.74306]);
  expect(counts(d)).toEqual({ rows: 3, same: 2, differ: 1, ...none });
  expect(d.numbers?.largestAbsolute).toBeCloseTo(0.0003, 12);
  expect(differenceSummary("Lat", d)).toBe("Lat: 2 of 3 agree; 1 differs (by 0.0003).");
});

describe("rates", () => {
  test("within half a percentage point agrees", () => {
    const d = differences("occupancy_rate", [0.92, 0.915, 0.914, 0.9234], [0.92, 0.92, 0.92, 0.92]);
    expect(counts(d)).toEqual({ rows: 4, same: 3, differ: 1, ...none });
    expect(d.numbers?.largest).toEqual({ row: 2, typed: 0.914, live: 0.92 });
  });

  test("percentage points are reported, and counted as differing", () => {
    const d = differences("occupancy_rate", [92, 0.85, 0.923, 80, 95.2], [0.92, 0.85, 0.92, 0.95, 0.95]);
    expect(counts(d)).toEqual({ rows: 5, same: 2, differ: 3, ...none, percentPoints: 2 });
    expect(d.unitExample).toEqual({ row: 0, typed: 92, live: 0.92 });
    // 80 against 95%: read in points, it is 15 points off, not 79.05.
    expect(d.numbers).toMatchObject({ count: 1, largest: { row: 3, typed: 80, live: 0.95 } });
    expect(d.numbers?.largestAbsolute).toBeCloseTo(0.15, 12);
    expect(differenceSummary("Occ %", d)).toBe(
      "Occ %: 2 of 5 agree; 1 differs (by 15 points, in row 4: 80 typed, 95% in the snapshot); " +
        "2 are typed in percentage points (92 for 0.92; the formula shows 92%).",
    );
  });

  test("rates in the sentence are percents, the spread in points", () => {
    const d = differences("occupancy_rate", [0.8, 0.9, 0.97], [0.85, 0.925, 0.9234]);
    expect(differenceSummary("Occupancy", d)).toBe(
      "Occupancy: none of 3 agree; 3 differ (by 4.7 points at the median and 5 points at most, in row 1: 80% typed, 85% in the snapshot).",
    );
  });
});

describe("dates: as days", () => {
  // 2019-06-14 is Excel's day 43630 (days since 1899-12-30).
  const serial = 43_630;

  test("a serial, with or without a time, or the ISO text, is the same day", () => {
    const d = differences(
      "last_sale_date",
      [serial, serial + 0.75, "2019-06-14", { type: "Double", basicValue: serial, numberFormat: "m/d/yyyy" }],
      ["2019-06-14", "2019-06-14", "2019-06-14", "2019-06-14"],
    );
    expect(counts(d)).toEqual({ rows: 4, same: 4, differ: 0, ...none });
    expect(differenceSummary("Sale Date", d)).toBe("Sale Date: all 4 agree.");
  });

  test("other days differ by days; a year alone and other text are said apart", () => {
    const d = differences(
      "last_sale_date",
      [serial + 1, serial - 30, 2019, "6/14/2019", serial],
      ["2019-06-14", "2019-06-14", "2019-06-14", "2019-06-14", "2019-06-14"],
    );
    expect(counts(d)).toEqual({ rows: 5, same: 1, differ: 4, ...none, yearsOnly: 1 });
    expect(d.numbers).toMatchObject({ count: 2, smallestAbsolute: 1, largestAbsolute: 30, medianRelative: null });
    expect(d.unitExample).toEqual({ row: 2, typed: 2019, live: "2019-06-14" });
    expect(d.text.examples).toEqual([{ row: 3, typed: "6/14/2019", live: "2019-06-14" }]);
    expect(differenceSummary("Last Sold", d)).toBe(
      'Last Sold: 1 of 5 agrees; 2 differ (by 1 to 30 days); 1 holds text ("6/14/2019" → 2019-06-14); ' +
        "1 holds a year only (2019 where the formula shows 2019-06-14).",
    );
  });
});

describe("text", () => {
  test("equal ignoring case and surrounding spaces", () => {
    const d = differences(
      "owner_name",
      [" acme industrial llc ", "ACME INDUSTRIAL LLC", "Acme Industrial"],
      ["Acme Industrial LLC", "Acme Industrial LLC", "Acme Industrial LLC"],
    );
    expect(counts(d)).toEqual({ rows: 3, same: 2, differ: 1, ...none });
    expect(d.text.examples).toEqual([{ row: 2, typed: "Acme Industrial", live: "Acme Industrial LLC" }]);
    expect(differenceSummary("Owner", d)).toBe('Owner: 2 of 3 agree; 1 differs ("Acme Industrial" → "Acme Industrial LLC").');
  });

  test("at most three examples, marked as examples when there are more", () => {
    const d = differences(
      "asset_type",
      ["Office", "Retail", "Flex", "Land", "industrial"],
      ["industrial", "industrial", "industrial", "industrial", "Industrial"],
    );
    expect(d.text.count).toBe(4);
    expect(differenceSummary("Type", d)).toBe(
      'Type: 1 of 5 agrees; 4 differ (e.g. "Office" → "industrial", "Retail" → "industrial", "Flex" → "industrial").',
    );
  });
});

describe("blanks", () => {
  test("on either side or both", () => {
    const d = differences("year_built", [null, "", "  ", 1990, 1990, null], [1985, 2001, null, null, 1990, undefined]);
    expect(counts(d)).toEqual({ rows: 6, same: 1, differ: 0, ...none, typedBlank: 2, liveMissing: 1, bothBlank: 2 });
    expect(d.numbers).toBeNull();
    expect(differenceSummary("Yr Built", d)).toBe(
      "Yr Built: 1 of 6 agrees; 2 blanks will be filled; 1 has no value in the snapshot (their typed values stay); " +
        "2 are blank with no value in the snapshot either.",
    );
  });

  test("an empty text from the snapshot is no value", () => {
    const d = differences("owner_name", ["Acme", ""], ["", "Beta"]);
    expect(counts(d)).toEqual({ rows: 2, same: 0, differ: 0, ...none, typedBlank: 1, liveMissing: 1 });
    expect(differenceSummary("Owner", d)).toBe(
      "Owner: none of 2 agree; 1 blank will be filled; 1 has no value in the snapshot (their typed values stay).",
    );
  });

  test("no rows, and rows that do not pair up", () => {
    expect(differenceSummary("Units", differences("units", [], []))).toBe("Units: no rows to compare.");
    expect(() => differences("units", [1, 2], [1])).toThrow("2 typed values against 1 from the snapshot");
  });
});
