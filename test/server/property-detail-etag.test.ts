// Property detail answers from documents stored in the snapshot, with an ETag of the document's
// content: a new snapshot that left a property as it was leaves its validator as it was.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { openSnapshot } from "../../src/snapshot/snapshot-file";
import { SnapshotContext } from "../../src/server/data/snapshot-context";
import { etagOf } from "../../src/server/http/etag";
import { pick, startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

test("the detail ETag is a hash of the document; If-None-Match on it is a free 304", async () => {
  const [a, b] = [
    pick<{ id: string }>(svc, "SELECT id FROM properties ORDER BY id LIMIT 1").id,
    pick<{ id: string }>(svc, "SELECT id FROM properties ORDER BY id DESC LIMIT 1").id,
  ];
  const first = await svc.get(`/v1/commercial/properties/${a}`);
  expect(first.statusCode).toBe(200);
  const etag = first.headers.etag as string;
  expect(etag).toBe(etagOf(first.body));
  expect(first.headers["x-credits-charged"]).toBe("1");
  const again = await svc.get(`/v1/commercial/properties/${a}`, { "if-none-match": etag });
  expect(again.statusCode).toBe(304);
  expect(again.body).toBe("");
  expect(again.headers["x-credits-charged"]).toBe("0");
  // Another property's answer never matches it.
  const other = await svc.get(`/v1/commercial/properties/${b}`, { "if-none-match": etag });
  expect(other.statusCode).toBe(200);
  expect(other.headers.etag).not.toBe(etag);
});

test("two builds of the same data give the same documents and the same ETags, so a rebuild re-bills nothing", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-etag-"));
  try {
    const files = ["one.db", "two.db"].map((f) => path.join(dir, f));
    for (const out of files) buildSnapshot({ out, seed: 5, properties: 100 });
    const [one, two] = files.map((f) => new SnapshotContext(openSnapshot(f)));
    const id = one.value<string>("SELECT id FROM properties ORDER BY id LIMIT 1")!;
    const doc = "SELECT json FROM property_docs WHERE id = ?";
    expect(one.ref.id).toBe(two.ref.id);
    expect(one.value(doc, [id])).toBe(two.value(doc, [id]));
    expect(etagOf(one.propertyDoc(id)!)).toBe(etagOf(two.propertyDoc(id)!));
    one.db.close();
    two.db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
