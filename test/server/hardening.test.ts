import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { loggerOptions } from "../../src/server/http/logging";
import { logSink } from "../helpers/log-sink";
import { snapshotPath, startService } from "../helpers/service";

async function service(snapshotFile: string, extra: { requestTimeoutMs?: number; snapshotDb?: Database.Database } = {}) {
  const sink = logSink();
  const { app, key } = await startService({ snapshotFile, logger: loggerOptions("info", sink.stream), ...extra });
  return { app, key, log: sink.text };
}

test("a failure inside the service answers a bare 500: no stack, no SQL; the details go to the log", async () => {
  // A table dropped from under the running service (the file passed its checks when the service
  // opened it) makes every parcel query fail inside SQLite.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-broken-"));
  const file = path.join(dir, "snapshot.db");
  fs.copyFileSync(snapshotPath(), file);
  const db = new Database(file);
  const svc = await service(file, { snapshotDb: db });
  db.exec("DROP TABLE parcels");
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
  const svc = await service(snapshotPath(), { requestTimeoutMs: 400 });
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

describe("the router's and Node's own refusals are problems, with a request id, never quoting the URL", () => {
  test("a malformed %-escape and an over-long path segment", async () => {
    const svc = await service(snapshotPath());
    try {
      for (const url of [`/v1/commercial/%zz?k=${svc.key}`, `/v1/commercial/properties/${"x".repeat(150)}${svc.key}`]) {
        const res = await svc.app.inject({ method: "GET", url });
        expect(res.statusCode).toBe(400);
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
        expect(res.json()).toMatchObject({ code: "validation_failed", request_id: res.headers["x-request-id"] });
        expect(res.body).not.toContain(svc.key.slice(6));
        expect(res.body).not.toContain("%zz");
      }
    } finally {
      await svc.app.close();
    }
  });

  test("headers too large (431) and a request that is not HTTP (400), answered by Node's connection handling", async () => {
    const svc = await service(snapshotPath());
    const base = new URL(await svc.app.listen({ port: 0, host: "127.0.0.1" }));
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(base.port), base.hostname, () => socket.write(text));
        let data = "";
        socket.on("data", (d) => (data += d));
        socket.on("close", () => resolve(data));
        socket.on("error", reject);
      });
    try {
      const big = await raw(`GET /healthz?k=${svc.key} HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
      expect(big).toMatch(/^HTTP\/1\.1 431 /);
      expect(big).toMatch(/Content-Type: application\/problem\+json/);
      expect(JSON.parse(big.split("\r\n\r\n")[1])).toMatchObject({
        status: 431,
        code: "headers_too_large",
        request_id: expect.stringMatching(/^req_/),
      });
      expect(big).not.toContain(svc.key.slice(6));
      expect(big).not.toContain("/healthz");
      const garbage = await raw(`this is not http ${svc.key}\r\n\r\n`);
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      expect(garbage).toMatch(/Content-Type: application\/problem\+json/);
      expect(JSON.parse(garbage.split("\r\n\r\n")[1])).toMatchObject({
        status: 400,
        code: "validation_failed",
        request_id: expect.stringMatching(/^req_/),
      });
      expect(garbage).not.toContain(svc.key.slice(6));
    } finally {
      await svc.app.close();
    }
  });

  test("a key with its underscores percent-encoded is redacted in the log too", async () => {
    const svc = await service(snapshotPath());
    try {
      const encoded = svc.key.replace(/_/g, "%5F");
      await svc.app.inject({ method: "GET", url: `/v1/commercial/coverage?k=${encoded}` });
      await svc.app.inject({ method: "GET", url: `/v1/nowhere/${encoded}` });
      expect(svc.log()).toContain("propi_[redacted]");
      expect(svc.log()).not.toContain(svc.key.slice(11).replace(/_/g, "%5F"));
    } finally {
      await svc.app.close();
    }
  });

  test("property detail, compare and the markets batch refuse query parameters they do not take", async () => {
    const svc = await service(snapshotPath());
    const auth = { authorization: `Bearer ${svc.key}` };
    try {
      const detail = await svc.app.inject({ method: "GET", url: "/v1/commercial/properties/cp_1?expand=owner", headers: auth });
      expect(detail.statusCode).toBe(400);
      expect(detail.json().errors[0]).toMatchObject({ parameter: "expand" });
      const compare = await svc.app.inject({
        method: "POST",
        url: "/v1/commercial/properties/compare?fields=name",
        headers: auth,
        payload: { property_ids: ["cp_1", "cp_2"] },
      });
      expect(compare.statusCode).toBe(400);
      expect(compare.json().errors[0]).toMatchObject({ parameter: "fields" });
      const batch = await svc.app.inject({
        method: "POST",
        url: "/v1/commercial/markets/batch?asset_type=office",
        headers: auth,
        payload: { markets: [{ geography: "TX", asset_type: "office" }] },
      });
      expect(batch.statusCode).toBe(400);
      expect(batch.json().errors[0]).toMatchObject({ parameter: "asset_type" });
      for (const res of [detail, compare, batch]) expect(res.headers["x-credits-charged"]).toBe("0");
    } finally {
      await svc.app.close();
    }
  });
});
