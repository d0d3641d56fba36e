// Settings from the environment, read through one schema: each variable's name, default, what it
// accepts and what it means are written once here, checked by Ajv (through env-schema) before the
// service starts, and listed from the same schema in docs/deployment.md. A bad value stops the
// start with a message that names the variable and what it accepts.
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import Ajv from "ajv";
import envSchema from "env-schema";
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { fieldFault } from "../contract/schema-errors";
import { parseOrigins } from "./http/cors";

/** How many months after its capture a snapshot is served, unless SNAPSHOTS_RETAIN_MONTHS says otherwise. */
export const DEFAULT_SNAPSHOTS_RETAIN_MONTHS = 24;
/** Each kept snapshot holds an open file and its caches: ten years of monthly snapshots at most. */
export const MAX_SNAPSHOTS_RETAIN_MONTHS = 120;

/** Variables the service no longer reads, and what replaced each: one set is refused at start rather than ignored. */
export const RETIRED_SETTINGS: Record<string, string> = {
  SNAPSHOTS_KEEP:
    "SNAPSHOTS_KEEP is no longer read: snapshots are kept by date, not by count. Remove it and set SNAPSHOTS_RETAIN_MONTHS " +
    `(default ${DEFAULT_SNAPSHOTS_RETAIN_MONTHS}): a snapshot is served until its capture date plus that many months.`,
};

/** The log levels LOG_LEVEL takes (pino's). */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

// Annotations the schema carries for the messages and the documentation (Ajv checks nothing by them):
// x-allowed says what a string accepts, x-unit the unit of a number, x-secret that a value is never
// repeated in a message, x-default-text a default that is not a constant.
const NO_NUL = "^[^\\u0000]+$";
const pathOf = (what: string, description: string, extra: Record<string, unknown> = {}) =>
  Type.String({ pattern: NO_NUL, "x-allowed": what, description, ...extra });
const millis = (description: string, defaultText: string) =>
  Type.Integer({ minimum: 100, maximum: 600_000, "x-unit": "milliseconds", "x-default-text": defaultText, description });

/** Every variable the service reads, with its default and what it accepts. */
export const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: "Port to listen on (0: any free port)" }),
  HOST: Type.String({
    minLength: 1,
    default: "127.0.0.1",
    "x-allowed": "an interface address or host name",
    description: "Interface to listen on (`0.0.0.0` to serve a network)",
  }),
  DATA_DIR: pathOf("a folder path", "The store of snapshots, accounts database and key pepper", { default: "./data" }),
  SNAPSHOT_STORE: Type.Optional(
    pathOf(
      "a file path",
      "The store of snapshots served: every snapshot published and not yet retired, in one file that grows by what each month changed. " +
        "`npm run admin -- rollout-snapshot` publishes a new one into it without a restart",
      { "x-default-text": "`$DATA_DIR/store.db`" },
    ),
  ),
  SNAPSHOT_PATH: Type.Optional(
    pathOf(
      "a file path",
      "Read once, when there is no store yet: the snapshot file it is made from, with the older ones kept beside it in `snapshots/`; " +
        "without one, the default snapshot is built into the new store",
      { "x-default-text": "`$DATA_DIR/snapshot.db`" },
    ),
  ),
  SNAPSHOTS_RETAIN_MONTHS: Type.Integer({
    minimum: 0,
    maximum: MAX_SNAPSHOTS_RETAIN_MONTHS,
    default: DEFAULT_SNAPSHOTS_RETAIN_MONTHS,
    "x-allowed": `a whole number of months from 0 (serve the latest snapshot only) to ${MAX_SNAPSHOTS_RETAIN_MONTHS}`,
    description:
      "How long a snapshot is served after its capture date: the ones published before the latest stay, for calls that pick one with " +
      "`snapshot=` or `as_of=`, until their capture plus this many months (coverage lists each one's `retires_at`); the latest always serves. " +
      "Replaces `SNAPSHOTS_KEEP`, which is refused",
  }),
  ADDIN_DIR: pathOf("a folder path", "The built add-in the service serves", { default: "dist/addin" }),
  DOCS_DIR: pathOf("a folder path", "Where `functions.md` is read from for the function reference page (`/docs/functions`)", {
    default: "docs",
  }),
  CORS_ORIGINS: Type.String({
    default: "",
    "x-allowed": "comma-separated origins such as https://localhost:3443",
    "x-default-text": "none",
    description: "Other origins whose pages may call `/v1/` from a browser (the add-in served by the service needs none)",
  }),
  TLS_CERT: Type.Optional(pathOf("a readable PEM file", "PEM certificate to serve HTTPS with (with `TLS_KEY`)")),
  TLS_KEY: Type.Optional(pathOf("a readable PEM file", "PEM private key to serve HTTPS with (with `TLS_CERT`)")),
  SECURE_COOKIES: Type.Optional(
    Type.Union([Type.Literal("0"), Type.Literal("1")], {
      "x-default-text": "`1` with TLS, else `0`",
      description: "Mark account-page cookies `Secure` (set `1` behind a TLS proxy)",
    }),
  ),
  TRUST_PROXY: Type.String({
    default: "false",
    "x-allowed": "true, false, or comma-separated proxy addresses, CIDR ranges or the names loopback, linklocal, uniquelocal",
    description:
      "Behind a reverse proxy: which proxies to believe about the client's address (sign-up and log-in limits) and protocol (links)",
  }),
  KEY_PEPPER: Type.Optional(
    Type.String({
      pattern: "^([0-9a-fA-F]{2}){32,}$",
      "x-allowed": "at least 32 bytes of hex (64 hex digits)",
      "x-secret": true,
      "x-default-text": "generated into `$DATA_DIR/key-pepper`",
      description: "Secret mixed into key hashes; keep it with backups of the accounts database",
    }),
  ),
  LOG_LEVEL: Type.Union(
    LOG_LEVELS.map((level) => Type.Literal(level)),
    { default: "info", description: "Log level (keys never appear in logs)" },
  ),
  DATABASE_URL: Type.Optional(
    Type.String({
      format: "whatwg-url",
      pattern: "^postgres(ql)?://",
      "x-allowed": "a postgres:// (or postgresql://) connection string such as postgres://user:password@host:5432/database",
      "x-secret": true,
      "x-default-text": "unset (SQLite in `$DATA_DIR`)",
      description: "PostgreSQL for accounts, keys, sessions, credits and limits, shared by every service process",
    }),
  ),
  WORKERS: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 1,
    description: "Service processes on this machine, sharing one port; above 1 needs `DATABASE_URL`",
  }),
  PG_CONNECT_TIMEOUT_MS: Type.Optional(millis("On PostgreSQL: the longest wait for a connection", "`3000`")),
  PG_QUERY_TIMEOUT_MS: Type.Optional(millis("On PostgreSQL: the longest wait for one statement", "`5000`")),
});
export type Env = Static<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** SNAPSHOT_STORE: the store of snapshots served. */
  snapshotStore: string;
  /** SNAPSHOT_PATH: the snapshot file a new store is made from. */
  snapshotPath: string;
  /** SNAPSHOTS_RETAIN_MONTHS: an older snapshot is served until its capture plus this many months; calls pick one with `snapshot=` or `as_of=`. */
  snapshotsRetainMonths: number;
  accountsPath: string;
  addinDir: string;
  /** The documentation folder (docs/functions.md is served at /docs/functions). */
  docsDir: string;
  /** Other origins whose pages may call /v1/ from a browser (CORS); none by default. */
  corsOrigins: string[];
  /** TLS_CERT and TLS_KEY: PEM files to serve HTTPS with (both or neither). */
  tls?: { cert: Buffer; key: Buffer };
  /** Mark session cookies Secure: on with TLS, or SECURE_COOKIES=1 behind a TLS proxy. */
  secureCookies: boolean;
  /** TRUST_PROXY: which proxies to believe about the client's address and protocol (false: none). */
  trustProxy: boolean | string[];
  /** DATABASE_URL: PostgreSQL for the account stores; undefined keeps them in the SQLite accounts database. */
  databaseUrl?: string;
  /** PG_CONNECT_TIMEOUT_MS and PG_QUERY_TIMEOUT_MS: PostgreSQL's bounds (postgres/index.ts has the defaults). */
  pgTimeouts: { connectTimeoutMs?: number; queryTimeoutMs?: number };
  /** WORKERS: how many service processes to run on this machine, sharing one port. */
  workers: number;
  logLevel: LogLevel;
}

// Values are checked as written: no coercion, so "1e1" or "2.5" is not a whole number. A value of
// digits is read as a number before the check; an empty value is the same as an unset one.
const ajv = new Ajv({ allErrors: true, useDefaults: true, removeAdditional: true, coerceTypes: false, allowUnionTypes: true });
// A URL as Node's URL class reads it, as the PostgreSQL client will.
ajv.addFormat("whatwg-url", (text: string) => URL.canParse(text));
for (const keyword of ["x-allowed", "x-unit", "x-secret", "x-default-text"]) ajv.addKeyword({ keyword });

/** The variables of the schema as env-schema reads them, checked; throws naming each bad one. */
export function readEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const retired = Object.keys(RETIRED_SETTINGS).filter((name) => env[name] !== undefined && env[name]?.trim() !== "");
  if (retired.length > 0) throw new Error(retired.map((name) => RETIRED_SETTINGS[name]).join("\n"));
  const data: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(EnvSchema.properties)) {
    const text = env[name]?.trim();
    if (text === undefined || text === "") continue;
    data[name] = (schema as TSchema).type === "integer" && /^\d+$/.test(text) ? Number(text) : text;
  }
  try {
    return envSchema<Env>({ schema: EnvSchema, data, env: false, ajv });
  } catch (err) {
    const errors = (err as { errors?: Parameters<typeof fieldFault>[0][] }).errors;
    if (!errors) throw err;
    const names = [...new Set(errors.map((e) => fieldFault(e, { unknown: "", required: "" }).field))];
    throw new Error(names.map((name) => refusal(name, env[name]?.trim() ?? "")).join("\n"));
  }
}

/** What a variable accepts, in words, from its schema. */
export function allowedText(schema: TSchema): string {
  if (typeof schema["x-allowed"] === "string") return schema["x-allowed"];
  if (schema.type === "integer") {
    const unit = schema["x-unit"] ? ` of ${String(schema["x-unit"])}` : "";
    return `a whole number${unit} from ${String(schema.minimum)} to ${String(schema.maximum)}`;
  }
  if (Array.isArray(schema.anyOf)) return `one of: ${(schema.anyOf as TSchema[]).map((s) => String(s.const)).join(", ")}`;
  return "text";
}

/** The message that refuses one variable; a secret value is never repeated. */
function refusal(name: string, text: string): string {
  const schema = EnvSchema.properties[name as keyof Env] as TSchema;
  // Control characters (a NUL byte in a path) shown as escapes, so the message prints whole.
  const shown = [...text].map((c) => (c < " " ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}` : c)).join("");
  const value = schema["x-secret"] ? "" : `, not '${shown}'`;
  return `${name} must be ${allowedText(schema)}${value}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const vars = readEnv(env);
  const dataDir = path.resolve(vars.DATA_DIR);
  for (const name of ["DATA_DIR", "ADDIN_DIR", "DOCS_DIR"] as const) checkFolder(name, vars[name]);
  if (vars.WORKERS > 1 && !vars.DATABASE_URL) {
    throw new Error("WORKERS above 1 needs DATABASE_URL: several processes must share one PostgreSQL store of credits and keys");
  }
  return {
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    snapshotStore: path.resolve(vars.SNAPSHOT_STORE ?? path.join(dataDir, "store.db")),
    snapshotPath: path.resolve(vars.SNAPSHOT_PATH ?? path.join(dataDir, "snapshot.db")),
    snapshotsRetainMonths: vars.SNAPSHOTS_RETAIN_MONTHS,
    accountsPath: path.join(dataDir, "accounts.db"),
    addinDir: path.resolve(vars.ADDIN_DIR),
    docsDir: path.resolve(vars.DOCS_DIR),
    corsOrigins: parseOrigins(vars.CORS_ORIGINS),
    tls: loadTls(vars),
    secureCookies: Boolean(vars.TLS_CERT) || vars.SECURE_COOKIES === "1",
    trustProxy: parseTrustProxy(vars.TRUST_PROXY),
    databaseUrl: vars.DATABASE_URL,
    workers: vars.WORKERS,
    pgTimeouts: { connectTimeoutMs: vars.PG_CONNECT_TIMEOUT_MS, queryTimeoutMs: vars.PG_QUERY_TIMEOUT_MS },
    logLevel: vars.LOG_LEVEL,
  };
}

/** A folder setting may name a folder or nothing yet (the service makes DATA_DIR), never a file. */
function checkFolder(name: string, dir: string): void {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat && !stat.isDirectory()) throw new Error(`${name} must be a folder path, not '${dir}' (a file)`);
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

function loadTls(vars: Env): Config["tls"] {
  if (!vars.TLS_CERT && !vars.TLS_KEY) return undefined;
  if (!vars.TLS_CERT || !vars.TLS_KEY) throw new Error("Set both TLS_CERT and TLS_KEY (PEM files) to serve HTTPS, or neither.");
  const read = (name: "TLS_CERT" | "TLS_KEY") => {
    try {
      return fs.readFileSync(vars[name]!.replace(/^~(?=\/)/, process.env.HOME ?? "~"));
    } catch (err) {
      throw new Error(`${name}: cannot read '${vars[name]}' (${(err as NodeJS.ErrnoException).code ?? String(err)}).`);
    }
  };
  return { cert: read("TLS_CERT"), key: read("TLS_KEY") };
}

/**
 * The server-side pepper for key hashes: KEY_PEPPER (hex, 32+ bytes) if set, else a random one
 * created once in DATA_DIR with owner-only permissions. Losing it invalidates every key.
 */
export function loadPepper(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  const { KEY_PEPPER } = readEnv(env);
  if (KEY_PEPPER) return Buffer.from(KEY_PEPPER, "hex");
  const file = path.join(dataDir, "key-pepper");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
  }
  return Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
}
