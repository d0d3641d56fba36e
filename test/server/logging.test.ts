import crypto from "node:crypto";
import { Writable } from "node:stream";
import { buildApp } from "../../src/server/app";
import { openAccountsDb } from "../../src/server/auth/accounts-db";
import { KeyStore } from "../../src/server/auth/key-store";
import { loggerOptions } from "../../src/server/http/logging";
import { openSnapshot } from "../../src/snapshot/snapshot-file";
import { snapshotPath } from "../helpers/service";

test("keys never reach the log, wherever the client puts them", async () => {
  let log = "";
  const sink = new Writable({
    write(chunk, _enc, done) {
      log += chunk.toString();
      done();
    },
  });
  const accountsDb = openAccountsDb(":memory:");
  const pepper = crypto.randomBytes(32);
  const app = buildApp({ snapshotDb: openSnapshot(snapshotPath()), accountsDb, pepper, logger: loggerOptions("debug", sink) });
  const keys = new KeyStore(accountsDb, pepper);
  const key = keys.createKey(keys.createAccount("log@example.com").id, "log").raw;
  await app.inject({ method: "GET", url: "/v1/commercial/coverage", headers: { authorization: `Bearer ${key}` } });
  await app.inject({ method: "GET", url: `/v1/commercial/coverage?api_key=${key}` });
  await app.inject({ method: "GET", url: `/v1/nowhere/${key}` });
  await app.close();
  expect(log.length).toBeGreaterThan(100); // the log was written
  expect(log).toContain("propi_[redacted]");
  expect(log).not.toContain(key.slice(11));
});
