// npx tsx scripts/comp-recency.ts [--snapshot FILE] [--subjects N] [--subjects-out FILE]
//
// How stale the starter model's comps are: over subjects with at least 10 sales of their kind
// (data/comp-kin.ts) within 25 miles in the 36 months before the capture date, the share of the
// comps the model asks for (src/contract/model-comps.ts: 10, one per property, recent first)
// that sold more than 60 months before the capture. Printed beside the same search without
// prefer_sold_within_months (the ranking alone). --subjects takes up to N subjects per asset
// type (default 4); --subjects-out writes their ids. Without --snapshot, the default snapshot
// (data/snapshot.db, built by `npm start` on first run). test/server/comp-recency.test.ts
// holds the test snapshot to the same measure.
import crypto from "node:crypto";
import fs from "node:fs";
import { parseArgs } from "node:util";
import type Database from "better-sqlite3";
import { MODEL_COMPS, RECENT_MONTHS } from "../src/contract/model-comps";
import { buildApp } from "../src/server/app";
import { compKinds } from "../src/server/data/comp-kin";
import { haversineMiles } from "../src/server/data/stats";
import { openSqliteStores } from "../src/server/stores/sqlite";
import { openSnapshot } from "../src/snapshot/snapshot-file";

/** Radius and window of "a subject with recent sales around it": the model's default radius, three years. */
export const RADIUS_MILES = 25;
export const MIN_RECENT_SALES = 10;
/** A comp older than this many months counts as stale. */
export const STALE_MONTHS = 60;

interface Subject {
  id: string;
  asset_type: string;
  subtype: string | null;
  latitude: number;
  longitude: number;
}

/**
 * Up to `perType` subjects of each asset type with at least MIN_RECENT_SALES sales of their kind
 * (other properties') within RADIUS_MILES in the RECENT_MONTHS months before the capture date.
 */
export function recencySubjects(db: Database.Database, perType: number): Subject[] {
  const capture = captureDayOf(db);
  const since = db.prepare(`SELECT date(?, 'start of month', '-${RECENT_MONTHS} months')`).pluck().get(capture) as string;
  const sales = db
    .prepare("SELECT property_id, asset_type, subtype, latitude, longitude FROM sales WHERE sale_date >= ? AND sale_date <= ?")
    .all(since, capture) as Array<{ property_id: string; asset_type: string; subtype: string | null; latitude: number; longitude: number }>;
  const properties = db
    .prepare("SELECT id, asset_type, subtype, latitude, longitude FROM properties ORDER BY substr(id, -3), id")
    .all() as Subject[];
  const chosen: Subject[] = [];
  const perTypeCount = new Map<string, number>();
  for (const p of properties) {
    if ((perTypeCount.get(p.asset_type) ?? 0) >= perType) continue;
    const kinds = compKinds(p.asset_type, p.subtype);
    const ofKind = (s: (typeof sales)[number]) =>
      kinds ? kinds.some((k) => k.asset_type === s.asset_type && k.subtype === s.subtype) : s.asset_type === p.asset_type;
    let near = 0;
    for (const s of sales) {
      if (s.property_id === p.id || !ofKind(s)) continue;
      if (haversineMiles(p.latitude, p.longitude, s.latitude, s.longitude) <= RADIUS_MILES) near++;
      if (near >= MIN_RECENT_SALES) break;
    }
    if (near < MIN_RECENT_SALES) continue;
    chosen.push(p);
    perTypeCount.set(p.asset_type, (perTypeCount.get(p.asset_type) ?? 0) + 1);
  }
  return chosen;
}

export interface StaleShare {
  subjects: number;
  types: number;
  comps: number;
  stale: number;
}

type Get = (url: string) => Promise<{ statusCode: number; json(): unknown }>;

/** The capture date of a snapshot, YYYY-MM-DD. */
export function captureDayOf(db: Database.Database): string {
  return String(db.prepare("SELECT value FROM snapshot_meta WHERE key = 'captured_at'").pluck().get()).slice(0, 10);
}

/** Whole calendar months from a sale's month to the capture's month, read from the sale date (whatever the service answers beside it). */
const monthsBefore = (captureDay: string, saleDate: string) =>
  Number(captureDay.slice(0, 4)) * 12 + Number(captureDay.slice(5, 7)) - (Number(saleDate.slice(0, 4)) * 12 + Number(saleDate.slice(5, 7)));

/** The model's comps of each subject (with or without its recent-first preference), and how many are stale. */
export async function staleShare(get: Get, captureDay: string, subjects: Subject[], preferRecent: boolean): Promise<StaleShare> {
  const prefer = preferRecent ? `&prefer_sold_within_months=${RECENT_MONTHS}` : "";
  let comps = 0;
  let stale = 0;
  for (const s of subjects) {
    const res = await get(`/v1/commercial/sale-comps?property_id=${s.id}&limit=${MODEL_COMPS}&per_property=latest${prefer}`);
    if (res.statusCode !== 200) throw new Error(`sale-comps of ${s.id}: ${res.statusCode} ${JSON.stringify(res.json())}`);
    const data = (res.json() as { data: Array<{ sale_date: string }> }).data;
    comps += data.length;
    stale += data.filter((c) => monthsBefore(captureDay, c.sale_date) > STALE_MONTHS).length;
  }
  return { subjects: subjects.length, types: new Set(subjects.map((s) => s.asset_type)).size, comps, stale };
}

async function main() {
  const { values } = parseArgs({
    options: { snapshot: { type: "string" }, subjects: { type: "string" }, "subjects-out": { type: "string" } },
  });
  const perType = Number(values.subjects ?? 4);
  const db = openSnapshot(values.snapshot ?? "data/snapshot.db");
  const pepper = crypto.randomBytes(32);
  const stores = openSqliteStores(":memory:", pepper);
  const app = buildApp({ snapshotDb: db, stores, pepper });
  const key = stores.keys.createKey(stores.accounts.create("recency@bench.example", "unlimited").id, "recency").raw;
  const get: Get = (url) => app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key}` } });
  try {
    const subjects = recencySubjects(db, perType);
    if (values["subjects-out"]) fs.writeFileSync(values["subjects-out"], JSON.stringify(subjects.map((s) => s.id)));
    for (const prefer of [false, true]) {
      const r = await staleShare(get, captureDayOf(db), subjects, prefer);
      const share = r.comps ? ((100 * r.stale) / r.comps).toFixed(1) : "-";
      console.log(
        `${prefer ? `prefer_sold_within_months=${RECENT_MONTHS}` : "ranking alone"}: ${r.stale} of ${r.comps} comps (${share}%) ` +
          `sold more than ${STALE_MONTHS} months before the capture, over ${r.subjects} subjects of ${r.types} asset types`,
      );
    }
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
