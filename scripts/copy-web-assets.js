#!/usr/bin/env node
// Copies the files the compiled server reads beside it, since tsc compiles .ts files only: the
// account area's stylesheet and scripts (src/server/web/assets/) and the accounts store's SQL
// migrations (src/server/stores/migrations/), each to the same place under dist/node/. Run by
// `npm run build:server` after tsc.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
for (const folder of ["src/server/web/assets", "src/server/stores/migrations"]) {
  const to = path.join(root, "dist/node", folder);
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(path.join(root, folder), to, { recursive: true });
}
