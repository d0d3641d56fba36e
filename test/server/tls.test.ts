import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../src/server/config";
import { startService } from "../helpers/service";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-tls-"));
  // A throwaway self-signed localhost certificate, like the one office-addin-dev-certs makes.
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-keyout",
      path.join(dir, "localhost.key"),
      "-out",
      path.join(dir, "localhost.crt"),
    ],
    { stdio: "ignore" },
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test("TLS_CERT and TLS_KEY make the service speak HTTPS, with Secure cookies", async () => {
  const config = loadConfig({ TLS_CERT: path.join(dir, "localhost.crt"), TLS_KEY: path.join(dir, "localhost.key"), DATA_DIR: dir });
  expect(config.secureCookies).toBe(true);
  const { app } = await startService({ tls: config.tls, secureCookies: config.secureCookies, email: null });
  const base = new URL(await app.listen({ port: 0, host: "127.0.0.1" }));
  try {
    expect(base.protocol).toBe("https:");
    const ca = fs.readFileSync(path.join(dir, "localhost.crt"));
    const get = (urlPath: string) =>
      new Promise<{ body: string; cookies: string[] }>((resolve, reject) => {
        https
          .get({ host: "127.0.0.1", servername: "localhost", port: base.port, path: urlPath, ca }, (res) => {
            let data = "";
            res.on("data", (d) => (data += d));
            res.on("end", () => resolve({ body: data, cookies: res.headers["set-cookie"] ?? [] }));
          })
          .on("error", reject);
      });
    expect(JSON.parse((await get("/healthz")).body)).toEqual({ status: "ok" });
    // The sign-up page sets its pre-session cookie over HTTPS, marked Secure.
    const { cookies } = await get("/account/signup");
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toMatch(/; Secure(;|$)/);
  } finally {
    await app.close();
  }
});

test("TLS settings that cannot work are refused at start with the reason", () => {
  expect(() => loadConfig({ TLS_CERT: path.join(dir, "localhost.crt") })).toThrow(/both TLS_CERT and TLS_KEY/);
  expect(() => loadConfig({ TLS_CERT: path.join(dir, "missing.crt"), TLS_KEY: path.join(dir, "localhost.key") })).toThrow(
    /TLS_CERT: cannot read .*ENOENT/,
  );
  expect(loadConfig({}).tls).toBeUndefined();
  expect(loadConfig({}).secureCookies).toBe(false);
  expect(loadConfig({ SECURE_COOKIES: "1" }).secureCookies).toBe(true);
});
