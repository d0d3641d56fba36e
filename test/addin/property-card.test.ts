// Property cards (PROP.CARD and ids=cards) over a stubbed service (a fresh session per test):
// the card is an Office.js entity value (checked against @types/office-js when this file
// compiles), every field typed and formatted, nothing missing shown as a value; a host without
// CustomFunctionsRuntime 1.4 gets the property id; an address makes a card only when it matches
// one property; a list's id column becomes cards built from its own rows.
import { propertyCard, readCardSubject } from "../../src/functions/card-function";
import { InputError, toExcelError } from "../../src/functions/excel-errors";
import { toExcelSerial } from "../../src/functions/cell-values";
import { parseFieldName, propertyField } from "../../src/functions/property-field";
import { PROPERTY_CARD, SALE_COMP_CARD, buildCard, type PropertyCard } from "../../src/functions/property-card";
import { CommercialProperty } from "../../src/contract/records";
import { SaleCompRow } from "../../src/contract/responses";
import { customFunctionsStandIn, jsonResponse, problemResponse } from "./office-stand-ins";
import { compareResponse, testSession, type SeenRequest } from "./session-factory";

const SERVICE = "http://localhost:3000";
const g = globalThis as Record<string, unknown>;

beforeEach(() => {
  g.CustomFunctions = customFunctionsStandIn();
});
afterEach(() => {
  delete g.CustomFunctions;
  delete g.Office;
});

/** A host with CustomFunctionsRuntime 1.4 (Microsoft 365), or one without it. */
function host(cards: boolean) {
  g.Office = {
    context: { requirements: { isSetSupported: (set: string, v: string) => cards && set === "CustomFunctionsRuntime" && v === "1.4" } },
  };
}

/** A property record with every field the contract has, some of them empty. */
function fullProperty(id = "cp_00ab12", overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    object: "commercial_property",
    name: "Riverside Logistics Center",
    asset_type: "industrial",
    subtype: "warehouse",
    building_class: "A",
    address: "623 Washington Blvd",
    city: "Austin",
    state_code: "TX",
    zip: "78721",
    county: "Travis County",
    county_fips: "48453",
    metro_id: "metro-austin-tx",
    metro_name: "Austin, TX",
    latitude: 30.2672,
    longitude: -97.7431,
    building_area_sqft: 250_000,
    land_area_acres: 14.5,
    units: null,
    year_built: 2004,
    stories: 1,
    occupancy_rate: 0.935,
    asking_rent_sqft_year: 8.75,
    asking_rent_unit_month: null,
    estimated_value: 41_000_000,
    owner_id: null,
    owner_name: null,
    parcel_id: "par_77aa",
    tenant_count: 4,
    last_sale_id: "sale_9f",
    last_sale_date: "2021-05-14",
    last_sale_price: 36_500_000,
    ...overrides,
  };
}

function saleRow(id: string, propertyId: string): Record<string, unknown> {
  return {
    id,
    object: "sale_comp",
    property_id: propertyId,
    property_name: `Building ${propertyId}`,
    asset_type: "industrial",
    subtype: null,
    building_class: "B",
    address: "1 Main St",
    city: "Austin",
    state_code: "TX",
    zip: "78701",
    county_fips: "48453",
    metro_id: "metro-austin-tx",
    latitude: 30.1,
    longitude: -97.7,
    sale_date: "2024-03-01",
    sale_price: 12_400_000,
    building_area_sqft: 80_000,
    land_area_acres: 5,
    units: null,
    year_built: 1998,
    price_per_sqft: 155,
    price_per_unit: null,
    price_per_acre: 2_480_000,
    cap_rate: 0.0625,
    occupancy_at_sale: 0.9,
    sale_type: "investment",
    buyer_id: "co_1",
    buyer_name: "Acme",
    seller_id: "co_2",
    seller_name: "Beta",
    broker_id: null,
    broker_name: null,
    distance_miles: 2.4,
    similarity_score: 0.81,
  };
}

/** Every value inside a card (properties, layouts, provider), to find a null or a non-finite number anywhere. */
function leaves(value: unknown, path = ""): [string, unknown][] {
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => leaves(v, `${path}.${k}`));
  return [[path, value]];
}

/** The checks every card passes, whatever it was built from. */
function expectWellFormed(card: PropertyCard) {
  expect(card.type).toBe("Entity");
  for (const [path, value] of leaves(card)) {
    expect({ path, value: value === null || value === undefined || (typeof value === "number" && !Number.isFinite(value)) }).toEqual({
      path,
      value: false,
    });
  }
  for (const [name, value] of Object.entries(card.properties)) {
    expect(["Double", "String", "Boolean"]).toContain(value.type);
    if (value.type === "Double") expect({ name, format: value.numberFormat.length > 0 }).toEqual({ name, format: true });
    if (value.type === "String") expect({ name, empty: value.basicValue === "" }).toEqual({ name, empty: false });
  }
  // Each property is in exactly one section, and each section names only properties the card has.
  const inSections = card.layouts.card.sections.flatMap((s) => s.properties);
  expect([...inSections].sort()).toEqual(Object.keys(card.properties).sort());
  expect(new Set(inSections).size).toBe(inSections.length);
  for (const section of card.layouts.card.sections) expect(section.properties.length).toBeGreaterThan(0);
}

test("a card is an Office.js entity value: its shape is @types/office-js's EntityCellValue", () => {
  const built = buildCard(fullProperty(), PROPERTY_CARD, SERVICE)!;
  // These assignments are the compile-time check: the pretest and CI type-check this file with @types/office-js.
  const entity: Excel.EntityCellValue = built;
  const section: Excel.CardLayoutSection = built.layouts.card.sections[0];
  const provider: Excel.CellValueProviderAttributes = built.provider;
  const values: Excel.EntityPropertyType[] = Object.values(built.properties);
  expect(entity.type).toBe("Entity");
  expect(section.layout).toBe("List");
  expect(provider.description).toBe("Property Intelligence");
  expect(values.length).toBe(Object.keys(built.properties).length);
  expectWellFormed(built);
});

test("a property's card: its name as text, every field typed and formatted, dates as serials, in sections", () => {
  const card = buildCard(fullProperty(), PROPERTY_CARD, SERVICE)!;
  expect(card.text).toBe("Riverside Logistics Center");
  expect(card.layouts.card.title).toBe("Riverside Logistics Center");
  expect(card.layouts.card.subTitle).toEqual({ property: "Address" });
  const p = card.properties;
  expect(p["Property ID"]).toEqual({ type: "String", basicValue: "cp_00ab12" });
  expect(p["Year built"]).toEqual({ type: "Double", basicValue: 2004, numberFormat: "0" });
  expect(p["Building area (sq ft)"]).toEqual({ type: "Double", basicValue: 250_000, numberFormat: "#,##0" });
  expect(p["Occupancy rate"]).toEqual({ type: "Double", basicValue: 0.935, numberFormat: "0.0%" });
  expect(p["Asking rent ($/sq ft/yr)"]).toEqual({ type: "Double", basicValue: 8.75, numberFormat: "$#,##0.00" });
  expect(p["Last sale price ($)"]).toEqual({ type: "Double", basicValue: 36_500_000, numberFormat: "$#,##0" });
  expect(p["Estimated value ($)"]).toEqual({ type: "Double", basicValue: 41_000_000, numberFormat: "$#,##0" });
  expect(p["Land area (acres)"]).toEqual({ type: "Double", basicValue: 14.5, numberFormat: "#,##0.00" });
  expect(p["Tenant count"]).toEqual({ type: "Double", basicValue: 4, numberFormat: "#,##0" });
  expect(p["Last sale date"]).toEqual({ type: "Double", basicValue: toExcelSerial("2021-05-14"), numberFormat: "yyyy-mm-dd" });
  expect(p["Last sale date"]).toMatchObject({ basicValue: 44330 });
  expect(p["Asset type"]).toEqual({ type: "String", basicValue: "industrial" });
  // Empty in the record: not on the card, and a section with nothing in it is left out.
  expect(p).not.toHaveProperty("Units");
  expect(p).not.toHaveProperty("Owner name");
  expect(card.layouts.card.sections.map((s) => s.title)).toEqual([
    "Identity",
    "Building",
    "Occupancy and rents",
    "Value and last sale",
    "Market",
    "Source",
  ]);
  expect(card.layouts.card.sections.find((s) => s.title === "Market")?.properties).toEqual([
    "Metro name",
    "Metro ID",
    "County",
    "County FIPS",
  ]);
  expectWellFormed(card);
});

test("a card links to its record: the API's record in a property, the API reference behind the provider's logo", () => {
  const card = buildCard(fullProperty("cp_9z"), PROPERTY_CARD, "https://prop.example.com")!;
  expect(card.properties.Record).toEqual({ type: "String", basicValue: "https://prop.example.com/v1/commercial/properties/cp_9z" });
  expect(card.provider).toEqual({
    description: "Property Intelligence",
    logoSourceAddress: "https://prop.example.com/addin/assets/icon-32.png",
    logoTargetAddress: "https://prop.example.com/docs/api#/Commercial_properties/getProperty",
  });
  // The whole record: nothing to say about what it leaves out.
  expect(card.properties).not.toHaveProperty("Card from");
});

test("every field of the contract's records is on its card, and every name but the id is a field name PROP.PROPERTY takes", () => {
  const onCard = (sections: typeof PROPERTY_CARD.sections) => sections.flatMap((s) => s.fields).sort();
  expect(onCard(PROPERTY_CARD.sections)).toEqual(
    Object.keys(CommercialProperty.properties)
      .filter((f) => f !== "object")
      .sort(),
  );
  expect(onCard(SALE_COMP_CARD.sections)).toEqual(
    Object.keys(SaleCompRow.properties)
      .filter((f) => f !== "object")
      .sort(),
  );
  const card = buildCard(
    fullProperty("cp_1", { units: 12, owner_name: "Acme", owner_id: "co_1", asking_rent_unit_month: 1450 }),
    PROPERTY_CARD,
    SERVICE,
  )!;
  const fields = PROPERTY_CARD.sections.flatMap((s) => s.fields).filter((f) => f !== "id");
  const names = Object.keys(card.properties).filter((n) => !["Property ID", "Record", "Card from"].includes(n));
  // =A2.[Year built] and =PROP.PROPERTY(id, "Year built") name the same field.
  expect(names.map((n) => parseFieldName(n)).sort()).toEqual([...fields].sort());
});

test("a record without a name is shown by its address; a date that does not read as one stays text; no id is no card", () => {
  const card = buildCard(fullProperty("cp_1", { name: "", last_sale_date: "unknown" }), PROPERTY_CARD, SERVICE)!;
  expect(card.text).toBe("623 Washington Blvd");
  expect(card.layouts.card.subTitle).toBeUndefined();
  expect(card.properties["Last sale date"]).toEqual({ type: "String", basicValue: "unknown" });
  expect(buildCard({ name: "x" }, PROPERTY_CARD, SERVICE)).toBeNull();
});

test("a sale comp row's card holds the row: the sale and the property as the sale describes it, and says so", () => {
  const card = buildCard(saleRow("sale_1", "cp_7"), SALE_COMP_CARD, SERVICE)!;
  expect(card.text).toBe("Building cp_7");
  expect(card.properties["Property ID"]).toEqual({ type: "String", basicValue: "cp_7" });
  expect(card.properties["Sale ID"]).toEqual({ type: "String", basicValue: "sale_1" });
  expect(card.properties["Cap rate"]).toEqual({ type: "Double", basicValue: 0.0625, numberFormat: "0.0%" });
  expect(card.properties["Price per sq ft ($)"]).toEqual({ type: "Double", basicValue: 155, numberFormat: "$#,##0.00" });
  expect(card.properties["Sale date"]).toMatchObject({ type: "Double", basicValue: toExcelSerial("2024-03-01") });
  expect(card.layouts.card.sections.map((s) => s.title)).toEqual([
    "Identity",
    "Building",
    "This sale",
    "Buyer and seller",
    "Market",
    "Source",
  ]);
  expect(card.properties["Card from"]).toMatchObject({ basicValue: expect.stringMatching(/sale comp row.*=PROP\.CARD/) });
  expect(card.properties.Record).toEqual({ type: "String", basicValue: `${SERVICE}/v1/commercial/properties/cp_7` });
  expectWellFormed(card);
});

describe("PROP.CARD", () => {
  const detail = (req: SeenRequest) =>
    req.path.startsWith("/v1/commercial/properties/cp_")
      ? jsonResponse(fullProperty(req.path.split("/").pop()))
      : problemResponse(404, { code: "not_found", detail: `no route ${req.path}` });

  test("where the host shows cards: the card, from the same cached request PROP.PROPERTY uses", async () => {
    host(true);
    const { ctx, requests } = testSession(detail);
    const card = (await propertyCard("cp_00ab12", null, ctx)) as PropertyCard;
    expect(card.properties["Year built"]).toEqual({ type: "Double", basicValue: 2004, numberFormat: "0" });
    await expect(propertyField("cp_00ab12", "Year built", null, ctx)).resolves.toBe(2004);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/commercial/properties/cp_00ab12"]);
  });

  test("where it does not: the property id, after the record is fetched (an id the snapshot lacks is #N/A, not echoed)", async () => {
    host(false);
    const { ctx, requests } = testSession((req) =>
      req.path.endsWith("cp_gone")
        ? problemResponse(404, { code: "not_found", detail: "There is no commercial property 'cp_gone'." })
        : detail(req),
    );
    await expect(propertyCard("cp_00ab12", null, ctx)).resolves.toBe("cp_00ab12");
    const err = await propertyCard("cp_gone", null, ctx).catch((e: unknown) => toExcelError(e));
    expect(err).toMatchObject({ code: "#N/A", message: expect.stringMatching(/cp_gone/) });
    expect(requests).toHaveLength(2);
  });

  test("cards calculated together are fetched as PROP.PROPERTY cells are: compare requests of 25", async () => {
    host(true);
    const { ctx, requests } = testSession((req) => compareResponse(req.body.property_ids as string[]));
    const ids = Array.from({ length: 30 }, (_, i) => `cp_${i}`);
    const cards = (await Promise.all(ids.map((id) => propertyCard(id, null, ctx)))) as PropertyCard[];
    expect(cards.map((c) => c.properties["Property ID"])).toEqual(ids.map((id) => ({ type: "String", basicValue: id })));
    expect(requests.map((r) => [r.path, r.body.property_ids.length])).toEqual([
      ["/v1/commercial/properties/compare", 25],
      ["/v1/commercial/properties/compare", 5],
    ]);
  });

  test("as_of pins the record's request; any other option, or an argument that is no id, is #VALUE! before a request", async () => {
    host(true);
    const { ctx, requests } = testSession(detail);
    await propertyCard("cp_1", "as_of=2026-10-01", ctx);
    expect(requests.map((r) => r.query)).toEqual([{ as_of: "2026-10-01" }]);
    await expect(propertyCard("cp_1", "dates=text", ctx)).rejects.toThrow(/"dates" is not an option here; use as_of/);
    await expect(propertyCard("cp_1", "as_of=-1Y", ctx)).rejects.toThrow(InputError);
    await expect(propertyCard("cp_1/../parcels", null, ctx)).rejects.toThrow(/is not a property id/);
    await expect(propertyCard(42, null, ctx)).rejects.toThrow(/42 is neither a property id nor an address/);
    await expect(propertyCard("", null, ctx)).rejects.toThrow(/property is empty/);
    await expect(propertyCard("as_of=2026", null, ctx)).rejects.toThrow(/looks like options/);
    expect(requests).toHaveLength(1);
    expect(readCardSubject(" cp_00ab ")).toEqual({ kind: "id", id: "cp_00ab" });
    // Text that starts like an id is read as one: a mistyped id is refused, not matched as an address.
    expect(() => readCardSubject("CP_00ab")).toThrow(/is not a property id/);
    expect(readCardSubject("1 Main St, Austin, TX")).toEqual({ kind: "address", address: "1 Main St, Austin, TX" });
  });
});

describe("PROP.CARD of an address", () => {
  /** A matcher: "1 Main St" is cp_1, "623 Washington Blvd" two properties; then cp_* detail records. */
  const service = (req: SeenRequest): Response => {
    if (req.path === "/v1/commercial/properties/match") {
      const none = { property_id: null, parcel_id: null, matched_address: null, score: null, match: null, candidates: [], detail: null };
      const data = (req.body.addresses as { ref: string; address: string }[]).map((row) =>
        row.address.startsWith("1 Main St")
          ? {
              ...none,
              ref: row.ref,
              status: "matched",
              property_id: "cp_1",
              matched_address: "1 Main St, Austin, TX 78701",
              score: 1,
              match: "exact",
            }
          : {
              ...none,
              ref: row.ref,
              status: "ambiguous",
              candidates: [
                { property_id: "cp_a", address: "623 Washington Blvd, Austin, TX 78721", score: 0.9 },
                { property_id: "cp_b", address: "623 Washington Blvd, Austin, TX 78722", score: 0.9 },
              ],
            },
      );
      return jsonResponse({
        object: "property_matches",
        data,
        counts: {},
        snapshot: { id: "snap_1", captured_at: "2026-11-01T00:00:00Z" },
      });
    }
    return jsonResponse(fullProperty(req.path.split("/").pop()));
  };

  test("a unique match is the matched property's card", async () => {
    host(true);
    const { ctx, requests } = testSession(service);
    const card = (await propertyCard("1 Main St, Austin, TX 78701", null, ctx)) as PropertyCard;
    expect(card.properties["Property ID"]).toEqual({ type: "String", basicValue: "cp_1" });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/commercial/properties/match",
      "GET /v1/commercial/properties/cp_1",
    ]);
  });

  test("an ambiguous address is PROP.MATCH's #N/A naming the candidates, with no record fetched", async () => {
    host(true);
    const { ctx, requests } = testSession(service);
    const err = await propertyCard("623 Washington Blvd, Austin, TX", null, ctx).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "#N/A",
      message: expect.stringMatching(/^ambiguous: .*Candidates: 623 Washington Blvd, Austin, TX 78721 \(cp_a\)/),
    });
    expect(requests.map((r) => r.path)).toEqual(["/v1/commercial/properties/match"]);
  });

  test("without cards, a unique match is its id", async () => {
    host(false);
    const { ctx } = testSession(service);
    await expect(propertyCard("1 Main St, Austin, TX 78701", null, ctx)).resolves.toBe("cp_1");
  });
});
