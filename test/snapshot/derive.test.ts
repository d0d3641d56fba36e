// The derivations on small hand-made data: area-weighted occupancy, rent growth only with enough
// leases, the diligence points, and the date windows they rely on.
import fs from "node:fs";
import path from "node:path";
import { scoreSignals, type Signals } from "../../src/snapshot/derive/diligence";
import { median } from "../../src/snapshot/derive/stats";
import { monthsBefore, windowsFor } from "../../src/snapshot/derive/windows";
import { importSnapshot } from "../../src/snapshot/import";
import { openSnapshot } from "../../src/snapshot/snapshot-file";
import { company, dataset, parcel, property, tenancy } from "./factories";
import { tempDir, writeDataset } from "./files";

const quiet: Signals = {
  occupancy: 0.95,
  marketOccupancy: 0.94,
  rollover: 0.1,
  yearsSinceSale: 3,
  age: 10,
  rentRatio: 1,
  marketSales12: 0,
};

test("diligence points: each signal, the cap at 100, strongest reason first", () => {
  expect(scoreSignals(quiet)).toEqual({ score: 0, reasons: [] });
  expect(scoreSignals({ ...quiet, occupancy: 0.74 })).toEqual({ score: 30, reasons: ["below_market_occupancy"] });
  expect(scoreSignals({ ...quiet, occupancy: 0.9 })).toEqual({ score: 0, reasons: [] }); // 4 points under: within noise
  expect(scoreSignals({ ...quiet, occupancy: 0.88 })).toEqual({ score: 9, reasons: ["below_market_occupancy"] });
  expect(scoreSignals({ ...quiet, yearsSinceSale: null })).toEqual({ score: 8, reasons: ["no_recorded_sale"] });
  expect(scoreSignals({ ...quiet, yearsSinceSale: 14 })).toEqual({ score: 14, reasons: ["long_hold"] });
  expect(scoreSignals({ ...quiet, rollover: 0.6, age: 60 })).toEqual({ score: 21 + 10, reasons: ["lease_rollover_24m", "aging_asset"] });
  expect(scoreSignals({ ...quiet, rentRatio: 0.7, marketSales12: 25 })).toEqual({
    score: 15 + 6,
    reasons: ["below_market_rent", "recent_market_sales"],
  });
  const everything = scoreSignals({
    occupancy: 0.5,
    marketOccupancy: 0.95,
    rollover: 1,
    yearsSinceSale: 30,
    age: 90,
    rentRatio: 0.5,
    marketSales12: 100,
  });
  expect(everything.score).toBe(100);
  expect(everything.reasons[0]).toBe("below_market_occupancy");
  expect(everything.reasons).toHaveLength(6);
});

test("medians and date windows", () => {
  expect(median([])).toBeNull();
  expect(median([3, 1, 2])).toBe(2);
  expect(median([4, 1, 2, 3])).toBe(2.5);
  expect(monthsBefore("2026-03-31", 1)).toBe("2026-02-28");
  expect(monthsBefore("2026-11-01", 24)).toBe("2024-11-01");
  expect(monthsBefore("2026-11-01", -24)).toBe("2028-11-01");
  expect(windowsFor("2026-11-01T00:00:00Z")).toEqual({
    capture: "2026-11-01",
    last12: "2025-11-01",
    prev12: "2024-11-01",
    last24: "2024-11-01",
    next24: "2028-11-01",
  });
});

test("markets weigh occupancy by area and measure rent growth only with 5 leases a side", () => {
  const root = tempDir("snapshot-derive-");
  try {
    const data = dataset();
    // A second, bigger and fuller industrial building in the same city.
    data.properties.push(
      property({ id: "cp_2", parcel_id: "par_2", building_area_sqft: 300_000, occupancy_rate: 0.5, tenant_count: 10, last_sale_id: null }),
    );
    data.parcels.push(parcel({ id: "par_2", property_id: "cp_2" }));
    data.companies.push(company({ id: "co_tenant2", company_type: "tenant", name: "Beacon Freight", industry: "Logistics" }));
    // 5 leases started in the 12 months before capture at $12, 5 in the 12 before at $10.
    for (let i = 0; i < 5; i++) {
      data.tenancies.push(
        tenancy({ id: `ten_new${i}`, property_id: "cp_2", tenant_id: "co_tenant2", lease_start: "2026-02-01", rent_sqft_year: 12 }),
      );
      data.tenancies.push(
        tenancy({ id: `ten_old${i}`, property_id: "cp_2", tenant_id: "co_tenant2", lease_start: "2025-03-01", rent_sqft_year: 10 }),
      );
    }
    data.tenancies.shift(); // the dataset's own lease would make 6 recent ones
    data.properties[0].tenant_count = 0;
    const dir = path.join(root, "in");
    fs.mkdirSync(dir);
    writeDataset(dir, data);
    const r = importSnapshot({ dir, out: path.join(root, "snap.db"), capturedAt: "2026-11-01" });
    expect(r.ok).toBe(true);
    const db = openSnapshot(path.join(root, "snap.db"));
    const m = db.prepare("SELECT * FROM markets WHERE id = 'mkt_city-austin-tx_industrial'").get() as Record<string, number>;
    expect(m.property_count).toBe(2);
    expect(m.inventory_sqft).toBe(400_000);
    expect(m.occupancy_rate).toBeCloseTo((100_000 * 0.9 + 300_000 * 0.5) / 400_000, 4);
    expect(m.vacancy_rate).toBeCloseTo(0.4, 4);
    expect(m.rent_growth_yoy).toBeCloseTo(0.2, 4);
    expect(m.median_year_built).toBe(1990);
    const dil = db.prepare("SELECT * FROM diligence WHERE property_id = 'cp_2'").get() as Record<string, unknown>;
    expect(dil).toMatchObject({ id: "dil_2", market_occupancy_rate: 0.6, occupancy_rate: 0.5, lease_expiring_24m_share: 1 });
    expect(JSON.parse(dil.reason_codes as string)).toEqual(["lease_rollover_24m", "below_market_occupancy", "no_recorded_sale"]);
    db.close();
    // One lease fewer on the recent side: no rent growth.
    data.tenancies = data.tenancies.filter((t) => t.id !== "ten_new0");
    fs.rmSync(dir, { recursive: true });
    fs.mkdirSync(dir);
    writeDataset(dir, data);
    expect(importSnapshot({ dir, out: path.join(root, "snap2.db"), capturedAt: "2026-11-01" }).ok).toBe(true);
    const db2 = openSnapshot(path.join(root, "snap2.db"));
    expect(db2.prepare("SELECT rent_growth_yoy AS g FROM markets WHERE id = 'mkt_city-austin-tx_industrial'").get()).toEqual({ g: null });
    db2.close();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("places: every state, county, city, ZIP code and metro the records are in, counted, with national, county and ZIP markets", () => {
  const root = tempDir("snapshot-places-");
  try {
    const data = dataset();
    // A listing in a city no property or parcel is in still makes the city a place.
    data.listings.push({ ...data.listings[0], id: "lst_2", city: "Round Rock", zip: "78664", parcel_id: null, property_id: null });
    const dir = path.join(root, "in");
    fs.mkdirSync(dir);
    writeDataset(dir, data);
    expect(importSnapshot({ dir, out: path.join(root, "snap.db"), capturedAt: "2026-11-01" }).ok).toBe(true);
    const db = openSnapshot(path.join(root, "snap.db"));
    const places = db
      .prepare(
        "SELECT kind, code, name, local_name, key, state_code, city, county_fips, property_count, record_count FROM places ORDER BY kind, code",
      )
      .all();
    expect(places).toEqual([
      {
        kind: "city",
        code: "city-austin-tx",
        name: "Austin, TX",
        local_name: "Austin",
        key: "austin",
        state_code: "TX",
        city: "Austin",
        county_fips: "48453",
        property_count: 1,
        record_count: 4,
      },
      {
        kind: "city",
        code: "city-round-rock-tx",
        name: "Round Rock, TX",
        local_name: "Round Rock",
        key: "round rock",
        state_code: "TX",
        city: "Round Rock",
        county_fips: null,
        property_count: 0,
        record_count: 1,
      },
      {
        kind: "county",
        code: "48453",
        name: "Travis County, TX",
        local_name: "Travis",
        key: "travis",
        state_code: "TX",
        city: null,
        county_fips: "48453",
        property_count: 1,
        record_count: 2,
      },
      {
        kind: "metro",
        code: "metro-austin-tx",
        name: "Austin, TX metro",
        local_name: "Austin",
        key: "austin",
        state_code: "TX",
        city: null,
        county_fips: null,
        property_count: 1,
        record_count: 2,
      },
      {
        kind: "state",
        code: "TX",
        name: "Texas",
        local_name: "Texas",
        key: "texas",
        state_code: "TX",
        city: null,
        county_fips: null,
        property_count: 1,
        record_count: 5,
      },
      {
        kind: "zip",
        code: "78664",
        name: "78664",
        local_name: "78664",
        key: "78664",
        state_code: "TX",
        city: "Round Rock",
        county_fips: null,
        property_count: 0,
        record_count: 1,
      },
      {
        kind: "zip",
        code: "78701",
        name: "78701",
        local_name: "78701",
        key: "78701",
        state_code: "TX",
        city: "Austin",
        county_fips: "48453",
        property_count: 1,
        record_count: 3,
      },
    ]);
    const markets = db.prepare("SELECT id, geography_type, geography_name FROM markets ORDER BY id").all();
    expect(markets).toEqual([
      { id: "mkt_TX_industrial", geography_type: "state", geography_name: "Texas" },
      { id: "mkt_US_industrial", geography_type: "national", geography_name: "United States" },
      { id: "mkt_city-austin-tx_industrial", geography_type: "city", geography_name: "Austin, TX" },
      { id: "mkt_county-48453_industrial", geography_type: "county", geography_name: "Travis County, TX" },
      { id: "mkt_metro-austin-tx_industrial", geography_type: "metro", geography_name: "Austin, TX metro" },
      { id: "mkt_zip-78701_industrial", geography_type: "zip", geography_name: "78701" },
    ]);
    db.close();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
