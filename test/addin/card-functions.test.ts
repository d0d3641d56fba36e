// PROP.CARD and ids=cards end to end: the built functions.js in node:vm on a host with
// CustomFunctionsRuntime 1.4, against the real service over the shared test snapshot. A card
// holds the record the service answers (its fields typed, by label), an address makes a card
// through the service's matcher, a list's id column becomes cards at the list's own cost, and
// a card costs what PROP.PROPERTY costs (the same compare request serves both).
import { ensureAddinBuild } from "./addin-build";
import { loadFunctionsBundle, type LoadedBundle } from "./bundle-harness";
import { pick, startService, type TestService, listenOnLoopback } from "../helpers/service";
import { toExcelSerial } from "../../src/functions/cell-values";
import type { PropertyCard } from "../../src/functions/property-card";

let svc: TestService;
let origin: string;

beforeAll(async () => {
  await ensureAddinBuild();
  svc = await startService();
  origin = await listenOnLoopback(svc);
}, 240_000);

afterAll(() => svc?.app.close());

/** The built functions on a host that shows cards. */
function cardsHost(): LoadedBundle {
  const loaded = loadFunctionsBundle({ origin, apiKey: svc.key });
  loaded.context.Office = {
    context: { requirements: { isSetSupported: (set: string, v: string) => set === "CustomFunctionsRuntime" && v === "1.4" } },
  };
  return loaded;
}

const paths = (loaded: LoadedBundle) => loaded.calls.map((c) => `${c.method} ${new URL(c.url).pathname}`);

test("a card of a property id holds the service's record, typed; PROP.PROPERTY beside it costs nothing more", async () => {
  const row = pick(
    svc,
    "SELECT id, name, year_built, building_area_sqft, last_sale_date FROM properties WHERE year_built IS NOT NULL AND last_sale_date IS NOT NULL ORDER BY id LIMIT 1",
  );
  const other = pick(svc, "SELECT id FROM properties WHERE id > ? ORDER BY id LIMIT 1", row.id);
  const loaded = cardsHost();
  const [card, second] = (await Promise.all([loaded.call("CARD", [row.id]), loaded.call("CARD", [other.id])])) as PropertyCard[];
  expect(card.type).toBe("Entity");
  expect(card.text).toBe(row.name);
  expect(card.properties["Property ID"]).toEqual({ type: "String", basicValue: row.id });
  expect(card.properties["Year built"]).toEqual({ type: "Double", basicValue: row.year_built, numberFormat: "0" });
  expect(card.properties["Last sale date"]).toEqual({
    type: "Double",
    basicValue: toExcelSerial(row.last_sale_date),
    numberFormat: "yyyy-mm-dd",
  });
  expect(card.properties.Record).toEqual({ type: "String", basicValue: `${origin}/v1/commercial/properties/${row.id}` });
  expect(second.properties["Property ID"]).toEqual({ type: "String", basicValue: other.id });
  await expect(loaded.call("PROPERTY", [row.id, "Year built"])).resolves.toBe(row.year_built);
  // Two cards calculated together: one compare request (2 credits), which also answers PROP.PROPERTY.
  expect(paths(loaded)).toEqual(["POST /v1/commercial/properties/compare"]);
  expect(loaded.calls.map((c) => c.charged)).toEqual([2]);
});

test("an address that matches one property is its card; a recalculation asks nothing", async () => {
  const row = pick(
    svc,
    `SELECT p.id, p.address || ', ' || p.city || ', ' || p.state_code || ' ' || p.zip AS line FROM properties p
     WHERE NOT EXISTS (SELECT 1 FROM properties q WHERE q.id <> p.id AND q.address = p.address AND (q.zip = p.zip OR q.city = p.city))
     ORDER BY p.id LIMIT 1`,
  );
  const loaded = cardsHost();
  const card = (await loaded.call("CARD", [row.line])) as PropertyCard;
  expect(card.properties["Property ID"]).toEqual({ type: "String", basicValue: row.id });
  expect(paths(loaded)).toEqual(["POST /v1/commercial/properties/match", `GET /v1/commercial/properties/${row.id}`]);
  await loaded.call("CARD", [row.line]);
  expect(loaded.calls).toHaveLength(2);
});

test("an address the snapshot does not hold is #N/A, free", async () => {
  const loaded = cardsHost();
  await expect(loaded.call("CARD", ["99999 Nowhere Lane, Austin, TX 78701"])).rejects.toMatchObject({ code: "#N/A" });
  expect(loaded.calls.map((c) => c.charged ?? 0).reduce((a, b) => a + b, 0)).toBe(0);
});

test("ids=cards: a search's id column as cards, the same requests and credits as the list without it", async () => {
  const withCards = cardsHost();
  const spill = (await withCards.call("SEARCH", [null, null, "limit=5; cols=id,name,year_built; ids=cards"])) as unknown[][];
  const plain = cardsHost();
  const ids = (await plain.call("SEARCH", [null, null, "limit=5; cols=id,name,year_built"])) as unknown[][];
  expect(spill[0]).toEqual(["id", "name", "year_built"]);
  const cards = spill.slice(1, 6).map((r) => r[0] as PropertyCard);
  expect(cards.map((c) => c.properties["Property ID"].basicValue)).toEqual(ids.slice(1, 6).map((r) => r[0]));
  expect(spill.slice(1).map((r) => r.slice(1))).toEqual(ids.slice(1).map((r) => r.slice(1)));
  expect(paths(withCards)).toEqual(paths(plain));
  expect(withCards.calls.map((c) => c.charged)).toEqual(plain.calls.map((c) => c.charged));
});
