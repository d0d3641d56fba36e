// Settings from the environment, with the defaults the README documents.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseOrigins } from "./http/cors";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  snapshotPath: string;
  accountsPath: string;
  addinDir: string;
  /** The documentation folder (docs/functions.md is served at /docs/functions). */
  docsDir: string;
  /** Other origins whose pages may call /v1/ from a browser (CORS). */
  corsOrigins: string[];
  /** TLS_CERT and TLS_KEY: PEM files to serve HTTPS with (both or neither). */
  tls?: { cert: Buffer; key: Buffer };
  /** Mark session cookies Secure: on with TLS, or SECURE_COOKIES=1 behind a TLS proxy. */
  secureCookies: boolean;
}

/** The HTTPS origin docs/addin.md sets up for sideloading the add-in on a desktop. */
export const DEFAULT_CORS_ORIGINS = "https://localhost:3443";

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not '${env.PORT}'`);
  return {
    port,
    host: env.HOST ?? "127.0.0.1",
    dataDir,
    snapshotPath: path.resolve(env.SNAPSHOT_PATH ?? path.join(dataDir, "snapshot.db")),
    accountsPath: path.join(dataDir, "accounts.db"),
    addinDir: path.resolve(env.ADDIN_DIR ?? "dist/addin"),
    docsDir: path.resolve(env.DOCS_DIR ?? "docs"),
    corsOrigins: parseOrigins(env.CORS_ORIGINS ?? DEFAULT_CORS_ORIGINS),
    tls: loadTls(env),
    secureCookies: Boolean(env.TLS_CERT) || env.SECURE_COOKIES === "1",
  };
}

function loadTls(env: NodeJS.ProcessEnv): Config["tls"] {
  if (!env.TLS_CERT && !env.TLS_KEY) return undefined;
  if (!env.TLS_CERT || !env.TLS_KEY) throw new Error("Set both TLS_CERT and TLS_KEY (PEM files) to serve HTTPS, or neither.");
  const read = (name: "TLS_CERT" | "TLS_KEY") => {
    try {
      return fs.readFileSync(env[name]!.replace(/^~(?=\/)/, process.env.HOME ?? "~"));
    } catch (err) {
      throw new Error(`${name}: cannot read '${env[name]}' (${(err as NodeJS.ErrnoException).code ?? String(err)}).`);
    }
  };
  return { cert: read("TLS_CERT"), key: read("TLS_KEY") };
}

/**
 * The server-side pepper for key hashes: KEY_PEPPER (hex, 32+ bytes) if set, else a random one
 * created once in DATA_DIR with owner-only permissions. Losing it invalidates every key.
 */
export function loadPepper(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.KEY_PEPPER) {
    const buf = Buffer.from(env.KEY_PEPPER, "hex");
    if (buf.length < 32) throw new Error("KEY_PEPPER must be at least 32 bytes of hex");
    return buf;
  }
  const file = path.join(dataDir, "key-pepper");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
  }
  return Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
}
