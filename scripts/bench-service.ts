// npm run bench:service [-- --properties 1000000 --duration 10 --reuse]
//
// Builds (or reuses) a large snapshot, starts the real service as a child process on
// loopback, creates an API key, and drives it with 10 concurrent connections per scenario.
// All scenarios run in one invocation so the figures compare as ratios on this shared machine.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { buildSnapshot } from "../src/snapshot/build";
import { openAccountsDb } from "../src/server/auth/accounts-db";
import { KeyStore } from "../src/server/auth/key-store";
import { loadPepper } from "../src/server/config";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require("autocannon");

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const PROPERTIES = Number(arg("properties", "1000000"));
const DURATION = Number(arg("duration", "10"));
const CONNECTIONS = 10;
const DATA_DIR = arg("data-dir", path.join(os.tmpdir(), `propintel-bench-${PROPERTIES}`));
const PORT = Number(arg("port", "3917"));

function rssMb(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

async function waitForHealth(base: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error("service exited before it was ready");
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("service did not become ready");
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function run(name: string, base: string, paths: string[], headers: Record<string, string>): Promise<Figures> {
  let i = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: DURATION,
        headers,
        requests: [{ method: "GET", setupRequest: (req: any) => ({ ...req, path: paths[i++ % paths.length] }) }],
      },
      (err: Error | null, r: any) => {
        if (err) return reject(err);
        resolve({
          name,
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          errors: r.errors + r.timeouts,
          non2xx: r.non2xx,
        });
      },
    );
  });
}

async function main() {
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const snapshotPath = path.join(DATA_DIR, "snapshot.db");
  let buildSeconds: number | null = null;
  if (!(process.argv.includes("--reuse") && fs.existsSync(snapshotPath))) {
    console.log(`Building a ${PROPERTIES.toLocaleString("en-US")}-property snapshot in ${DATA_DIR} ...`);
    buildSeconds = buildSnapshot({ out: snapshotPath, seed: 1, properties: PROPERTIES }).seconds;
    console.log(`  built in ${buildSeconds.toFixed(1)} s, ${(fs.statSync(snapshotPath).size / 2 ** 20).toFixed(0)} MB`);
  }

  // Sample request parameters from the snapshot itself, so every request hits real data.
  const snap = new Database(snapshotPath, { readonly: true });
  const ids = (snap.prepare("SELECT id FROM properties ORDER BY random() LIMIT 5000").all() as { id: string }[]).map((r) => r.id);
  const states = (snap.prepare("SELECT DISTINCT state_code FROM properties").all() as { state_code: string }[]).map((r) => r.state_code);
  const cities = (snap.prepare("SELECT city FROM properties ORDER BY random() LIMIT 200").all() as { city: string }[]).map((r) => r.city);
  // Distinct name words: a pool large enough that no text query repeats within a run, so
  // the "every query new" scenario measures searches the count cache has never seen.
  const freshWords = (
    snap.prepare("SELECT name, city FROM properties ORDER BY random() LIMIT 20000").all() as { name: string; city: string }[]
  ).map((r) => `${r.city} ${r.name.split(" ")[0]}`);
  snap.close();

  const keys = new KeyStore(openAccountsDb(path.join(DATA_DIR, "accounts.db")), loadPepper(DATA_DIR));
  const account = keys.findAccountByEmail("bench@example.com") ?? keys.createAccount("bench@example.com");
  const key = keys.createKey(account.id, "benchmark").raw;

  const child = spawn(process.execPath, [path.join(__dirname, "../src/server/main.js")], {
    env: { ...process.env, DATA_DIR, PORT: String(PORT), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${PORT}`;
  try {
    await waitForHealth(base, child);
    const auth = { authorization: `Bearer ${key}` };
    const assets = ["industrial", "office", "retail", "multifamily", "flex"];
    const searchPaths = states.flatMap((s, i) => {
      const a = assets[i % assets.length];
      return [`/v1/commercial/assets/${a}/properties?state_code=${s}&min_building_area_sqft=20000&limit=25`];
    });
    const textPaths = cities.map((c, i) => `/v1/commercial/properties?q=${encodeURIComponent(`${c} ${assets[i % assets.length]}`)}&limit=25`);

    // Warm up the page cache the same way for every scenario.
    await run("warm-up", base, ids.map((id) => `/v1/commercial/properties/${id}`), auth);
    const results = [
      await run("trivial route, no auth (GET /healthz)", base, ["/healthz"], {}),
      await run("property detail, authenticated", base, ids.map((id) => `/v1/commercial/properties/${id}`), auth),
      await run("asset search, 2 filters, 25 rows", base, searchPaths, auth),
      await run("cross-asset text search, 25 rows", base, textPaths, auth),
      await run("cross-asset text search, every query new", base, [...new Set(freshWords)].map((q) => `/v1/commercial/properties?q=${encodeURIComponent(q)}&limit=25`), auth),
    ];
    const mem = rssMb(child.pid!);

    console.log(`\nService benchmark: ${PROPERTIES.toLocaleString("en-US")} properties, ${CONNECTIONS} connections, ${DURATION} s per scenario, Node ${process.version}, ${os.cpus().length} cores`);
    console.log("| scenario | req/s | p50 ms | p99 ms | errors | non-2xx |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const r of results) {
      console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
    }
    const ratio = results[1].rps / results[0].rps;
    console.log(`\nproperty detail / trivial throughput: ${(ratio * 100).toFixed(0)}% (target >= 40%)`);
    console.log(`detail p99 ${results[1].p99} ms (target < 10); search p99 ${results[2].p99} ms and text p99 ${results[3].p99} ms (target < 25)`);
    console.log(`service RSS now ${mem.rss.toFixed(0)} MB, peak ${mem.peak.toFixed(0)} MB (target < 600)`);
    if (buildSeconds !== null) console.log(`snapshot build ${buildSeconds.toFixed(1)} s (target < 180)`);
  } finally {
    child.kill("SIGTERM");
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
