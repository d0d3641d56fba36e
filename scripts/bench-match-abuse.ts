// npm run bench:match-abuse [-- --properties 20000 --seconds 15 --data-dir DIR --port 3931]
//
// Free match work as a lever against other accounts: starts the real service (a child process
// on 127.0.0.1, pinned to the first core; this script drives it from the second), then measures
// one account's paid property detail (GET /v1/commercial/properties/{id}, one request at a time)
// alone, and again while ten keys of ONE Explorer account send thousand-row match requests whose
// rows match nothing (free) as fast as the rate limit allows (the keys pace themselves by the
// RateLimit field they are answered with, and wait Retry-After on a 429).
// Prints the detail's p50/p99 in both phases and the ratios, from this one run, and what the
// abusing keys got. Every loop is bounded by --seconds; the script stops the service and exits.
//
// The measured account is on the operators' plan (its own rate limit does not pace it); the
// abusing one on Explorer, what sign-up gives.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { MATCH_MAX_ROWS } from "../src/contract/property-match";
import { loadPepper } from "../src/server/config";
import { openSqliteStores } from "../src/server/stores/sqlite";
import { buildSnapshot } from "../src/snapshot/build";
import { waitForHealth } from "./bench-scale";

const USAGE = "usage: npm run bench:match-abuse [-- --properties N] [--seconds N] [--data-dir DIR] [--port N]";

function options() {
  try {
    const { values } = parseArgs({
      options: {
        properties: { type: "string", default: "20000" },
        seconds: { type: "string", default: "15" },
        "data-dir": { type: "string" },
        port: { type: "string", default: "3931" },
      },
    });
    for (const name of ["properties", "seconds", "port"] as const) {
      if (!/^[1-9]\d*$/.test(values[name])) throw new Error(`--${name} must be a positive integer, got '${values[name]}'`);
    }
    return values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(1);
  }
}

const OPTIONS = options();
const PROPERTIES = Number(OPTIONS.properties);
const SECONDS = Number(OPTIONS.seconds);
const PORT = Number(OPTIONS.port);
const DATA_DIR = OPTIONS["data-dir"] ?? path.join(os.tmpdir(), `propintel-bench-abuse-${PROPERTIES}`);
const BASE = `http://127.0.0.1:${PORT}`;
const ABUSING_KEYS = 10;
/** Warm-up before each measured phase, and the abusers' head start. */
const WARM_MS = 2000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The measured account: one detail at a time, for `ms`; latencies in ms. */
async function details(auth: Record<string, string>, ids: string[], ms: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + ms;
  for (let i = 0; performance.now() < end; i++) {
    const t0 = performance.now();
    const res = await fetch(`${BASE}/v1/commercial/properties/${ids[i % ids.length]}`, { headers: auth });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`detail answered ${res.status}`);
    out.push(performance.now() - t0);
  }
  return out.sort((a, b) => a - b);
}

interface Abuse {
  answered: number;
  limited: number;
  rows: number;
}

/** What the abusing keys know of their account's bucket, from the RateLimit field of the last answer. */
interface Bucket {
  /** Calls left, and when that was read. */
  left: number;
  at: number;
}

/**
 * One abusing key: thousand-row free match requests until `stop()`, as fast as the account's
 * rate limit allows: the keys share what the last answer's RateLimit field said is left, each
 * waits until the bucket should hold a request's weight, and waits Retry-After when refused.
 * (Keys that ignored the field would mostly be refused, and would do less work.)
 */
async function abuse(key: string, bodies: string[], stop: () => boolean, tally: Abuse, bucket: Bucket) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const weight = MATCH_MAX_ROWS / 100;
  const waitUntil = async (ms: number) => {
    for (const until = Date.now() + ms; Date.now() < until && !stop();) await sleep(20);
  };
  for (let i = 0; !stop(); i++) {
    const expected = bucket.left + ((Date.now() - bucket.at) / 1000) * 10;
    if (expected < weight) {
      await waitUntil(((weight - expected) / 10) * 1000 + Math.random() * 50);
      continue;
    }
    bucket.left = expected - weight;
    bucket.at = Date.now();
    const res = await fetch(`${BASE}/v1/commercial/properties/match`, { method: "POST", headers, body: bodies[i % bodies.length] });
    await res.arrayBuffer();
    const left = /r=(\d+)/.exec(res.headers.get("ratelimit") ?? "");
    if (left) Object.assign(bucket, { left: Number(left[1]), at: Date.now() });
    if (res.status === 200) {
      tally.answered++;
      tally.rows += MATCH_MAX_ROWS;
      if (res.headers.get("x-credits-charged") !== "0") throw new Error("an abusing request was charged: its rows matched something");
    } else if (res.status === 429) {
      tally.limited++;
      await waitUntil(Number(res.headers.get("retry-after") ?? "1") * 1000);
    } else throw new Error(`match answered ${res.status}`);
  }
}

async function main() {
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const snapshotPath = path.join(DATA_DIR, "snapshot.db");
  if (!fs.existsSync(snapshotPath)) {
    console.log(`building a ${PROPERTIES.toLocaleString("en-US")}-property snapshot ...`);
    buildSnapshot({ out: snapshotPath, seed: 1, properties: PROPERTIES });
  }
  const snap = new Database(snapshotPath, { readonly: true });
  const ids = snap.prepare("SELECT id FROM properties ORDER BY random() LIMIT 500").pluck().all() as string[];
  // Real street names in real ZIP codes at house numbers no property has: read, looked up, unmatched.
  const streets = snap.prepare("SELECT address, zip FROM properties ORDER BY random() LIMIT ?").all(4 * MATCH_MAX_ROWS) as {
    address: string;
    zip: string;
  }[];
  snap.close();
  const bodies = [0, 1, 2, 3].map((b) =>
    JSON.stringify({
      addresses: streets.slice(b * MATCH_MAX_ROWS, (b + 1) * MATCH_MAX_ROWS).map((s, i) => ({
        ref: String(i),
        address: `${97000 + i} ${s.address.replace(/^\d+\s+/, "")}`,
        zip: s.zip,
      })),
    }),
  );

  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(path.join(DATA_DIR, `accounts.db${suffix}`), { force: true });
  const stores = openSqliteStores(path.join(DATA_DIR, "accounts.db"), loadPepper(DATA_DIR));
  const measured = stores.accounts.create("measured@example.com", "unlimited");
  const measuredKey = stores.keys.createKey(measured.id, "detail").raw;
  const abuser = stores.accounts.create("abuser@example.com");
  const abuserKeys = Array.from({ length: ABUSING_KEYS }, (_, i) => stores.keys.createKey(abuser.id, `key ${i}`).raw);
  stores.close();

  const child = spawn("taskset", ["-c", "0", process.execPath, path.join(__dirname, "../src/server/main.js")], {
    env: { ...process.env, DATA_DIR, SNAPSHOT_PATH: snapshotPath, PORT: String(PORT), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitForHealth(BASE, child);
    const auth = { authorization: `Bearer ${measuredKey}` };
    await details(auth, ids, WARM_MS);
    const baseline = await details(auth, ids, SECONDS * 1000);

    let stopped = false;
    const tally: Abuse = { answered: 0, limited: 0, rows: 0 };
    const bucket: Bucket = { left: 60, at: Date.now() };
    const abusers = abuserKeys.map((k) => abuse(k, bodies, () => stopped, tally, bucket));
    await sleep(WARM_MS);
    const started = { ...tally };
    const underAbuse = await details(auth, ids, SECONDS * 1000);
    const during = { answered: tally.answered - started.answered, limited: tally.limited - started.limited };
    stopped = true;
    await Promise.all(abusers);

    const f = (n: number) => n.toFixed(2);
    const [b50, b99, a50, a99] = [
      percentile(baseline, 50),
      percentile(baseline, 99),
      percentile(underAbuse, 50),
      percentile(underAbuse, 99),
    ];
    console.log(`\npaid detail (another account), one at a time, ${SECONDS} s a phase, ${PROPERTIES.toLocaleString("en-US")} properties`);
    console.log(`  baseline:      p50 ${f(b50)} ms  p99 ${f(b99)} ms  (${baseline.length} calls)`);
    console.log(`  under abuse:   p50 ${f(a50)} ms  p99 ${f(a99)} ms  (${underAbuse.length} calls)`);
    console.log(`  ratio:         p50 ${f(a50 / b50)}x  p99 ${f(a99 / b99)}x  (target: p99 at most 2x)`);
    console.log(
      `abuse: ${ABUSING_KEYS} keys of one Explorer account, ${MATCH_MAX_ROWS}-row free requests: ` +
        `${during.answered} answered (${(during.answered / SECONDS).toFixed(2)}/s) and ${during.limited} refused 429 while measured`,
    );
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
