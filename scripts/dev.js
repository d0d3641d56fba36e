#!/usr/bin/env node
// npm run dev: the add-in and the service, each rebuilt when its sources change.
//   - the add-in: webpack in watch mode (development build) into dist/addin/, which the
//     service serves under /addin/; reload the pane (or the browser) to see a change.
//   - the service: `tsx watch src/server/main.ts`, restarted when a file it imports changes.
// The service starts after the add-in's first build, so /addin/ exists when it looks for it.
// The development build goes to dist/addin-dev/ (the service is given ADDIN_DIR), so the
// production build that npm start serves is left as it is. The same environment variables as
// npm start apply otherwise (PORT, TLS_CERT, ADDIN_ORIGIN, ...). Ctrl+C stops both.
"use strict";

const path = require("node:path");
const { spawn } = require("node:child_process");
const webpack = require("webpack");
const webpackConfig = require("../webpack.config.js");

const ROOT = path.join(__dirname, "..");
const ADDIN_DIR = path.join(ROOT, "dist", "addin-dev");
const TSX_CLI = require.resolve("tsx/cli");

let server = null;
let stopping = false;

function startServer() {
  server = spawn(process.execPath, [TSX_CLI, "watch", "--clear-screen=false", "src/server/main.ts"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, ADDIN_DIR },
  });
  server.on("exit", (code, signal) => {
    server = null;
    if (stopping) return finish();
    console.error(`[dev] the service's watcher exited (${signal ?? `code ${code}`}); stopping.`);
    stop(1);
  });
}

const config = webpackConfig({}, { mode: "development" });
config.output.path = ADDIN_DIR;
const compiler = webpack(config);
const watching = compiler.watch({ aggregateTimeout: 300 }, (err, stats) => {
  if (err) {
    console.error("[dev] webpack:", err.message);
    return;
  }
  const failed = stats.hasErrors();
  console.log(
    `[dev] add-in ${failed ? "build failed" : "built"} in ${stats.endTime - stats.startTime} ms${failed ? ":" : " (dist/addin-dev/)"}`,
  );
  if (failed || stats.hasWarnings()) console.log(stats.toString({ preset: "errors-warnings", colors: process.stdout.isTTY }));
  if (!server && !stopping && !failed) startServer();
});

let exitCode = 0;
let watcherClosed = false;

function finish() {
  if (watcherClosed && !server) process.exit(exitCode);
}

/**
 * Stops both. Ctrl+C in a terminal reaches the service too, so on SIGINT it gets two seconds
 * to stop by itself before it is sent SIGTERM (two signals at once make tsx kill it outright).
 */
function stop(code, waitForService = false) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  if (server && !waitForService) server.kill("SIGTERM");
  else if (server) setTimeout(() => server?.kill("SIGTERM"), 2000).unref();
  watching.close(() => {
    watcherClosed = true;
    finish();
  });
}

process.on("SIGINT", () => stop(0, true));
process.on("SIGTERM", () => stop(0));
