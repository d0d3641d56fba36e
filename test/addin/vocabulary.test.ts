// One vocabulary in the add-in: every function takes the name and the label of a field, metric
// or sort key (in arguments, cols= and sort=), asset types in their industry spellings (the table
// the service's tests read too), header cells and zeros in ranges skipped, and messages that
// say "did you mean" and what was typed where.
import { assetTypeArg, placeArg, propertyIdsArg } from "../../src/functions/argument-parsers";
import { InputError } from "../../src/functions/excel-errors";
import { marketMetric, marketPlaceArg } from "../../src/functions/market";
import { metricsArg } from "../../src/functions/market-history";
import { parseOptions } from "../../src/functions/options";
import { parseFieldName } from "../../src/functions/property-field";
import { fieldNames } from "../../src/functions/record-fields";
import { LIST_OPTIONS, tableOptions } from "../../src/functions/table-shape";
import { checkParam } from "../../src/functions/param-values";
import { ENDPOINTS } from "../../src/shared/endpoints";
import { ASSET_TYPE_CASES, FIELD_CASES, NOT_FIELDS, type FieldCase } from "../contract/vocabulary-cases";

const sortParam = ENDPOINTS.findSaleComps.query.find((p) => p.name === "sort")!;

/** What each place a name can be typed makes of it. */
function readAs({ resource, input }: FieldCase): string[] {
  switch (resource) {
    case "property":
      return [parseFieldName(input), ...colsOf(input, "property")];
    case "market":
      return [marketMetric(input), ...colsOf(input, "market")];
    case "sale_comp":
      return [String(checkParam(sortParam, input, "sort")), ...colsOf(input, "sale_comp")];
    case "market_history":
      return [metricsArg(input), metricsArg([[input]])];
  }
}

function colsOf(input: string, resource: "property" | "market" | "sale_comp"): string[] {
  return tableOptions(parseOptions(`cols=${input}`, LIST_OPTIONS), fieldNames(resource), resource).cols!;
}

describe("fields, metrics and sort keys by name or label", () => {
  test.each(FIELD_CASES)("$resource: $input is $name as an argument, in cols= and in sort=", (c) => {
    expect(readAs(c)).toEqual(readAs(c).map(() => c.name));
  });

  test.each(NOT_FIELDS)("$resource: $input is refused", (c) => {
    expect(() => readAs(c)).toThrow(InputError);
  });

  test("cols= takes names and labels together, in order, and refuses one column named twice", () => {
    const cols = (text: string) => tableOptions(parseOptions(text, LIST_OPTIONS), fieldNames("sale_comp"), "sale_comp").cols;
    expect(cols("cols=Sale Date, Sale Price, cap_rate")).toEqual(["sale_date", "sale_price", "cap_rate"]);
    expect(() => cols("cols=sale_price, Sale Price")).toThrow(/names sale_price twice/);
  });

  test("cols=fips, the parcel county's older name, is its county_fips", () => {
    const cols = (text: string) => tableOptions(parseOptions(text, LIST_OPTIONS), fieldNames("parcel"), "parcel").cols;
    expect(fieldNames("parcel")).toContain("county_fips");
    expect(fieldNames("parcel")).not.toContain("fips");
    expect(cols("cols=apn, fips")).toEqual(["apn", "county_fips"]);
    expect(cols("cols=FIPS,county")).toEqual(["county_fips", "county"]);
  });
});

describe("asset types in the spellings analysts type", () => {
  test.each(ASSET_TYPE_CASES)("$input is $assetType", ({ input, assetType, hint }) => {
    if (assetType === null) expect(() => assetTypeArg(input)).toThrow(hint!);
    else expect(assetTypeArg(input)).toBe(assetType);
  });

  test("multifamily is each vocabulary's own name in options: property_type=MF, land_use=Multi-Family", () => {
    expect(parseOptions("property_type=MF", ENDPOINTS.searchListings.query).get("property_type")).toBe("multi_family");
    expect(parseOptions("land_use=Multi-Family", ENDPOINTS.listParcels.query).get("land_use")).toBe("residential_multi_family");
    expect(parseOptions("asset_type=Apartments", ENDPOINTS.findSaleComps.query).get("asset_type")).toBe("multifamily");
  });
});

describe("one name per concept", () => {
  test("LISTINGS takes state_code as every function does, and the older state", () => {
    expect(parseOptions("state_code=Texas", ENDPOINTS.searchListings.query).get("state_code")).toBe("TX");
    expect(parseOptions("state=TX", ENDPOINTS.searchListings.query).get("state")).toBe("TX");
  });

  test("zip= takes a ZIP+4 code as its ZIP code", () => {
    expect(parseOptions("zip=78704-1234", ENDPOINTS.searchProperties.query).get("zip")).toBe("78704");
  });
});

describe("ranges", () => {
  test("a range of ids skips its header cell, blanks and zeros", () => {
    expect(propertyIdsArg([["id"], ["cp_0001"], [0], [""], ["cp_0002"]])).toEqual(["cp_0001", "cp_0002"]);
    expect(propertyIdsArg([["Property ID"], ["cp_0001"], ["cp_0002"]])).toEqual(["cp_0001", "cp_0002"]);
    expect(
      propertyIdsArg([
        ["property_id", "Property ID"],
        ["cp_0001", "cp_0002"],
      ]),
    ).toEqual(["cp_0001", "cp_0002"]);
  });

  test("a text that is no id is still refused, header or not, past the first cell", () => {
    expect(() => propertyIdsArg([["cp_0001"], ["id"], ["cp_0002"]])).toThrow(/"id" is not a property id/);
  });

  test("a range of metrics skips a header row and zeros, and reads labels", () => {
    expect(metricsArg([["metric"], ["Vacancy Rate"], [0], ["asking_rent_sqft_year"]])).toBe("vacancy_rate,asking_rent_sqft_year");
    expect(metricsArg([["metrics"], [""], ["vacancy_rate"]])).toBe("vacancy_rate");
  });
});

describe("messages", () => {
  test('an option typo says "did you mean"', () => {
    expect(() => parseOptions("limt=5", LIST_OPTIONS)).toThrow(/"limt" is not an option here; did you mean limit\?/);
  });

  test("an option given without the end of its name names the option it begins", () => {
    const comps = ENDPOINTS.findSaleComps.query;
    expect(() => parseOptions("max_distance=5", comps)).toThrow(/"max_distance" is not an option here; did you mean max_distance_miles\?/);
    expect(() => parseOptions("per_prop=latest", comps)).toThrow(/did you mean per_property\?/);
    // Too short to be a prefix worth naming, and not a slip of any option: no suggestion.
    expect(() => parseOptions("ma=5", comps)).toThrow(/"ma" is not an option here; use /);
  });

  test("option names are read in any case and spacing", () => {
    expect(parseOptions("Min Sale Date=2024-01-01", ENDPOINTS.findSaleComps.query).get("min_sale_date")).toBe("2024-01-01");
  });

  test("options typed into the metric slot are called options", () => {
    expect(() => marketMetric("limit=5")).toThrow(/metric: "limit=5" looks like options; options go in the last argument/);
    expect(() => parseFieldName("dates=text")).toThrow(/looks like options/);
  });

  test("the whole country is refused where there are no national figures, saying where they are; a market's geography takes it as US", () => {
    expect(() => placeArg("US", ENDPOINTS.searchProperties)).toThrow(
      /"US" is the whole country: national figures are the markets' \("US" in PROP.MARKET and PROP.MARKETHISTORY\) and the asset-type analysis's/,
    );
    for (const national of ["US", "United States", "u.s.", "National"]) {
      expect(marketPlaceArg(national, ENDPOINTS.getMarketSnapshot)).toEqual({ geography: "US" });
      expect(marketPlaceArg(national, ENDPOINTS.getMarketHistory)).toEqual({ geography: "US" });
    }
    expect(placeArg("Austin MSA", ENDPOINTS.getMarketSnapshot)).toEqual({ geography: "Austin metro" });
  });
});
