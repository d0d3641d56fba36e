import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { buildApp } from "../../src/server/app";
import { openAccountsDb } from "../../src/server/auth/accounts-db";
import { KeyStore } from "../../src/server/auth/key-store";
import { loggerOptions } from "../../src/server/http/logging";
import { openSnapshot } from "../../src/snapshot/snapshot-file";
import { logSink } from "../helpers/log-sink";
import { snapshotPath } from "../helpers/service";

function service(snapshotFile: string, extra: { requestTimeoutMs?: number } = {}) {
  const sink = logSink();
  const accountsDb = openAccountsDb(":memory:");
  const pepper = crypto.randomBytes(32);
  const app = buildApp({ snapshotDb: openSnapshot(snapshotFile), accountsDb, pepper, logger: loggerOptions("info", sink.stream), ...extra });
  const keys = new KeyStore(accountsDb, pepper);
  const key = keys.createKey(keys.createAccount("hard@example.com").id, "k").raw;
  return { app, key, log: sink.text };
}

test("a failure inside the service answers a bare 500: no stack, no SQL; the details go to the log", async () => {
  // A snapshot with a table missing makes every parcel query fail inside SQLite.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-broken-"));
  const file = path.join(dir, "snapshot.db");
  fs.copyFileSync(snapshotPath(), file);
  const db = new Database(file);
  db.exec("DROP TABLE parcels");
  db.close();
  const svc = service(file);
  try {
    const res = await svc.app.inject({ method: "GET", url: "/v1/parcels?state_code=TX", headers: { authorization: `Bearer ${svc.key}` } });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toMatchObject({ code: "internal", status: 500 });
    expect(res.body).not.toMatch(/parcels|SQLITE|SELECT|no such table|at .*\.js|\.ts:/i);
    expect(res.headers["x-credits-charged"]).toBe("0");
    expect(svc.log()).toMatch(/no such table: parcels/); // for the operator
  } finally {
    await svc.app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a client that sends its request too slowly is cut off", async () => {
  const svc = service(snapshotPath(), { requestTimeoutMs: 400 });
  const base = new URL(await svc.app.listen({ port: 0, host: "127.0.0.1" }));
  try {
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(base.port), base.hostname, () => socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n"));
      let data = "";
      socket.on("data", (d) => (data += d));
      socket.on("close", () => resolve(data));
      socket.on("error", reject);
      setTimeout(() => reject(new Error("the server kept the connection open")), 5000).unref();
    });
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    expect(Date.now() - started).toBeLessThan(3000);
  } finally {
    await svc.app.close();
  }
});
