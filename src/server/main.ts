// Entry point of the service: builds the default snapshot on first run, opens the databases
// and listens. Everything else is in buildApp, which tests use without a socket. SIGHUP makes
// the service switch to the snapshot file now at SNAPSHOT_PATH, if it passes its checks, without
// dropping a request; `npm run admin -- rollout-snapshot` publishes a file there and sends it,
// finding the service by DATA_DIR/service.pid (docs/deployment.md).
import fs from "node:fs";
import { buildApp } from "./app";
import { openAccountsDb } from "./db/accounts-db";
import { startWalCheckpoints } from "./db/wal-checkpoints";
import { loadConfig, loadPepper } from "./config";
import { loggerOptions } from "./http/logging";
import { removePidFile, writePidFile } from "./service-pid";
import { openSnapshot } from "../snapshot/snapshot-file";
import { ensureSnapshot } from "../snapshot/ensure-snapshot";

async function main() {
  const config = loadConfig();
  fs.mkdirSync(config.dataDir, { recursive: true });
  ensureSnapshot(config.snapshotPath, (m) => console.log(m));
  const accountsDb = openAccountsDb(config.accountsPath);
  const app = buildApp({
    snapshotDb: openSnapshot(config.snapshotPath),
    accountsDb,
    pepper: loadPepper(config.dataDir),
    addinDir: config.addinDir,
    docsDir: config.docsDir,
    corsOrigins: config.corsOrigins,
    tls: config.tls,
    secureCookies: config.secureCookies,
    trustProxy: config.trustProxy,
    logger: loggerOptions(process.env.LOG_LEVEL ?? "info"),
  });
  const checkpoints = startWalCheckpoints(accountsDb, {
    onError: (err) => app.log.error({ err }, "WAL checkpoints fell back to SQLite's automatic ones"),
  });
  const close = async () => {
    removePidFile(config.dataDir);
    await app.close(); // writes the ledger's last charges
    await checkpoints.stop();
    process.exit(0);
  };
  process.on("SIGINT", close);
  process.on("SIGTERM", close);
  // The rollout logs its outcome (switched, unchanged or refused) and never rejects.
  process.on("SIGHUP", () => void app.liveSnapshot.rollout(config.snapshotPath));
  await app.listen({ port: config.port, host: config.host });
  writePidFile(config.dataDir);
  const scheme = config.tls ? "https" : "http";
  const host = config.host === "0.0.0.0" || (config.tls && config.host === "127.0.0.1") ? "localhost" : config.host;
  const address = app.server.address();
  const port = address && typeof address === "object" ? address.port : config.port; // PORT=0 picks a free one
  const base = `${scheme}://${host}:${port}`;
  console.log(
    [
      "",
      `Property Intelligence service is running at ${base}`,
      `  API:            ${base}/v1/...  (Authorization: Bearer <key>)`,
      `  OpenAPI:        ${base}/v1/openapi.json`,
      `  Add-in files:   ${base}/addin/taskpane.html  (manifest: ${base}/addin/manifest.xml)`,
      `  Data directory: ${config.dataDir}`,
      `  Snapshot:       ${config.snapshotPath}  (${app.snapshot.ref.id}; kill -HUP ${process.pid} switches to a new file there)`,
      `  Account area:   ${base}/account/signup  (sign up, create API keys, see usage)`,
      `Or create an API key from the command line:  npm run admin -- create-key --email you@example.com --name "My model"`,
      "",
    ].join("\n"),
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
