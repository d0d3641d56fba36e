// DATABASE_URL, WORKERS and SNAPSHOTS_KEEP: what the service accepts, and what it refuses before it starts.
import { loadConfig } from "../../src/server/config";
import { poolBounds } from "../../src/server/stores/postgres";

describe("DATABASE_URL", () => {
  test("unset or blank keeps the SQLite accounts database", () => {
    expect(loadConfig({ DATABASE_URL: "  " }).databaseUrl).toBeUndefined();
    expect(loadConfig({}).databaseUrl).toBeUndefined();
  });

  test("takes postgres:// and postgresql:// connection strings", () => {
    const url = (text: string) => loadConfig({ DATABASE_URL: text }).databaseUrl;
    expect(url("postgres://svc:pw@db.internal:5432/propintel")).toBe("postgres://svc:pw@db.internal:5432/propintel");
    expect(url("postgresql://localhost/propintel")).toBe("postgresql://localhost/propintel");
  });

  test("refuses anything else, without echoing a password", () => {
    for (const bad of ["mysql://u:secret@h/db", "db.internal:5432", "not a url secret", "postgres://u:secret@h:port/db"]) {
      expect(() => loadConfig({ DATABASE_URL: bad })).toThrow(
        /^DATABASE_URL must be a postgres:\/\/ \(or postgresql:\/\/\) connection string/,
      );
      expect(() => loadConfig({ DATABASE_URL: bad })).not.toThrow(/secret|mysql/);
    }
  });
});

describe("WORKERS", () => {
  test("defaults to one process", () => {
    expect(loadConfig({}).workers).toBe(1);
  });

  test("runs several processes only over a shared PostgreSQL store", () => {
    expect(loadConfig({ WORKERS: "4", DATABASE_URL: "postgres://localhost/propintel" }).workers).toBe(4);
    expect(loadConfig({ WORKERS: "1" }).workers).toBe(1);
    expect(() => loadConfig({ WORKERS: "2" })).toThrow(/WORKERS above 1 needs DATABASE_URL/);
    expect(() => loadConfig({ WORKERS: "2" })).toThrow(/needs DATABASE_URL/);
  });

  test("must be a whole number from 1 to 64", () => {
    for (const bad of ["0", "-1", "1.5", "two", "65", "1e2"]) {
      expect(() => loadConfig({ WORKERS: bad, DATABASE_URL: "postgres://localhost/db" })).toThrow(
        /WORKERS must be a whole number from 1 to 64/,
      );
    }
  });
});

describe("SNAPSHOTS_KEEP", () => {
  test("keeps 3 snapshots unless set; 1 serves the latest only", () => {
    expect(loadConfig({}).snapshotsKeep).toBe(3);
    expect(loadConfig({ SNAPSHOTS_KEEP: " " }).snapshotsKeep).toBe(3);
    expect(loadConfig({ SNAPSHOTS_KEEP: "1" }).snapshotsKeep).toBe(1);
    expect(loadConfig({ SNAPSHOTS_KEEP: "6" }).snapshotsKeep).toBe(6);
  });

  test.each(["0", "-1", "2.5", "three", "25", "1e1"])("refuses %p before the service starts", (value) => {
    expect(() => loadConfig({ SNAPSHOTS_KEEP: value })).toThrow(
      `SNAPSHOTS_KEEP must be a whole number from 1 (serve the latest snapshot only) to 24, not '${value}'`,
    );
  });
});

describe("PG_CONNECT_TIMEOUT_MS and PG_QUERY_TIMEOUT_MS", () => {
  test("unset leaves the pools' defaults; set, they bound every pool", () => {
    expect(loadConfig({}).pgTimeouts).toEqual({ connectTimeoutMs: undefined, queryTimeoutMs: undefined });
    expect(poolBounds({})).toMatchObject({ connectionTimeoutMillis: 3000, statement_timeout: 5000, query_timeout: 6000 });
    const { pgTimeouts } = loadConfig({ PG_CONNECT_TIMEOUT_MS: "800", PG_QUERY_TIMEOUT_MS: "2000" });
    expect(pgTimeouts).toEqual({ connectTimeoutMs: 800, queryTimeoutMs: 2000 });
    expect(poolBounds(pgTimeouts)).toMatchObject({ connectionTimeoutMillis: 800, statement_timeout: 2000, query_timeout: 3000 });
  });

  test.each(["0", "50", "1.5", "soon", "700000"])("refuses %p before the service starts", (value) => {
    expect(() => loadConfig({ PG_QUERY_TIMEOUT_MS: value })).toThrow(
      `PG_QUERY_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000, not '${value}'`,
    );
  });
});
