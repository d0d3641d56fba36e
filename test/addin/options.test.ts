// The options argument and single-input checks: every mistake is an InputError (#VALUE!)
// naming what would work, and good values come out in the form the service expects.
import { parseOptions } from "../../src/functions/options";
import type { OptionSpec } from "../../src/functions/option-specs";
import { checkDate, checkParam } from "../../src/functions/param-values";
import { toExcelSerial } from "../../src/functions/cell-values";
import { InputError } from "../../src/functions/excel-errors";
import { ENDPOINTS } from "../../src/shared/endpoints";
import { LIST_OPTIONS } from "../../src/functions/table-shape";

const SPECS: OptionSpec[] = [...LIST_OPTIONS, ...ENDPOINTS.findSaleComps.query];

test("reads key=value pairs separated by semicolons, case-insensitive keys, values checked and normalised", () => {
  const parsed = parseOptions(
    " Headers = false; cols=Sale_Date, sale_price ;limit=250;state_code=texas; city=austin; min_price=1,000,000; asset_type=Health Care;",
    SPECS,
  );
  expect(Object.fromEntries(parsed)).toEqual({
    headers: false,
    cols: ["sale_date", "sale_price"],
    limit: 250,
    state_code: "TX",
    city: "Austin",
    min_price: 1_000_000,
    asset_type: "health-care",
  });
});

test("nothing, null and an empty text are no options", () => {
  expect(parseOptions(null, SPECS).size).toBe(0);
  expect(parseOptions(undefined, SPECS).size).toBe(0);
  expect(parseOptions(" ; ", SPECS).size).toBe(0);
});

test.each([
  [42, /options must be text/],
  ["limit", /has no "="/],
  ["colour=red", /"colour" is not an option here; use headers, cols, dates, rates, missing, as_of, limit, offset/],
  ["limit=10; limit=20", /limit is given twice/],
  ["limit=", /limit has no value/],
  ["limit=0", /limit must be at least 1/],
  ["limit=1001", /limit must be at most 1000/],
  ["limit=2.5", /whole number/],
  ["offset=10001", /offset must be at most 10000/],
  ["headers=maybe", /headers must be true or false/],
  ["cols=a,,a", /cols names a twice/],
  ["dates=iso", /dates must be one of date, serial, text/],
  ["as_of=2026-02-30", /as_of "2026-02-30" is not a date \(no such day\)/],
  ["as_of=last month", /as_of "last month" is not a date; write a date \(YYYY-MM-DD.* or a month \(2026-03\), or a snapshot id/],
  ["as_of=LQ", /as_of names a fixed day, and "LQ" would move with every snapshot/],
  ["state_code=Tex", /state_code: "Tex" is not a US state/],
  ["geography=Austin, ZZ", /geography: "Austin, ZZ": "ZZ" is not a US state/],
  ["geography=Travis County", /give the county's state/],
  ["asset_type=castle", /asset_type: "castle" is not one of multifamily, industrial/],
  ["min_price=-5", /min_price must be at least 0/],
  ["max_distance_miles=0", /must be more than 0/],
  ["max_distance_miles=300", /at most 250/],
  ["min_sale_date=2024-02-30", /not a date \(no such day\); write a date \(YYYY-MM-DD/],
  ["property_id=par_1", /not a property id/],
  ["metro_id=austin", /not a metro id/],
])("%p is refused: %p", (raw, message) => {
  expect(() => parseOptions(raw, SPECS)).toThrow(InputError);
  expect(() => parseOptions(raw, SPECS)).toThrow(message);
});

test("dates: YYYY-MM-DD text, or the serial number a date cell holds, both ways", () => {
  expect(checkDate("2024-06-30", "d", "start")).toBe("2024-06-30");
  expect(checkDate(45473, "d", "start")).toBe("2024-06-30");
  expect(Object.fromEntries(parseOptions("min_sale_date=45473", SPECS))).toEqual({ min_sale_date: "2024-06-30" });
  expect(toExcelSerial("2024-06-30")).toBe(45473);
  expect(() => checkDate("30/06/2024", "d", "start")).toThrow(/YYYY-MM-DD/);
});

test("ZIP and FIPS codes typed as numbers keep their leading zeros; text must be five digits", () => {
  const zip = ENDPOINTS.listParcels.query.find((q) => q.name === "zip")!;
  expect(checkParam(zip, 2134)).toBe("02134");
  expect(checkParam(zip, " 78701 ")).toBe("78701");
  expect(() => checkParam(zip, 123456)).toThrow(/five-digit ZIP/);
  expect(() => checkParam(zip, "7870")).toThrow(/five-digit ZIP/);
});

test("text inputs have the service's length bounds; TRUE/FALSE and empty cells are not inputs", () => {
  const ownerName = ENDPOINTS.getOwnerPortfolio.query.find((q) => q.name === "owner_name")!;
  expect(() => checkParam(ownerName, "A")).toThrow(/too short/);
  expect(() => checkParam(ownerName, "x".repeat(121))).toThrow(/too long/);
  expect(() => checkParam(ownerName, true)).toThrow(/cannot be TRUE or FALSE/);
  expect(() => checkParam(ownerName, "  ")).toThrow(/owner_name is empty/);
  expect(checkParam(ownerName, " Acme Realty ")).toBe("Acme Realty");
});
