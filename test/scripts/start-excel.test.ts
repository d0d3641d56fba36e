// npm run start:excel: what it serves and sideloads on each platform, and its refusals.
import { spawnSync } from "node:child_process";
import path from "node:path";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script, run by Node as it is
const { startPlan, DEFAULT_PORT } = require("../../scripts/start-excel.js") as {
  startPlan: (input: { platform: string; env: Record<string, string | undefined>; certificate: { cert: string; key: string } }) => {
    refusal?: string;
    port?: number;
    origin?: string;
    env?: Record<string, string>;
    sideload?: string[];
  };
  DEFAULT_PORT: number;
};

const certificate = { cert: "/home/a/.office-addin-dev-certs/localhost.crt", key: "/home/a/.office-addin-dev-certs/localhost.key" };

test.each(["win32", "darwin"])("on %s: serves HTTPS on localhost with the development certificate and sideloads that build", (platform) => {
  const plan = startPlan({ platform, env: { PATH: "/bin" }, certificate });
  expect(plan.refusal).toBeUndefined();
  expect(plan.origin).toBe(`https://localhost:${DEFAULT_PORT}`);
  expect(plan.env).toMatchObject({
    PATH: "/bin",
    PORT: String(DEFAULT_PORT),
    ADDIN_ORIGIN: `https://localhost:${DEFAULT_PORT}`,
    TLS_CERT: certificate.cert,
    TLS_KEY: certificate.key,
  });
  expect(plan.sideload).toEqual([
    "dist/addin/manifest.xml",
    "desktop",
    "--app",
    "excel",
    "--no-debug",
    "--dev-server",
    "node dist/node/src/server/main.js",
    "--dev-server-port",
    String(DEFAULT_PORT),
  ]);
});

test("PORT moves the service and the origin together", () => {
  const plan = startPlan({ platform: "win32", env: { PORT: "4443" }, certificate });
  expect(plan.origin).toBe("https://localhost:4443");
  expect(plan.sideload!.slice(-1)).toEqual(["4443"]);
});

test("refuses what it cannot serve, saying why", () => {
  expect(startPlan({ platform: "win32", env: { PORT: "http" }, certificate }).refusal).toBe('PORT must be a port number, got "http".');
  expect(startPlan({ platform: "darwin", env: { ADDIN_ORIGIN: "https://prop.example.com" }, certificate }).refusal).toMatch(
    /ADDIN_ORIGIN is https:\/\/prop.example.com, but start:excel serves https:\/\/localhost:3443/,
  );
  expect(startPlan({ platform: "linux", env: {}, certificate }).refusal).toMatch(/Excel desktop runs on Windows and Mac only/);
});

test("on Linux the command itself stops at once with that message, touching nothing", () => {
  if (process.platform === "win32" || process.platform === "darwin") return;
  const run = spawnSync(process.execPath, [path.resolve(__dirname, "../../scripts/start-excel.js")], { encoding: "utf8" });
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/^start:excel: Excel desktop runs on Windows and Mac only/);
  expect(run.stdout).toBe("");
});
