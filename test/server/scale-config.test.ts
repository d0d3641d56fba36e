// DATABASE_URL, WORKERS and SNAPSHOTS_RETAIN_MONTHS (SNAPSHOTS_KEEP refused): what the service accepts, and what it refuses before it starts.
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

describe("SNAPSHOTS_RETAIN_MONTHS", () => {
  test("retains snapshots 24 months after capture unless set; 0 serves the latest only", () => {
    expect(loadConfig({}).snapshotsRetainMonths).toBe(24);
    expect(loadConfig({ SNAPSHOTS_RETAIN_MONTHS: " " }).snapshotsRetainMonths).toBe(24);
    expect(loadConfig({ SNAPSHOTS_RETAIN_MONTHS: "0" }).snapshotsRetainMonths).toBe(0);
    expect(loadConfig({ SNAPSHOTS_RETAIN_MONTHS: "36" }).snapshotsRetainMonths).toBe(36);
  });

  test.each(["-1", "2.5", "three", "121", "1e1"])("refuses %p before the service starts", (value) => {
    expect(() => loadConfig({ SNAPSHOTS_RETAIN_MONTHS: value })).toThrow(
      `SNAPSHOTS_RETAIN_MONTHS must be a whole number of months from 0 (serve the latest snapshot only) to 120, not '${value}'`,
    );
  });

  test.each(["3", "1", "0"])("SNAPSHOTS_KEEP=%p is refused at start with a message naming SNAPSHOTS_RETAIN_MONTHS", (value) => {
    expect(() => loadConfig({ SNAPSHOTS_KEEP: value })).toThrow(
      /^SNAPSHOTS_KEEP is no longer read: snapshots are kept by date, not by count\. Remove it and set SNAPSHOTS_RETAIN_MONTHS \(default 24\)/,
    );
    expect(loadConfig({ SNAPSHOTS_KEEP: " " }).snapshotsRetainMonths).toBe(24);
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
