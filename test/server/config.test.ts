// The settings schema: every variable refused at start with its name and what it accepts, and
// the tables in docs/deployment.md and README.md written from the same schema.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EnvSchema, loadConfig, loadPepper } from "../../src/server/config";
import { settingsTable, withSettingsTable } from "../../src/server/config-table";

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
};

describe("defaults", () => {
  test("an empty environment gives every documented default", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      dataDir: path.resolve("./data"),
      snapshotPath: path.resolve("./data/snapshot.db"),
      snapshotsRetainMonths: 24,
      addinDir: path.resolve("dist/addin"),
      docsDir: path.resolve("docs"),
      corsOrigins: [],
      secureCookies: false,
      trustProxy: false,
      workers: 1,
      logLevel: "info",
    });
    expect(config.databaseUrl).toBeUndefined();
  });

  test("an empty or blank variable is the same as an unset one", () => {
    expect(loadConfig({ PORT: "", LOG_LEVEL: " ", SNAPSHOTS_RETAIN_MONTHS: "" })).toMatchObject({
      port: 3000,
      logLevel: "info",
      snapshotsRetainMonths: 24,
    });
  });

  test("digits are read as numbers, with spaces around them", () => {
    expect(loadConfig({ PORT: " 8080 ", PG_CONNECT_TIMEOUT_MS: "800" })).toMatchObject({
      port: 8080,
      pgTimeouts: { connectTimeoutMs: 800 },
    });
  });
});

describe("refusals name the variable and what it accepts", () => {
  test.each([
    ["PORT", "70000", "PORT must be a whole number from 0 to 65535, not '70000'"],
    ["PORT", "-1", "PORT must be a whole number from 0 to 65535, not '-1'"],
    ["PORT", "80.5", "PORT must be a whole number from 0 to 65535, not '80.5'"],
    ["PORT", "http", "PORT must be a whole number from 0 to 65535, not 'http'"],
    ["PG_CONNECT_TIMEOUT_MS", "99", "PG_CONNECT_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000, not '99'"],
  ])("number bounds: %s=%p", (name, value, message) => {
    expect(refusal({ [name]: value })).toBe(message);
  });

  test("enums: LOG_LEVEL and SECURE_COOKIES list the values they take", () => {
    expect(refusal({ LOG_LEVEL: "verbose" })).toBe(
      "LOG_LEVEL must be one of: fatal, error, warn, info, debug, trace, silent, not 'verbose'",
    );
    expect(refusal({ SECURE_COOKIES: "true" })).toBe("SECURE_COOKIES must be one of: 0, 1, not 'true'");
    expect(loadConfig({ LOG_LEVEL: "debug", SECURE_COOKIES: "0" })).toMatchObject({ logLevel: "debug", secureCookies: false });
  });

  test("URLs: DATABASE_URL must be a postgres connection string, and its value is never repeated", () => {
    for (const bad of ["mysql://u:secret@h/db", "postgres://u:secret@host:port/db", "secret"]) {
      const message = refusal({ DATABASE_URL: bad });
      expect(message).toMatch(/^DATABASE_URL must be a postgres:\/\/ \(or postgresql:\/\/\) connection string/);
      expect(message).not.toContain("secret");
    }
  });

  test("paths: a NUL byte is refused, shown escaped", () => {
    expect(refusal({ SNAPSHOT_PATH: "data/a\u0000.db" })).toBe("SNAPSHOT_PATH must be a file path, not 'data/a\\u0000.db'");
  });

  test("paths: a folder setting that names a file is refused", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "config-")), "plain-file");
    fs.writeFileSync(file, "");
    expect(refusal({ DATA_DIR: file })).toBe(`DATA_DIR must be a folder path, not '${file}' (a file)`);
    expect(refusal({ DOCS_DIR: file })).toBe(`DOCS_DIR must be a folder path, not '${file}' (a file)`);
  });

  test("secrets: a KEY_PEPPER that is not 32 bytes of hex is refused without being repeated", () => {
    for (const bad of ["abcd", "zz".repeat(40), "a".repeat(65)]) {
      expect(refusal({ KEY_PEPPER: bad })).toBe("KEY_PEPPER must be at least 32 bytes of hex (64 hex digits)");
      expect(() => loadPepper(os.tmpdir(), { KEY_PEPPER: bad })).toThrow("KEY_PEPPER must be at least 32 bytes of hex");
    }
    expect(loadPepper(os.tmpdir(), { KEY_PEPPER: "ab".repeat(32) })).toEqual(Buffer.from("ab".repeat(32), "hex"));
  });

  test("every bad variable is named, one line each", () => {
    expect(refusal({ PORT: "x", WORKERS: "0", LOG_LEVEL: "loud" }).split("\n")).toEqual([
      "PORT must be a whole number from 0 to 65535, not 'x'",
      "LOG_LEVEL must be one of: fatal, error, warn, info, debug, trace, silent, not 'loud'",
      "WORKERS must be a whole number from 1 to 64, not '0'",
    ]);
  });
});

describe("docs/deployment.md", () => {
  const doc = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "deployment.md"), "utf8");

  test("holds the settings table the schema gives (npm run docs:settings writes it)", () => {
    expect(withSettingsTable(doc)).toBe(doc);
  });

  test("the table has a row for every variable of the schema", () => {
    const names = [...settingsTable().matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(names).toEqual(Object.keys(EnvSchema.properties));
    for (const name of names) expect(doc).toContain(`| \`${name}\` |`);
  });
});

describe("README.md", () => {
  const readme = fs.readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");

  test("holds the settings table the schema gives, its defaults and meanings (npm run docs:settings writes it)", () => {
    expect(withSettingsTable(readme, true)).toBe(readme);
    const names = [...settingsTable(true).matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(names).toEqual(Object.keys(EnvSchema.properties));
  });
});
