// One transaction on a connection of its own: committed when `work` resolves, rolled back when it
// throws (and the error passed on), the connection returned to the pool either way; one that
// failed as an outage (lost, or timed out mid-statement) is discarded, not reused.
import type pg from "pg";
import { isStoreOutage } from "../../db/store-outage";

export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    if (isStoreOutage(err)) broken = err as Error;
    else await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release(broken);
  }
}
