// Importing captured data: a clean directory becomes a snapshot described by its own coverage;
// a bad CSV row, a bad NDJSON line or a broken reference is reported with file, line and reason,
// and nothing is written (an existing snapshot stays as it was).
import fs from "node:fs";
import path from "node:path";
import { importSnapshot, MAX_ERRORS, type ImportResult } from "../../src/snapshot/import";
import { SNAPSHOT_FORMAT, openSnapshot, readMeta } from "../../src/snapshot/snapshot-file";
import { company, dataset, property, sale, tenancy } from "./factories";
import { csvCell, tempDir, toCsv, writeDataset } from "./files";

let root: string;
beforeEach(() => {
  root = tempDir("snapshot-import-");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function dirWith(data: Record<string, object[]>, csv: string[] = []): string {
  const dir = fs.mkdtempSync(path.join(root, "in-"));
  writeDataset(dir, data, csv);
  return dir;
}

function errorsOf(r: ImportResult) {
  if (r.ok) throw new Error("expected the import to fail");
  return r.errors;
}

test("a clean directory (CSV and NDJSON) imports, with derived tables and meta", () => {
  const data = dataset();
  const out = path.join(root, "snap.db");
  const r = importSnapshot({ dir: dirWith(data, ["companies", "properties"]), out });
  expect(r).toMatchObject({ ok: true, path: out });
  if (!r.ok) return;
  expect(r.counts).toMatchObject({ companies: 4, properties: 1, parcels: 1, sales: 1, tenancies: 1, listings: 1, diligence: 1 });
  const db = openSnapshot(out);
  const meta = readMeta(db);
  expect(meta).toMatchObject({ id: r.id, source: "imported", captured_at: "2026-09-01T00:00:00Z" });
  expect(meta.seed).toBeUndefined();
  const stored = db.prepare("SELECT * FROM properties").get();
  expect(stored).toEqual(data.properties[0]);
  // Imported properties get their detail documents too, in the layout this version reads.
  expect(meta.format).toBe(String(SNAPSHOT_FORMAT));
  const doc = db.prepare("SELECT json FROM property_docs WHERE id = ?").pluck().get(data.properties[0].id) as string;
  expect(JSON.parse(doc)).toEqual(data.properties[0]);
  const market = db.prepare("SELECT * FROM markets WHERE id = 'mkt_TX_industrial'").get() as Record<string, unknown>;
  expect(market).toMatchObject({
    property_count: 1,
    inventory_sqft: 100_000,
    occupancy_rate: 0.9,
    geography_name: "Texas",
    sales_count_12m: 1,
  });
  expect(db.prepare("SELECT geography_name FROM markets WHERE geography_type = 'city'").get()).toEqual({ geography_name: "Austin, TX" });
  const coverage = JSON.parse(meta.coverage);
  expect(coverage.counts.properties).toBe(1);
  expect(coverage.known_gaps).toContainEqual(
    expect.objectContaining({ resource: "properties", asset_type: "office", detail: "no office properties in the snapshot" }),
  );
  db.close();
  // Same files, same id.
  const again = importSnapshot({ dir: dirWith(data, ["companies", "properties"]), out: path.join(root, "again.db") });
  expect(again.ok && again.id).toBe(r.id);
});

test("CSV cells: quoting round-trips, empty nullable cells are null, numbers are parsed", () => {
  const data = dataset();
  data.companies[0] = company({ name: 'Smith, "Jones" & Co.\nHoldings', website: null, founded_year: 1990 });
  const out = path.join(root, "snap.db");
  const r = importSnapshot({ dir: dirWith(data, ["companies", "properties", "parcels", "sales", "tenancies", "listings"]), out });
  expect(r.ok).toBe(true);
  const db = openSnapshot(out);
  expect(db.prepare("SELECT name, website, founded_year FROM companies WHERE id = 'co_owner1'").get()).toEqual({
    name: 'Smith, "Jones" & Co.\nHoldings',
    website: null,
    founded_year: 1990,
  });
  db.close();
});

test("a nullable enum takes null (an empty CSV cell, a JSON null) and nothing outside its values", () => {
  const data = dataset();
  data.properties[0] = property({ ...data.properties[0], building_class: null });
  data.sales[0] = sale({ building_class: null });
  const out = path.join(root, "snap.db");
  expect(importSnapshot({ dir: dirWith(data, ["properties"]), out }).ok).toBe(true);
  const db = openSnapshot(out);
  expect(db.prepare("SELECT building_class FROM properties UNION ALL SELECT building_class FROM sales").pluck().all()).toEqual([
    null,
    null,
  ]);
  db.close();
  const bad = dataset();
  bad.sales[0] = sale({ building_class: "D" as never });
  expect(errorsOf(importSnapshot({ dir: dirWith(bad), out: path.join(root, "bad.db") }))).toEqual([
    { file: "sales.ndjson", line: 1, reason: expect.stringMatching(/^building_class: must be one of: A, B, C\b/) },
  ]);
});

test("a bad CSV row is reported with file, line and field, and nothing is written", () => {
  const data = dataset();
  data.properties.push(property({ id: "cp_2", parcel_id: null, year_built: 1990 }));
  const dir = dirWith(data, ["properties"]);
  // Corrupt the second data row (line 3): a year that is not an integer.
  const file = path.join(dir, "properties.csv");
  const lines = fs.readFileSync(file, "utf8").split("\r\n");
  lines[2] = lines[2].replace(",1990,", ",19x0,");
  fs.writeFileSync(file, lines.join("\r\n"));
  const out = path.join(root, "existing.db");
  fs.writeFileSync(out, "previous snapshot");
  const errors = errorsOf(importSnapshot({ dir, out }));
  expect(errors).toEqual([{ file: "properties.csv", line: 3, reason: expect.stringMatching(/^year_built: .*integer.*19x0/) }]);
  expect(fs.readFileSync(out, "utf8")).toBe("previous snapshot");
  expect(fs.readdirSync(root).filter((f) => f.startsWith("existing"))).toEqual(["existing.db"]);
});

test("bad NDJSON lines: broken JSON and schema violations, each with its line", () => {
  const dir = dirWith(dataset());
  fs.appendFileSync(
    path.join(dir, "sales.ndjson"),
    "{not json\n\n" + JSON.stringify(sale({ id: "sale_2", cap_rate: 6.5, state_code: "Texas" })) + "\n",
  );
  const errors = errorsOf(importSnapshot({ dir, out: path.join(root, "snap.db") }));
  expect(errors).toEqual([
    { file: "sales.ndjson", line: 2, reason: expect.stringContaining("not valid JSON") },
    { file: "sales.ndjson", line: 4, reason: expect.stringMatching(/state_code: .*"Texas".*cap_rate: |cap_rate: .*6\.5.*state_code: /) },
  ]);
  expect(fs.existsSync(path.join(root, "snap.db"))).toBe(false);
});

test("broken references and duplicate ids are reported against the row that has them", () => {
  const data = dataset();
  data.sales.push(sale({ id: "sale_2", property_id: "cp_missing" }));
  data.tenancies.push(tenancy({ id: "ten_2", tenant_id: "co_nobody" }));
  data.companies.push(company({ id: "co_owner2", name: "Duplicate" }));
  const errors = errorsOf(importSnapshot({ dir: dirWith(data), out: path.join(root, "snap.db") }));
  expect(errors).toEqual([{ file: "companies.ndjson", line: 5, reason: "id: co_owner2 is used more than once (first on line 2)" }]);
  data.companies.pop();
  const refErrors = errorsOf(importSnapshot({ dir: dirWith(data), out: path.join(root, "snap.db") }));
  expect(refErrors).toEqual(
    expect.arrayContaining([
      { file: "sales.ndjson", line: 2, reason: "property_id: cp_missing is not the id of any row in properties" },
      { file: "tenancies.ndjson", line: 2, reason: "tenant_id: co_nobody is not the id of any row in companies" },
    ]),
  );
  expect(refErrors).toHaveLength(2);
});

test("header problems, unknown files and a missing directory are reported", () => {
  const dir = dirWith(dataset(), ["companies"]);
  const file = path.join(dir, "companies.csv");
  fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("company_type", "kind"));
  fs.writeFileSync(path.join(dir, "owners.csv"), "id\n");
  const errors = errorsOf(importSnapshot({ dir, out: path.join(root, "snap.db") }));
  expect(errors).toEqual([{ file: "owners.csv", line: 0, reason: expect.stringContaining("not a resource file") }]);
  fs.rmSync(path.join(dir, "owners.csv"));
  const header = errorsOf(importSnapshot({ dir, out: path.join(root, "snap.db") }));
  expect(header).toEqual([{ file: "companies.csv", line: 1, reason: 'header: unknown column "kind"; missing column "company_type"' }]);
  expect(errorsOf(importSnapshot({ dir: path.join(root, "nope"), out: path.join(root, "snap.db") }))[0].reason).toBe("not a directory");
});

test("errors stop at the cap", () => {
  const dir = fs.mkdtempSync(path.join(root, "many-"));
  const header = toCsv("companies", []).trim();
  const bad = Array.from({ length: MAX_ERRORS + 50 }, (_, i) =>
    [`co_${i}`, "company", "owner", "X", "", "Austin", "tx", "", "", "0"].map(csvCell).join(","),
  );
  fs.writeFileSync(path.join(dir, "companies.csv"), [header, ...bad].join("\n"));
  const errors = errorsOf(importSnapshot({ dir, out: path.join(root, "snap.db") }));
  expect(errors).toHaveLength(MAX_ERRORS + 1);
  expect(errors[0]).toEqual({ file: "companies.csv", line: 2, reason: expect.stringContaining("headquarters_state") });
  expect(errors[MAX_ERRORS].reason).toBe(`stopped after ${MAX_ERRORS} errors`);
});

test("a parcel file naming the county `fips`, its older name, imports it as county_fips (CSV and NDJSON)", () => {
  for (const csv of [["parcels"], []]) {
    const dir = dirWith(dataset(), csv);
    const file = path.join(dir, csv.length ? "parcels.csv" : "parcels.ndjson");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/county_fips/, "fips"));
    expect(fs.readFileSync(file, "utf8")).not.toContain("county_fips");
    const out = path.join(root, `old-name-${csv.length}.db`);
    const r = importSnapshot({ dir, out });
    expect(r).toMatchObject({ ok: true });
    const db = openSnapshot(out);
    expect(db.prepare("SELECT county_fips FROM parcels").all()).toEqual([{ county_fips: "48453" }]);
    db.close();
  }
});

test("an NDJSON parcel giving both fips and county_fips is refused, naming the older name", () => {
  const dir = dirWith(dataset());
  const file = path.join(dir, "parcels.ndjson");
  const row = JSON.parse(fs.readFileSync(file, "utf8").trim()) as Record<string, unknown>;
  fs.writeFileSync(file, JSON.stringify({ ...row, fips: "48453" }) + "\n");
  const errors = errorsOf(importSnapshot({ dir, out: path.join(root, "snap.db") }));
  expect(errors).toEqual([{ file: "parcels.ndjson", line: 1, reason: "fips is the older name of county_fips: give one of the two" }]);
});
