// The default snapshot (20,000 properties), built once for this file: sizes, coverage of every
// state, asset type, listing status and company type, rows that validate against their schemas,
// links between resources, and the derived markets, diligence candidates and meta.
import type Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { ASSET_TYPES, COMPANY_TYPES, LISTING_STATUSES } from "../../src/contract/vocabulary";
import { buildSnapshot, DEFAULT_CAPTURED_AT, type BuildResult } from "../../src/snapshot/build";
import { brokenReferences } from "../../src/snapshot/import/references";
import { validatorFor } from "../../src/snapshot/record-validator";
import { openSnapshot, readMeta } from "../../src/snapshot/snapshot-file";
import { STATE_CODES } from "../../src/snapshot/state-data";
import { decodeRow, type TableName } from "../../src/snapshot/tables";
import { tempDir } from "./files";

let dir: string;
let result: BuildResult;
let db: Database.Database;
const all = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];
const one = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T;

beforeAll(() => {
  dir = tempDir();
  result = buildSnapshot({ out: path.join(dir, "snapshot.db") });
  db = openSnapshot(result.path);
}, 120_000);

afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// How long it takes is a benchmark's business (npm run bench:service times the build), not a
// test's: under a full parallel test run the same build takes two or three times as long.
test("leaves no temporary file", () => {
  expect(fs.readdirSync(dir)).toEqual(["snapshot.db"]);
});

test("has at least the default counts", () => {
  const { counts } = result;
  expect(counts.properties).toBe(20_000);
  expect(counts.parcels).toBeGreaterThanOrEqual(50_000);
  expect(counts.listings).toBeGreaterThanOrEqual(10_000);
  expect(counts.sales).toBeGreaterThanOrEqual(20_000);
  expect(counts.tenancies).toBeGreaterThan(20_000);
  expect(counts.diligence).toBe(counts.properties);
  for (const t of Object.keys(counts))
    expect(one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`).n).toBe(counts[t as keyof typeof counts]);
});

test("every state and DC has properties of every asset type", () => {
  const cells = all<{ state_code: string; asset_type: string }>("SELECT DISTINCT state_code, asset_type FROM properties");
  expect(STATE_CODES).toHaveLength(51);
  for (const s of STATE_CODES) for (const t of ASSET_TYPES) expect(cells).toContainEqual({ state_code: s, asset_type: t });
  expect(new Set(all<{ s: string }>("SELECT DISTINCT state_code AS s FROM parcels").map((r) => r.s)).size).toBe(51);
});

test("has every listing status and company type, and residential and commercial listings", () => {
  const statuses = all<{ status: string }>("SELECT DISTINCT status FROM listings").map((r) => r.status);
  expect(statuses.sort()).toEqual([...LISTING_STATUSES].sort());
  const types = all<{ t: string }>("SELECT DISTINCT company_type AS t FROM companies").map((r) => r.t);
  expect(types.sort()).toEqual([...COMPANY_TYPES].sort());
  const kinds = all<{ k: string }>("SELECT DISTINCT property_type AS k FROM listings").map((r) => r.k);
  expect(kinds).toEqual(expect.arrayContaining(["single_family", "condo", "commercial", "land"]));
});

test("a sample of every table validates against its record schema", () => {
  for (const t of ["parcels", "listings", "companies", "properties", "sales", "tenancies", "markets", "diligence"] as TableName[]) {
    const check = validatorFor(t);
    const rows = all<Record<string, unknown>>(`SELECT * FROM ${t} WHERE rowid % 23 = 1`);
    expect(rows.length).toBeGreaterThan(0);
    const bad = rows.map((r) => ({ id: r.id, errors: check(decodeRow(t, r)) })).filter((r) => r.errors.length);
    expect(bad.slice(0, 3)).toEqual([]);
  }
});

test("every reference resolves", () => {
  expect(brokenReferences(db, 10)).toEqual([]);
});

test("properties link to their parcel, owner, latest sale and tenancies", () => {
  expect(one<{ n: number }>("SELECT COUNT(*) AS n FROM properties p JOIN parcels c ON c.id = p.parcel_id AND c.property_id = p.id").n).toBe(
    20_000,
  );
  const mismatchedSale = one<{ n: number }>(`SELECT COUNT(*) AS n FROM properties p JOIN sales s ON s.id = p.last_sale_id
    WHERE s.sale_date <> p.last_sale_date OR s.sale_price <> p.last_sale_price OR s.buyer_id <> p.owner_id
      OR s.sale_date <> (SELECT MAX(sale_date) FROM sales x WHERE x.property_id = p.id)`).n;
  expect(mismatchedSale).toBe(0);
  expect(
    one<{ n: number }>(
      "SELECT COUNT(*) AS n FROM properties p WHERE last_sale_id IS NULL AND EXISTS (SELECT 1 FROM sales s WHERE s.property_id = p.id)",
    ).n,
  ).toBe(0);
  const tenantCounts = one<{ n: number }>(`SELECT COUNT(*) AS n FROM properties p
    WHERE tenant_count <> (SELECT COUNT(*) FROM tenancies t WHERE t.property_id = p.id)`).n;
  expect(tenantCounts).toBe(0);
  const ownerTypes = all<{ t: string }>("SELECT DISTINCT c.company_type AS t FROM properties p JOIN companies c ON c.id = p.owner_id");
  expect(ownerTypes).toEqual([{ t: "owner" }]);
  const brokerTypes = all<{ t: string }>("SELECT DISTINCT c.company_type AS t FROM listings l JOIN companies c ON c.id = l.brokerage_id");
  expect(brokerTypes).toEqual([{ t: "broker" }]);
});

test("unit-based types have units, land has no building facts", () => {
  const byType = all<{ asset_type: string; units: number; area: number; year: number; occ: number; n: number }>(
    `SELECT asset_type, COUNT(*) AS n, SUM(units IS NOT NULL) AS units, SUM(building_area_sqft IS NOT NULL) AS area,
       SUM(year_built IS NOT NULL) AS year, SUM(occupancy_rate IS NOT NULL) AS occ FROM properties GROUP BY asset_type`,
  );
  for (const r of byType) {
    const unitBased = ["multifamily", "student", "senior-living", "hospitality"].includes(r.asset_type);
    expect([r.asset_type, r.units]).toEqual([r.asset_type, unitBased ? r.n : 0]);
    if (r.asset_type === "land") expect([r.area, r.year, r.occ]).toEqual([0, 0, 0]);
    else expect(r.area).toBe(r.n);
  }
  const subtypes = all<{ s: string }>("SELECT DISTINCT subtype AS s FROM properties WHERE asset_type = 'industrial'").map((r) => r.s);
  expect(subtypes).toEqual(expect.arrayContaining(["warehouse", "distribution", "manufacturing", "cold-storage"]));
});

test("cap rates, sizes and prices fall in realistic ranges", () => {
  const caps = all<{ asset_type: string; cap: number }>(
    "SELECT asset_type, AVG(cap_rate) AS cap FROM sales WHERE cap_rate IS NOT NULL GROUP BY asset_type",
  );
  const cap = (t: string) => caps.find((c) => c.asset_type === t)!.cap;
  expect(cap("industrial")).toBeGreaterThan(0.05);
  expect(cap("industrial")).toBeLessThan(0.068);
  expect(cap("office")).toBeGreaterThan(0.07);
  expect(cap("office")).toBeLessThan(0.095);
  expect(cap("multifamily")).toBeGreaterThan(0.045);
  expect(cap("multifamily")).toBeLessThan(0.062);
  const industrial = one<{ lo: number; hi: number }>(
    "SELECT MIN(building_area_sqft) AS lo, MAX(building_area_sqft) AS hi FROM properties WHERE asset_type = 'industrial'",
  );
  expect(industrial.lo).toBeGreaterThanOrEqual(20_000);
  expect(industrial.hi).toBeLessThanOrEqual(1_000_000);
  // Gateway markets are priced above the rest.
  const ppsf = (metro: string) =>
    one<{ v: number }>("SELECT median_price_per_sqft AS v FROM markets WHERE geography_id = ? AND asset_type = 'multifamily'", metro).v;
  expect(ppsf("metro-new-york-city-ny")).toBeGreaterThan(ppsf("metro-memphis-tn"));
});

test("every date derives from the capture date", () => {
  const capture = DEFAULT_CAPTURED_AT.slice(0, 10);
  const latest = one<{ s: string; l: string; t: string; p: string }>(`SELECT (SELECT MAX(sale_date) FROM sales) AS s,
    (SELECT MAX(status_date) FROM listings) AS l, (SELECT MAX(lease_start) FROM tenancies) AS t, (SELECT MAX(last_sale_date) FROM parcels) AS p`);
  for (const d of Object.values(latest)) expect(d <= capture).toBe(true);
  // Every column of every table that holds dates: none after the capture date but the leases'
  // expiry; the markets are as of it.
  const tables = all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT LIKE '%fts%'",
  ).map((t) => t.name);
  const dated: string[] = [];
  for (const t of tables) {
    for (const { name } of db.prepare(`SELECT * FROM ${t} LIMIT 1`).columns()) {
      const hi = one<{ hi: string | null }>(
        `SELECT max(${name}) AS hi FROM ${t} WHERE typeof(${name}) = 'text' AND ${name} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'`,
      ).hi;
      if (hi === null) continue;
      dated.push(`${t}.${name}`);
      if (`${t}.${name}` !== "tenancies.lease_expiration")
        expect({ column: `${t}.${name}`, after: hi > capture }).toEqual({ column: `${t}.${name}`, after: false });
    }
  }
  expect(dated).toEqual(
    expect.arrayContaining([
      "sales.sale_date",
      "listings.listed_date",
      "listings.status_date",
      "properties.last_sale_date",
      "markets.as_of",
    ]),
  );
  expect(all<{ d: string }>("SELECT DISTINCT as_of AS d FROM markets")).toEqual([{ d: capture }]);
  expect(one<{ n: number }>("SELECT COUNT(*) AS n FROM tenancies WHERE lease_expiration < ?", capture).n).toBe(0);
  const rolling = one<{ n: number }>("SELECT COUNT(*) AS n FROM tenancies WHERE lease_expiration <= date(?, '+24 months')", capture).n;
  expect(rolling).toBeGreaterThan(0);
});

test("markets cover every state and metro by asset type and agree with the properties", () => {
  const states = one<{ n: number }>("SELECT COUNT(*) AS n FROM markets WHERE geography_type = 'state'").n;
  expect(states).toBe(51 * 12);
  const austin = one<Record<string, unknown>>("SELECT * FROM markets WHERE id = 'mkt_city-austin-tx_office'");
  expect(austin).toMatchObject({ geography_type: "city", geography_name: "Austin, TX", state_code: "TX", asset_type: "office" });
  const metro = one<Record<string, unknown>>("SELECT * FROM markets WHERE id = 'mkt_metro-austin-tx_industrial'");
  expect(metro).toMatchObject({ geography_name: "Austin, TX metro", state_code: "TX" });
  const tx = one<{ property_count: number; inventory_sqft: number; vacancy_rate: number; occupancy_rate: number }>(
    "SELECT * FROM markets WHERE id = 'mkt_TX_office'",
  );
  const direct = one<{ n: number; sqft: number; occ: number }>(
    `SELECT COUNT(*) AS n, SUM(building_area_sqft) AS sqft, SUM(occupancy_rate * building_area_sqft) / SUM(building_area_sqft) AS occ
     FROM properties WHERE state_code = 'TX' AND asset_type = 'office'`,
  );
  expect(tx.property_count).toBe(direct.n);
  expect(tx.inventory_sqft).toBe(direct.sqft);
  expect(tx.occupancy_rate).toBeCloseTo(direct.occ, 3);
  expect(tx.vacancy_rate).toBeCloseTo(1 - tx.occupancy_rate, 6);
  const land = one<{ r: number | null; u: number | null }>(
    "SELECT rent_growth_yoy AS r, inventory_units AS u FROM markets WHERE id = 'mkt_TX_land'",
  );
  expect(land).toEqual({ r: null, u: null });
});

// (The order of the reasons, strongest first, is scoreSignals' and is checked in derive.test.ts:
// the points behind each reason are not all kept in the table.)
test("diligence candidates score every property from 0 to 100, and every score has its reasons", () => {
  const unscored = one<{ n: number }>("SELECT COUNT(*) AS n FROM properties WHERE id NOT IN (SELECT property_id FROM diligence)").n;
  expect(unscored).toBe(0);
  expect(one<{ n: number }>("SELECT COUNT(DISTINCT property_id) AS n FROM diligence").n).toBe(result.counts.properties);
  const stats = one<{ lo: number; hi: number; with: number }>(
    "SELECT MIN(score) AS lo, MAX(score) AS hi, SUM(reason_codes <> '[]') AS with FROM diligence",
  );
  expect(stats.lo).toBeGreaterThanOrEqual(0);
  expect(stats.hi).toBeLessThanOrEqual(100);
  expect(stats.with).toBeGreaterThan(10_000);
  const neverSold = one<{ reason_codes: string }>(
    "SELECT d.reason_codes FROM diligence d JOIN properties p ON p.id = d.property_id WHERE p.last_sale_id IS NULL LIMIT 1",
  );
  expect(JSON.parse(neverSold.reason_codes)).toContain("no_recorded_sale");
  const zeroReasons = one<{ n: number }>("SELECT COUNT(*) AS n FROM diligence WHERE reason_codes = '[]' AND score > 0").n;
  expect(zeroReasons).toBe(0);
});

test("meta: id, times, source, seed, supported inputs and a coverage report computed from the data", () => {
  const meta = readMeta(db);
  expect(meta.id).toBe(result.id);
  expect(meta.id).toMatch(/^snap_[0-9a-f]{12}$/);
  expect(meta.captured_at).toBe(DEFAULT_CAPTURED_AT);
  expect(Date.parse(meta.built_at)).not.toBeNaN();
  expect(meta.source).toBe("generated");
  expect(meta.seed).toBe("7");
  const inputs = JSON.parse(meta.asset_inputs) as Record<string, string[]>;
  expect(Object.keys(inputs).sort()).toEqual([...ASSET_TYPES].sort());
  expect(inputs.land).not.toContain("min_units");
  expect(inputs.land).not.toContain("min_building_area_sqft");
  expect(inputs.land).toContain("min_land_area_acres");
  expect(inputs.multifamily).toContain("min_units");
  expect(inputs.office).not.toContain("min_units");
  for (const t of ASSET_TYPES) expect(inputs[t]).toEqual(expect.arrayContaining(["state_code", "city", "zip", "metro_id", "q"]));

  const coverage = JSON.parse(meta.coverage);
  expect(Object.keys(coverage).sort()).toEqual([
    "build_seconds",
    "by_asset_type",
    "by_state",
    "companies_by_type",
    "counts",
    "history",
    "known_gaps",
    "listings_by_status",
  ]);
  expect(coverage.counts).toEqual(result.counts);
  expect(coverage.by_state).toHaveLength(51);
  expect(coverage.by_state.reduce((s: number, r: { properties: number }) => s + r.properties, 0)).toBe(20_000);
  const office = coverage.by_asset_type.find((a: { asset_type: string }) => a.asset_type === "office");
  expect(office.properties).toBe(one<{ n: number }>("SELECT COUNT(*) AS n FROM properties WHERE asset_type = 'office'").n);
  expect(office.with_units).toBe(0);
  expect(coverage.known_gaps).toContainEqual(expect.objectContaining({ resource: "properties", asset_type: "office", field: "units" }));
  expect(coverage.known_gaps).toContainEqual(expect.objectContaining({ resource: "tenancies", asset_type: "multifamily" }));
  expect(coverage.known_gaps).toContainEqual(expect.objectContaining({ resource: "sales", asset_type: "land", field: "cap_rate" }));
  expect(coverage.build_seconds).toBeGreaterThan(0);
});
