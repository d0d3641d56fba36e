// A database of its own on the run's PostgreSQL server (global-setup.ts starts one, or
// TEST_DATABASE_URL names one), for a test file's stores; dropped afterwards.
import crypto from "node:crypto";
import pg from "pg";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function freshDatabase(): Promise<TestDatabase> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) throw new Error("TEST_DATABASE_URL is not set: run tests through jest (globalSetup starts PostgreSQL)");
  const name = `propintel_test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client(server);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client(server);
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
