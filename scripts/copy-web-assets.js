#!/usr/bin/env node
// Copies the account area's stylesheet and scripts (src/server/web/assets/) beside the compiled
// server (dist/node/src/server/web/assets/), which reads them from there: tsc compiles .ts files
// only. Run by `npm run build:server` after tsc.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const from = path.join(root, "src/server/web/assets");
const to = path.join(root, "dist/node/src/server/web/assets");
fs.rmSync(to, { recursive: true, force: true });
fs.cpSync(from, to, { recursive: true });
