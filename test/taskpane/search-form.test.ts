// Search forms from the catalog: selects filled from it, inputs an asset type's data does not
// support disabled with the catalog's reason, and values checked as the functions check them.
import Ajv from "ajv";
import { Catalog } from "../../src/contract/responses";
import { ASSET_TYPES, LISTING_STATUSES, PARCEL_LAND_USES } from "../../src/contract/vocabulary";
import addFormats from "ajv-formats";
import { checkSearch, formFor, type FormField } from "../../src/taskpane/search-form";
import { SEARCH_KINDS, type SearchKind } from "../../src/taskpane/search-kinds";
import { startService } from "../helpers/service";

const assetType = (asset_type: string, subtypes: string[], unsupported: { input: string; reason: string }[] = []) => ({
  asset_type,
  property_count: 100,
  supported_inputs: [
    "state_code",
    "city",
    "zip",
    "metro_id",
    "q",
    "subtype",
    "min_building_area_sqft",
    "min_units",
    "owner_id",
    "owner_name",
  ].filter((i) => !unsupported.some((u) => u.input === i)),
  unsupported_inputs: unsupported,
  subtypes,
});

const UNITS_REASON = "fewer than half of this snapshot's office properties have units";

function catalog(): Catalog {
  return {
    object: "catalog",
    api_version: "v1",
    snapshot: { id: "snap_1", captured_at: "2025-01-01T00:00:00Z" },
    surfaces: [],
    asset_types: [
      assetType(
        "industrial",
        ["warehouse", "distribution"],
        [{ input: "min_units", reason: "fewer than half of this snapshot's industrial properties have units" }],
      ),
      assetType(
        "office",
        ["medical office", "warehouse"],
        [
          { input: "min_units", reason: UNITS_REASON },
          { input: "min_land_area_acres", reason: "fewer than half of this snapshot's office properties have land_area_acres" },
        ],
      ),
    ],
    company_types: ["owner", "tenant"],
    listing_statuses: ["active", "sold"],
    listing_property_types: ["condo"],
    metros: [{ metro_id: "metro-austin-tx", name: "Austin-Round Rock, TX", state_code: "TX", property_count: 40 }],
    paging: { default_limit: 25, max_limit: 100, max_offset: 10000 },
    fields: {},
  };
}

const field = (fields: FormField[], name: string) => {
  const found = fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
};

describe("formFor", () => {
  test("selects are filled from the catalog: asset types, company types, listing vocabularies, metros with their names", () => {
    expect(field(formFor("assetsearch", catalog(), {}).fields, "asset_type").options).toEqual(["industrial", "office"]);
    expect(field(formFor("companies", catalog(), {}).fields, "company_type").options).toEqual(["owner", "tenant"]);
    const listings = formFor("listings", catalog(), {}).fields;
    expect(field(listings, "status").options).toEqual(["active", "sold"]);
    expect(field(listings, "property_type").options).toEqual(["condo"]);
    const place = field(formFor("search", catalog(), {}).fields, "geography");
    expect(place).toMatchObject({
      input: "text",
      options: ["metro-austin-tx"],
      optionLabels: { "metro-austin-tx": "Austin-Round Rock, TX" },
    });
  });

  test("subtypes are the chosen asset type's, or every subtype before one is chosen", () => {
    expect(field(formFor("assetsearch", catalog(), { asset_type: "office" }).fields, "subtype").options).toEqual([
      "medical office",
      "warehouse",
    ]);
    expect(field(formFor("search", catalog(), {}).fields, "subtype").options).toEqual(["distribution", "medical office", "warehouse"]);
    expect(field(formFor("salecomps", catalog(), { asset_type: "Industrial" }).fields, "subtype").options).toEqual([
      "distribution",
      "warehouse",
    ]);
  });

  test("choosing an asset type disables the inputs its data does not support, with the catalog's reason", () => {
    const fields = formFor("assetsearch", catalog(), { asset_type: "office" }).fields;
    expect(field(fields, "min_units")).toMatchObject({ disabled: true, reason: UNITS_REASON });
    expect(field(fields, "min_land_area_acres").disabled).toBe(true);
    expect(field(fields, "min_building_area_sqft")).toMatchObject({ disabled: false });
    expect(field(fields, "min_building_area_sqft").reason).toBeUndefined();
    // Another asset type, other inputs; none chosen, none disabled.
    expect(field(formFor("search", catalog(), { asset_type: "industrial" }).fields, "min_land_area_acres").disabled).toBe(false);
    expect(formFor("search", catalog(), {}).fields.filter((f) => f.disabled)).toEqual([]);
  });

  test("only the property searches disable inputs: the service checks them nowhere else", () => {
    const comps = formFor("salecomps", catalog(), { subject: "TX", asset_type: "office" }).fields;
    expect(comps.filter((f) => f.disabled)).toEqual([]);
    // Every kind, with an asset type whose data lacks units and land area: only the two property searches disable.
    const disabling = (Object.keys(SEARCH_KINDS) as SearchKind[]).filter((kind) =>
      formFor(kind, catalog(), { asset_type: "office" }).fields.some((f) => f.disabled),
    );
    expect(disabling.sort()).toEqual(["assetsearch", "search"]);
  });

  test("without the catalog (still loading) the selects offer v1's fixed vocabularies", () => {
    expect(field(formFor("assetsearch", null, {}).fields, "asset_type").options).toEqual([...ASSET_TYPES]);
    expect(field(formFor("listings", null, {}).fields, "status").options).toEqual([...LISTING_STATUSES]);
    expect(field(formFor("parcels", null, {}).fields, "land_use").options).toEqual([...PARCEL_LAND_USES]);
  });

  test("a typed value that cannot be right shows its error; a required field still blank does not", () => {
    const fields = formFor("assetsearch", catalog(), { min_building_area_sqft: "big" }).fields;
    expect(field(fields, "min_building_area_sqft").error).toMatch(/Min. building area \(sq ft\): "big" is not a number/);
    expect(field(fields, "asset_type").error).toBeUndefined();
  });

  test("number fields carry the endpoint's bounds", () => {
    const comps = formFor("salecomps", null, {}).fields;
    expect(field(comps, "max_distance_miles")).toMatchObject({ input: "number", min: 0, max: 250 });
    expect(field(formFor("search", null, {}).fields, "min_units")).toMatchObject({ input: "number", min: 0, step: 1 });
    expect(field(comps, "limit")).toMatchObject({ input: "number", min: 1, max: 100, step: 1 });
  });
});

describe("checkSearch", () => {
  test("a valid search comes back normalised, with the default page of 25", () => {
    expect(
      checkSearch("assetsearch", { asset_type: "Health Care", geography: "tx", min_building_area_sqft: "50,000", owner_name: "" }),
    ).toEqual({
      ok: true,
      request: { kind: "assetsearch", values: { asset_type: "health-care", geography: "TX", min_building_area_sqft: "50000" }, limit: 25 },
    });
  });

  test("required inputs are named", () => {
    expect(checkSearch("market", {})).toEqual({
      ok: false,
      errors: { geography: "Place is required.", asset_type: "Asset type is required." },
    });
    expect(checkSearch("portfolio", { owner: "  " })).toEqual({ ok: false, errors: { owner: "Owner is required." } });
  });

  test("each value is checked as the function checks it, with a message saying what would work", () => {
    const result = checkSearch("salecomps", { subject: "Austin TX!", min_sale_date: "2024-02-30", max_distance_miles: "0" });
    expect(result.ok).toBe(false);
    const errors = result.ok ? {} : result.errors;
    expect(errors.subject).toMatch(/"Austin TX!" is not a place: use a state \("TX" or "Texas"\), a county/);
    expect(errors.min_sale_date).toMatch(/"2024-02-30" is not a date \(no such day\); write a date \(YYYY-MM-DD/);
    expect(errors.max_distance_miles).toBe("Radius (miles) must be more than 0, not 0.");
    expect(checkSearch("listings", { status: "for sale" })).toMatchObject({
      ok: false,
      errors: { status: expect.stringMatching(/"for sale" is not one of active, pending/) },
    });
    expect(checkSearch("parcels", { county_fips: "4845" })).toMatchObject({
      ok: false,
      errors: { county_fips: expect.stringMatching(/five-digit county FIPS/) },
    });
  });

  test("the place is given once: the place field, or an input naming one kind of place, as the functions take it", () => {
    expect(checkSearch("parcels", { geography: "tx", county_fips: "48453" })).toEqual({
      ok: false,
      errors: { county_fips: "County FIPS and Place both name the place; give it once (clear one of them)." },
    });
    expect(checkSearch("parcels", { county_fips: "48453" }).ok).toBe(true);
    expect(checkSearch("parcels", { geography: "Travis County, TX" })).toMatchObject({
      ok: true,
      request: { values: { geography: "Travis County, TX" } },
    });
  });

  test("a radius needs a subject property, as PROP.SALECOMPS says", () => {
    expect(checkSearch("salecomps", { subject: "TX", max_distance_miles: "10" })).toEqual({
      ok: false,
      errors: { max_distance_miles: "Radius needs a property id as the subject (it is a radius around that property)." },
    });
    expect(checkSearch("salecomps", { subject: "cp_00ab", max_distance_miles: "10" }).ok).toBe(true);
  });

  test("rows: a whole number from 1 to 100 (one page)", () => {
    expect(checkSearch("parcels", { limit: "100" })).toMatchObject({ ok: true, request: { limit: 100 } });
    expect(checkSearch("parcels", { limit: "101" })).toEqual({ ok: false, errors: { limit: "Rows must be at most 100, not 101." } });
    expect(checkSearch("parcels", { limit: "2.5" })).toEqual({ ok: false, errors: { limit: "Rows must be a whole number, not 2.5." } });
  });

  test("with the catalog, an input the chosen asset type does not support is refused with the reason, before any request", () => {
    expect(checkSearch("search", { asset_type: "office", min_units: "10" }, catalog())).toEqual({
      ok: false,
      errors: { min_units: `Not available for office: ${UNITS_REASON}.` },
    });
    expect(checkSearch("search", { asset_type: "office", min_units: "10" }).ok).toBe(true);
    expect(checkSearch("search", { min_units: "10" }, catalog()).ok).toBe(true);
  });

  test("an option value with a semicolon is refused: the formula's options would split there", () => {
    expect(checkSearch("assetsearch", { asset_type: "office", q: "a;b" })).toEqual({
      ok: false,
      errors: { q: 'Text cannot contain ";" or a line break (they separate the formula\'s options).' },
    });
  });
});

test("every search kind's fields are unique, and its positional arguments are among them", () => {
  for (const kind of Object.keys(SEARCH_KINDS) as SearchKind[]) {
    const names = SEARCH_KINDS[kind].fields.map((f) => f.name);
    expect({ kind, names: new Set(names).size }).toEqual({ kind, names: names.length });
    for (const { field } of SEARCH_KINDS[kind].positional) {
      if (field !== null) expect({ kind, arg: names.includes(field) }).toEqual({ kind, arg: true });
    }
  }
});

describe("the Catalog schema and the service's catalog", () => {
  test("the service's catalog fits it, and every form builds from it", async () => {
    const svc = await startService();
    try {
      const response = await svc.get("/v1/commercial/catalog");
      expect(response.statusCode).toBe(200);
      const body = response.json();
      const fits = addFormats(new Ajv({ allErrors: true })).compile(Catalog);
      expect(fits(body) ? [] : fits.errors).toEqual([]);
      for (const kind of Object.keys(SEARCH_KINDS) as SearchKind[]) {
        for (const entry of body.asset_types as Catalog["asset_types"]) {
          const fields = formFor(kind, body, { asset_type: entry.asset_type }).fields;
          const disabled = fields.filter((f) => f.disabled).map((f) => f.name);
          const expected = SEARCH_KINDS[kind].assetFilters
            ? entry.unsupported_inputs.map((u) => u.input).filter((i) => fields.some((f) => f.name === i))
            : [];
          expect({ kind, asset_type: entry.asset_type, disabled: disabled.sort() }).toEqual({
            kind,
            asset_type: entry.asset_type,
            disabled: expected.sort(),
          });
        }
      }
    } finally {
      await svc.app.close();
    }
  });
});

test("the history searches refuse a from after to, as the functions do", () => {
  const market = { geography: "TX", asset_type: "office", metrics: "vacancy_rate", from: "2021", to: "2020-Q4" };
  expect(checkSearch("markethistory", market)).toEqual({ ok: false, errors: { from: "From is after To: nothing can match." } });
  expect(checkSearch("markethistory", { ...market, from: "2020" }).ok).toBe(true);
  expect(checkSearch("history", { property_id: "cp_1", from: "2024-01-02", to: "2024-01-01" }).ok).toBe(false);
  expect(checkSearch("markethistory", { geography: "TX", asset_type: "office" })).toEqual({
    ok: false,
    errors: { metrics: "Metrics is required." },
  });
});
