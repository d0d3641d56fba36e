// Settings from the environment, with the defaults the README documents.
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { parseOrigins } from "./http/cors";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  snapshotPath: string;
  /**
   * SNAPSHOTS_KEEP: how many snapshots the service serves side by side, the latest and the ones
   * published before it (3 unless set). Calls pick an older one with `snapshot=` or `as_of=`.
   */
  snapshotsKeep: number;
  accountsPath: string;
  addinDir: string;
  /** The documentation folder (docs/functions.md is served at /docs/functions). */
  docsDir: string;
  /**
   * Other origins whose pages may call /v1/ from a browser (CORS). None by default: the add-in
   * is served by the service itself, so its calls are same-origin.
   */
  corsOrigins: string[];
  /** TLS_CERT and TLS_KEY: PEM files to serve HTTPS with (both or neither). */
  tls?: { cert: Buffer; key: Buffer };
  /** Mark session cookies Secure: on with TLS, or SECURE_COOKIES=1 behind a TLS proxy. */
  secureCookies: boolean;
  /** TRUST_PROXY: which proxies to believe about the client's address and protocol (false: none). */
  trustProxy: boolean | string[];
  /**
   * DATABASE_URL: a PostgreSQL connection string for accounts, keys, sessions, credits and limits,
   * shared by every service process; undefined keeps them in the SQLite accounts database.
   */
  databaseUrl?: string;
  /** PG_CONNECT_TIMEOUT_MS and PG_QUERY_TIMEOUT_MS: PostgreSQL's bounds (postgres/index.ts has the defaults). */
  pgTimeouts: { connectTimeoutMs?: number; queryTimeoutMs?: number };
  /** WORKERS: how many service processes to run on this machine, sharing one port (1 unless set). */
  workers: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not '${env.PORT}'`);
  return {
    port,
    host: env.HOST ?? "127.0.0.1",
    dataDir,
    snapshotPath: path.resolve(env.SNAPSHOT_PATH ?? path.join(dataDir, "snapshot.db")),
    snapshotsKeep: parseSnapshotsKeep(env.SNAPSHOTS_KEEP),
    accountsPath: path.join(dataDir, "accounts.db"),
    addinDir: path.resolve(env.ADDIN_DIR ?? "dist/addin"),
    docsDir: path.resolve(env.DOCS_DIR ?? "docs"),
    corsOrigins: parseOrigins(env.CORS_ORIGINS ?? ""),
    tls: loadTls(env),
    secureCookies: Boolean(env.TLS_CERT) || env.SECURE_COOKIES === "1",
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    workers: parseWorkers(env.WORKERS, env.DATABASE_URL),
    pgTimeouts: {
      connectTimeoutMs: parseMillis("PG_CONNECT_TIMEOUT_MS", env.PG_CONNECT_TIMEOUT_MS),
      queryTimeoutMs: parseMillis("PG_QUERY_TIMEOUT_MS", env.PG_QUERY_TIMEOUT_MS),
    },
  };
}

/** A timeout in milliseconds: a whole number from 100 to 600000; undefined when not set. */
export function parseMillis(name: string, text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 100 || n > 600_000)
    throw new Error(`${name} must be a whole number of milliseconds from 100 to 600000, not '${text}'`);
  return n;
}

/** DATABASE_URL must be a postgres:// (or postgresql://) connection string. */
export function parseDatabaseUrl(text: string | undefined): string | undefined {
  const value = (text ?? "").trim();
  if (value === "") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error("DATABASE_URL is not a URL; use postgres://user:password@host:5432/database");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new Error(`DATABASE_URL must start with postgres:// (it starts with ${url.protocol}//)`);
  }
  return value;
}

/** The snapshots kept unless SNAPSHOTS_KEEP says otherwise. */
export const DEFAULT_SNAPSHOTS_KEEP = 3;
/** Each kept snapshot holds an open file and its caches; past this, publish less often instead. */
export const MAX_SNAPSHOTS_KEEP = 24;

/** SNAPSHOTS_KEEP: a whole number from 1 (the latest only, as before) to MAX_SNAPSHOTS_KEEP. */
export function parseSnapshotsKeep(text: string | undefined): number {
  const value = (text ?? "").trim();
  if (value === "") return DEFAULT_SNAPSHOTS_KEEP;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_SNAPSHOTS_KEEP) {
    throw new Error(
      `SNAPSHOTS_KEEP must be a whole number from 1 (serve the latest snapshot only) to ${MAX_SNAPSHOTS_KEEP}, not '${value}'`,
    );
  }
  return n;
}

/**
 * WORKERS: a whole number from 1 to 64. More than one process needs DATABASE_URL: with SQLite
 * each process would hold credits in its own memory and together they would overspend a plan.
 */
export function parseWorkers(text: string | undefined, databaseUrl: string | undefined): number {
  const value = (text ?? "").trim();
  if (value === "") return 1;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 64) throw new Error(`WORKERS must be a whole number from 1 to 64, not '${value}'`);
  if (n > 1 && !(databaseUrl ?? "").trim()) {
    throw new Error("WORKERS above 1 needs DATABASE_URL: several processes must share one PostgreSQL store of credits and keys");
  }
  return n;
}

/**
 * TRUST_PROXY, for a service behind a reverse proxy: the client's address (which the sign-up and
 * log-in limits count by) and protocol (which links and the home page show) then come from
 * X-Forwarded-For and X-Forwarded-Proto. Unset or "false": trust no proxy. "true": trust every
 * hop (only where nothing else can reach the service). Else a comma-separated list of the
 * proxies' addresses or CIDR ranges ("127.0.0.1, 10.0.0.0/8"), or the names loopback,
 * linklocal and uniquelocal. (A bare hop count is not offered: it cannot tell a proxy from a
 * client that writes the headers itself.)
 */
export function parseTrustProxy(text: string | undefined): boolean | string[] {
  const value = (text ?? "").trim();
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  const entries = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!isAddressOrRange(entry)) {
      throw new Error(
        `TRUST_PROXY: '${entry}' is not an IP address, CIDR range or range name; use true, or addresses such as 127.0.0.1, 10.0.0.0/8, loopback`,
      );
    }
  }
  return entries;
}

const RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split("/");
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
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
