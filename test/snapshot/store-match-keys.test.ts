// The match index of a store of snapshots (src/snapshot/match-keys.ts): one index over every
// version's properties, kept up to date at each publish, from which each version matches only
// what it holds; and a store made before the index is given it at start.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { contextOf } from "../../src/server/data/snapshot-context";
import { matchRows } from "../../src/server/data/property-match";
import { MATCH_KEYS_TABLE } from "../../src/snapshot/match-keys";
import { ensureStore } from "../../src/snapshot/store/ensure-store";
import { openStoreVersion } from "../../src/snapshot/store/store-open";
import { publishToStore } from "../../src/snapshot/store/store-publish";
import { monthFiles } from "../helpers/month-files";
import { tempDir } from "./files";

interface Row {
  id: string;
  address: string;
  city: string;
  state_code: string;
  zip: string;
}

let dir: string;
let files: string[];
let ids: string[];
let moved: Row;
const NEW_STREET = "4417 Quillfeather Row";

beforeAll(() => {
  dir = tempDir("store-match-keys-");
  ({ files, ids } = monthFiles(dir, { seed: 43, properties: 300, months: 2 }));
  // The second month renumbers one property's address (an assessor's correction): the first
  // month holds it at its old address, the second at the new one.
  const db = new Database(files[1]);
  moved = db.prepare("SELECT id, address, city, state_code, zip FROM properties ORDER BY id LIMIT 1").get() as Row;
  db.prepare("UPDATE properties SET address = ? WHERE id = ?").run(NEW_STREET, moved.id);
  db.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What version `id` of the store answers for the property's old and new addresses. */
function matchedIn(store: string, id: string): (string | null)[] {
  const context = contextOf(openStoreVersion(store, id));
  try {
    return matchRows(context, [
      { address: moved.address, city: moved.city, state: moved.state_code },
      { address: NEW_STREET, zip: moved.zip },
    ]).map((r) => r.property_id);
  } finally {
    context.close();
  }
}

test("each version matches its own addresses: the old one in the month that held it, the new one after", () => {
  const store = path.join(dir, "store.db");
  for (const file of files) publishToStore(store, file);
  expect(matchedIn(store, ids[0])).toEqual([moved.id, null]);
  expect(matchedIn(store, ids[1])).toEqual([null, moved.id]);
});

test("a key naming a property the version does not hold finds nothing, and the rest of the row's candidates still match", () => {
  const store = path.join(dir, "stray.db");
  for (const file of files) publishToStore(store, file);
  const db = new Database(store);
  const keys = db.prepare(`SELECT key FROM ${MATCH_KEYS_TABLE} WHERE property_id = ?`).pluck().all(moved.id) as string[];
  const insert = db.prepare(`INSERT INTO ${MATCH_KEYS_TABLE} (key, property_id) VALUES (?, 'cp_nowhere')`);
  for (const key of keys) insert.run(key);
  db.close();
  expect(matchedIn(store, ids[0])).toEqual([moved.id, null]);
  expect(matchedIn(store, ids[1])).toEqual([null, moved.id]);
});

test("a store made before the match index is given one over every version when the service starts", () => {
  const store = path.join(dir, "older.db");
  for (const file of files) publishToStore(store, file);
  const db = new Database(store);
  db.exec(`DROP TABLE ${MATCH_KEYS_TABLE}`);
  db.close();
  const log: string[] = [];
  ensureStore(store, files[1], (m) => log.push(m));
  expect(log.join("\n")).toMatch(/Made the store's match index over every version \(\d+ keys/);
  expect(matchedIn(store, ids[0])).toEqual([moved.id, null]);
  expect(matchedIn(store, ids[1])).toEqual([null, moved.id]);
  // Once made, a start leaves it as it is.
  const again: string[] = [];
  ensureStore(store, files[1], (m) => again.push(m));
  expect(again.join("\n")).not.toMatch(/match index/);
});
