#!/usr/bin/env node
// npm run start:excel: the add-in in Excel on Windows or Mac in one command, as Microsoft's
// add-in templates do it:
//   1. makes and trusts the localhost development certificate (office-addin-dev-certs; the
//      first time, the system asks to trust it),
//   2. builds the add-in for https://localhost:<PORT> (PORT, default 3443) when it is stale,
//   3. starts the service over HTTPS with that certificate and sideloads dist/addin/manifest.xml
//      into Excel, which it opens (office-addin-debugging starts the service as its dev server,
//      waits for its port, then registers the manifest).
// `npm run stop` unregisters the add-in and stops the service. Excel desktop runs only on
// Windows and Mac; elsewhere this says so and points at Excel on the web.
"use strict";

const path = require("node:path");
const { spawnSync } = require("node:child_process");

const ROOT = path.join(__dirname, "..");
const MANIFEST = "dist/addin/manifest.xml";
const DEFAULT_PORT = 3443;

/**
 * What start:excel does on this platform with these environment variables: the port, the
 * origin the add-in is built for, and the service's environment; or why it cannot.
 */
function startPlan({ platform, env, certificate }) {
  if (platform !== "win32" && platform !== "darwin") {
    return {
      refusal:
        "Excel desktop runs on Windows and Mac only, so there is nothing to sideload into here. " +
        "For Excel on the web, serve the add-in over HTTPS and upload dist/addin/manifest.xml (docs/addin.md, " +
        '"Load the add-in into Excel").',
    };
  }
  const port = env.PORT ? Number(env.PORT) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { refusal: `PORT must be a port number, got "${env.PORT}".` };
  const origin = `https://localhost:${port}`;
  if (env.ADDIN_ORIGIN && env.ADDIN_ORIGIN !== origin) {
    return { refusal: `ADDIN_ORIGIN is ${env.ADDIN_ORIGIN}, but start:excel serves ${origin}; unset it or set PORT to match.` };
  }
  return {
    port,
    origin,
    env: { ...env, PORT: String(port), ADDIN_ORIGIN: origin, TLS_CERT: certificate.cert, TLS_KEY: certificate.key },
    sideload: [
      MANIFEST,
      "desktop",
      "--app",
      "excel",
      "--no-debug",
      "--dev-server",
      "node dist/node/src/server/main.js",
      "--dev-server-port",
      String(port),
    ],
  };
}

function run(args, env) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: "inherit" });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

async function main() {
  const devCerts = require("office-addin-dev-certs");
  const defaults = require("office-addin-dev-certs/lib/defaults");
  const plan = startPlan({
    platform: process.platform,
    env: process.env,
    certificate: { cert: defaults.localhostCertificatePath, key: defaults.localhostKeyPath },
  });
  if (plan.refusal) {
    console.error(`start:excel: ${plan.refusal}`);
    return 1;
  }
  console.log("start:excel: the localhost development certificate (made and trusted the first time)");
  await devCerts.ensureCertificatesAreInstalled();
  console.log(`start:excel: the service and the add-in for ${plan.origin}`);
  const built = run([path.join(__dirname, "build-if-stale.js")], plan.env);
  if (built !== 0) return built;
  console.log(`start:excel: sideloading ${MANIFEST} into Excel (npm run stop to unload it and stop the service)`);
  const debugging = require.resolve("office-addin-debugging/lib/cli.js", { paths: [ROOT] });
  return run([debugging, "start", ...plan.sideload], plan.env);
}

if (require.main === module) {
  main().then(
    (code) => (process.exitCode = code),
    (err) => {
      console.error(`start:excel: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}

module.exports = { startPlan, DEFAULT_PORT };
