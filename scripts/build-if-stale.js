#!/usr/bin/env node
// Builds the service (npm run build:server) and the add-in (npm run build:addin) only when
// something they are built from changed, so `npm start` after the first one starts in about a
// second instead of a full tsc + webpack run:
//   node scripts/build-if-stale.js            (both)
//   node scripts/build-if-stale.js addin      (one target)
// A target is stale when the fingerprint of its inputs (every file's path, size and mtime, plus
// the environment variables its build reads) differs from the one recorded after its last build
// here, or when its output changed since (a direct `npm run build:addin` with another
// ADDIN_ORIGIN, say). `npm run build` always builds everything.
"use strict";

const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const ROOT = path.join(__dirname, "..");
const STAMP_DIR = path.join(ROOT, "dist", ".build-stamps");

/** What each target is built from, relative to the repository root (folders are walked). */
const TARGETS = {
  server: {
    script: "build:server",
    inputs: [
      "src/server",
      "src/snapshot",
      "src/contract",
      "src/shared",
      "scripts",
      "tsconfig.json",
      "tsconfig.server.json",
      "package-lock.json",
    ],
    env: [],
    output: "dist/node/src/server/main.js",
  },
  addin: {
    script: "build:addin",
    inputs: [
      "src/functions",
      "src/taskpane",
      "src/contract",
      "src/shared",
      "assets",
      "manifest.xml",
      "webpack.config.js",
      "tsconfig.json",
      "tsconfig.addin.json",
      "package-lock.json",
    ],
    env: ["ADDIN_ORIGIN"],
    output: "dist/addin/manifest.xml",
  },
};

function listFiles(rel, out) {
  const abs = path.join(ROOT, rel);
  let stat;
  try {
    stat = fs.statSync(abs);
  } catch {
    return; // an input that does not exist (yet) simply adds nothing
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(abs).sort()) listFiles(path.join(rel, name), out);
  } else {
    out.push(`${rel.split(path.sep).join("/")}\0${stat.size}\0${stat.mtimeMs}`);
  }
}

function fingerprint(target) {
  const entries = [];
  for (const input of target.inputs) listFiles(input, entries);
  for (const name of target.env) entries.push(`env ${name}=${process.env[name] ?? ""}`);
  return crypto.createHash("sha256").update(entries.join("\n")).digest("hex");
}

function outputMtime(target) {
  try {
    return fs.statSync(path.join(ROOT, target.output)).mtimeMs;
  } catch {
    return null;
  }
}

function readStamp(name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(STAMP_DIR, `${name}.json`), "utf8"));
  } catch {
    return null;
  }
}

function runScript(script) {
  // Under npm, npm_execpath is npm's own CLI: run it with this Node, as npm would.
  const npmCli = process.env.npm_execpath;
  const result = npmCli
    ? spawnSync(process.execPath, [npmCli, "run", script], { cwd: ROOT, stdio: "inherit" })
    : spawnSync("npm", ["run", script], { cwd: ROOT, stdio: "inherit", shell: process.platform === "win32" });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function main(argv) {
  const names = argv.length ? argv : Object.keys(TARGETS);
  for (const name of names) {
    if (!TARGETS[name]) {
      console.error(`build-if-stale: unknown target '${name}' (targets: ${Object.keys(TARGETS).join(", ")})`);
      return 2;
    }
  }
  for (const name of names) {
    const target = TARGETS[name];
    const inputs = fingerprint(target);
    const stamp = readStamp(name);
    const built = outputMtime(target);
    if (stamp && built !== null && stamp.inputs === inputs && stamp.output === built) {
      console.log(`${name}: up to date, built ${stamp.builtAt} (npm run build rebuilds it all)`);
      continue;
    }
    console.log(`${name}: building (npm run ${target.script})`);
    const status = runScript(target.script);
    if (status !== 0) return status;
    fs.mkdirSync(STAMP_DIR, { recursive: true });
    const stampFile = { inputs, output: outputMtime(target), builtAt: new Date().toISOString() };
    fs.writeFileSync(path.join(STAMP_DIR, `${name}.json`), `${JSON.stringify(stampFile, null, 2)}\n`);
  }
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { TARGETS };
