// ids=cards on the list functions over properties and sales (PROP.SEARCH, PROP.ASSETSEARCH,
// PROP.SALECOMPS), over a stubbed service: the id column's cells become cards built from the
// rows the list already fetched (no other request), the rest of the spill is unchanged, and a
// host without CustomFunctionsRuntime 1.4 keeps the ids. The option is declared once.
import { ASSETSEARCH, PARCELS, SEARCH } from "../../src/functions/property-searches";
import { SALECOMPS } from "../../src/functions/sale-comps";
import { IDS_OPTION, cardColumn } from "../../src/functions/list-cards";
import { PROPERTY_CARD, type PropertyCard } from "../../src/functions/property-card";
import { customFunctionsStandIn } from "./office-stand-ins";
import { listResponse, propertyRecord, testSession } from "./session-factory";

const g = globalThis as Record<string, unknown>;

beforeEach(() => {
  g.CustomFunctions = customFunctionsStandIn();
});
afterEach(() => {
  delete g.CustomFunctions;
  delete g.Office;
});

function host(cards: boolean) {
  g.Office = {
    context: { requirements: { isSetSupported: (set: string, v: string) => cards && set === "CustomFunctionsRuntime" && v === "1.4" } },
  };
}

const isCard = (cell: unknown): cell is PropertyCard =>
  typeof cell === "object" && cell !== null && (cell as PropertyCard).type === "Entity";

const rows = [propertyRecord("cp_1", { city: "Austin" }), propertyRecord("cp_2", { city: "Dallas" })];

test("SEARCH with ids=cards: the id column holds each row's card, the other cells and the request are unchanged", async () => {
  host(true);
  const { ctx, requests } = testSession(() => listResponse(rows));
  const plain = await SEARCH.run([null, "TX"], "cols=id,name,city", ctx);
  const carded = await SEARCH.run([null, "TX"], "cols=id,name,city; ids=cards", ctx);
  // The same request answers both (cached): ids=cards is not sent.
  expect(requests).toHaveLength(1);
  expect(requests[0].query).not.toHaveProperty("ids");
  expect(carded[0]).toEqual(["id", "name", "city"]);
  expect(carded.map((r) => r.slice(1))).toEqual(plain.map((r) => r.slice(1)));
  const cards = carded.slice(1).map((r) => r[0]);
  expect(cards.every(isCard)).toBe(true);
  expect((cards as PropertyCard[]).map((c) => [c.text, c.properties["Property ID"], c.properties.City])).toEqual([
    ["Building cp_1", { type: "String", basicValue: "cp_1" }, { type: "String", basicValue: "Austin" }],
    ["Building cp_2", { type: "String", basicValue: "cp_2" }, { type: "String", basicValue: "Dallas" }],
  ]);
});

test("without cards in the host, ids=cards keeps the ids; with the id column left out, nothing changes", async () => {
  host(false);
  const { ctx } = testSession(() => listResponse(rows));
  await expect(ASSETSEARCH.run(["industrial", null], "cols=id,name; ids=cards; headers=false", ctx)).resolves.toEqual([
    ["cp_1", "Building cp_1"],
    ["cp_2", "Building cp_2"],
  ]);
  host(true);
  await expect(ASSETSEARCH.run(["industrial", null], "cols=name; ids=cards", ctx)).resolves.toEqual([
    ["name"],
    ["Building cp_1"],
    ["Building cp_2"],
  ]);
});

test("SALECOMPS with ids=cards: the property_id column holds cards of the rows' sales; the sale id stays text", async () => {
  host(true);
  const sale = (id: string, propertyId: string) => ({
    id,
    object: "sale_comp",
    property_id: propertyId,
    property_name: `Building ${propertyId}`,
    sale_date: "2024-03-01",
    sale_price: 1_000_000,
    cap_rate: 0.07,
  });
  const { ctx, requests } = testSession(() => listResponse([sale("sale_1", "cp_7"), sale("sale_2", "cp_8")], { total_count: 9 }));
  const spill = await SALECOMPS.run(["TX", null], "cols=id,property_id,sale_price; ids=cards; limit=2", ctx);
  expect(requests).toHaveLength(1);
  expect(spill[0]).toEqual(["id", "property_id", "sale_price"]);
  expect(spill[1][0]).toBe("sale_1");
  const card = spill[1][1] as PropertyCard;
  expect(card.properties["Sale ID"]).toEqual({ type: "String", basicValue: "sale_1" });
  expect(card.properties["Cap rate"]).toEqual({ type: "Double", basicValue: 0.07, numberFormat: "0.0%" });
  expect(card.properties["Card from"]).toMatchObject({ basicValue: expect.stringMatching(/sale comp row/) });
  // The "2 of 9 rows" footer row is left as it is.
  expect(spill[3][0]).toMatch(/^2 of 9 rows/);
  expect(spill[3].some(isCard)).toBe(false);
});

test("ids= is one option, offered by the property and sale lists only, its values checked before any request", async () => {
  host(true);
  const { ctx, requests } = testSession(() => listResponse(rows));
  await expect(SEARCH.run([null, "TX"], "ids=tiles", ctx)).rejects.toThrow(/ids must be one of text, cards, not "tiles"/);
  await expect(PARCELS.run(["TX"], "ids=cards", ctx)).rejects.toThrow(/"ids" is not an option here/);
  expect(requests).toHaveLength(0);
  expect(IDS_OPTION.values).toEqual(["text", "cards"]);
});

test("cardColumn leaves the header, rows past the records and rows without an id as they are", () => {
  const spill = [
    ["id", "name"],
    ["cp_1", "A"],
    ["", "B"],
    ["1 of 5 rows", ""],
  ];
  const out = cardColumn(spill, [propertyRecord("cp_1"), { name: "B" }], 0, 1, PROPERTY_CARD, "http://localhost:3000");
  expect(out[0]).toEqual(["id", "name"]);
  expect(isCard(out[1][0])).toBe(true);
  expect(out.slice(2)).toEqual(spill.slice(2));
  expect(cardColumn(spill, [], -1, 1, PROPERTY_CARD, "x")).toBe(spill);
});
