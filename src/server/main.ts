// Entry point of the service: makes the store of snapshots on first run, opens the stores and
// listens. Everything else is in buildApp, which tests use without a socket. With WORKERS=N
// (and DATABASE_URL), this process becomes a supervisor that runs N service processes sharing
// one port (node:cluster). Each process serves the snapshots of the store at SNAPSHOT_STORE: its
// latest, and the older ones still within SNAPSHOTS_RETAIN_MONTHS. SIGHUP makes every process
// serve what the store holds now, without dropping a request; `npm run admin -- rollout-snapshot`
// publishes a file into the store and sends it, finding the service (or its supervisor) by
// DATA_DIR/service.pid (docs/deployment.md).
import cluster from "node:cluster";
import fs from "node:fs";
import { buildApp } from "./app";
import { type Config, loadConfig, loadPepper } from "./config";
import { startWalCheckpoints } from "./db/wal-checkpoints";
import { NODE_ID } from "./data/node-id";
import { loggerOptions } from "./http/logging";
import { openStores } from "./open-stores";
import { removePidFile, writePidFile } from "./service-pid";
import { ensureStore } from "../snapshot/store/ensure-store";
import { takePublishLock } from "./publish-lock";

/** How long a start waits for a publish to the store to finish. */
const START_LOCK_WAIT_MS = 30 * 60_000;

/** A worker that dies this soon after its start is not restarted (it would only die again). */
const CRASH_LOOP_MS = 5_000;

async function main() {
  const config = loadConfig();
  if (cluster.isPrimary) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    // Holding the publish lock, so a rollout run meanwhile waits for the store to exist.
    // A start during a publish waits for it (a month at 1M properties takes minutes).
    const lock = await takePublishLock(
      config.snapshotStore,
      () => console.log(`Waiting for a publish to ${config.snapshotStore} to finish...`),
      START_LOCK_WAIT_MS,
    );
    try {
      ensureStore(config.snapshotStore, config.snapshotPath, (m) => console.log(m));
    } finally {
      lock.release();
    }
    loadPepper(config.dataDir); // made once here, so the workers all read the same one
    if (config.workers > 1) return supervise(config);
  }
  const base = await serve(config);
  if (cluster.isPrimary) console.log(banner(config, base));
  else process.send?.({ listening: base });
}

/** One service process: the app over the snapshot and the configured store, listening. */
async function serve(config: Config): Promise<string> {
  const pepper = loadPepper(config.dataDir);
  const logger = loggerOptions(config.logLevel);
  // Writes the store retries later (a dropped connection, a give-back of credits): said on stderr.
  const opened = await openStores(config, pepper, (err) => console.error(`store: ${err instanceof Error ? err.message : String(err)}`));
  const app = buildApp({
    snapshotStore: config.snapshotStore,
    snapshotsRetainMonths: config.snapshotsRetainMonths,
    stores: opened.stores,
    pepper,
    addinDir: config.addinDir,
    docsDir: config.docsDir,
    corsOrigins: config.corsOrigins,
    tls: config.tls,
    secureCookies: config.secureCookies,
    trustProxy: config.trustProxy,
    logger,
  });
  const checkpoints =
    opened.sqliteDb &&
    startWalCheckpoints(opened.sqliteDb, {
      onError: (err) => app.log.error({ err }, "WAL checkpoints fell back to SQLite's automatic ones"),
    });
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    if (cluster.isPrimary) removePidFile(config.dataDir);
    await app.close(); // answers what is in flight, then writes the ledger's last charges
    await checkpoints?.stop();
    await opened.stores.close(); // the last charges, then the database
    process.exit(0);
  };
  process.on("SIGINT", close);
  process.on("SIGTERM", close);
  // Serves what is on disk now, as at start-up; logs its outcome (switched, unchanged or refused) and never rejects.
  process.on("SIGHUP", () => void app.liveSnapshot.refresh());
  await app.listen({ port: config.port, host: config.host });
  if (cluster.isPrimary) writePidFile(config.dataDir); // a supervisor writes its own
  app.log.info({ node: NODE_ID, pid: process.pid }, "listening"); // the id coverage's serving.node names
  const scheme = config.tls ? "https" : "http";
  const host = config.host === "0.0.0.0" || (config.tls && config.host === "127.0.0.1") ? "localhost" : config.host;
  const address = app.server.address();
  const port = address && typeof address === "object" ? address.port : config.port; // PORT=0 picks a free one
  return `${scheme}://${host}:${port}`;
}

/**
 * WORKERS=N: runs N service processes on one port (the primary accepts connections and hands
 * them round-robin to the workers), restarts one that dies, passes SIGHUP on to every worker,
 * and on SIGINT or SIGTERM lets each finish what it is answering before it exits.
 */
function supervise(config: Config): void {
  const startedAt = new Map<number, number>();
  let stopping = false;
  let announced = false;
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    worker.on("message", (m: { listening?: string }) => {
      if (m?.listening && !announced) {
        announced = true;
        console.log(banner(config, m.listening));
      }
    });
  };
  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`service process ${worker.process.pid} exited (${signal ?? `code ${code}`})`);
    if (lived < CRASH_LOOP_MS) {
      console.error(`it ran for ${lived} ms: not restarting it; fix the cause and start again`);
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    fork();
  });
  const stop = () => {
    stopping = true;
    removePidFile(config.dataDir);
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGTERM");
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.on("SIGHUP", () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGHUP");
  });
  for (let i = 0; i < config.workers; i++) fork();
  writePidFile(config.dataDir); // the rollout command signals this process, which passes it on
}

function banner(config: Config, base: string): string {
  return [
    "",
    `Property Intelligence service is running at ${base}`,
    `  API:            ${base}/v1/...  (Authorization: Bearer <key>)`,
    `  OpenAPI:        ${base}/v1/openapi.json`,
    `  Add-in files:   ${base}/addin/taskpane.html  (manifest: ${base}/addin/manifest.xml)`,
    `  Data directory: ${config.dataDir}`,
    `  Snapshots:      ${config.snapshotStore}  (npm run admin -- rollout-snapshot --file <snapshot> publishes one into it)`,
    `  Kept:           ${config.snapshotsRetainMonths} months after capture (SNAPSHOTS_RETAIN_MONTHS)`,
    `  Accounts:       ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : config.accountsPath}`,
    ...(config.workers > 1 ? [`  Processes:      ${config.workers} (WORKERS)`] : []),
    `  Account area:   ${base}/account/signup  (sign up, create API keys, see usage)`,
    `Or create an API key from the command line:  npm run admin -- create-key --email you@example.com --name "My model"`,
    "",
  ].join("\n");
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
