// The snapshots a store holds (src/snapshot/store), as the service serves them: each version
// not retired is a snapshot, opened as a SnapshotContext over a connection that reads like that
// snapshot's own file (store-open.ts). The newest version's connection reads the latest rows
// inside one transaction held from open; an older one's reads by version number and holds
// nothing open. A connection opened for the newest version is therefore opened again, as an
// older version, once a newer one is published (live-snapshot.ts does that on its next refresh).
//
// The newest version's transaction is renewed while no request uses it (`renewRead`): a
// transaction held for good would keep its place in the store's write-ahead log, which could then
// never be emptied, and would grow by every month published. A renewed transaction that finds a
// newer version published reads that version's rows, so it is not used again (the caller opens
// the store's versions anew).
import Database from "better-sqlite3";
import { type OpenVersionOptions, openStoreVersion } from "../../snapshot/store/store-open";
import { type StoreVersion, storeVersions } from "../../snapshot/store/store-layout";
import { type SnapshotContext, contextOf } from "./snapshot-context";
import type { SnapshotStamp } from "./snapshot-select";

/**
 * Memory per connection: the newest version answers most calls and keeps the page cache and
 * mapping a snapshot file has (snapshot-file.ts); each older one, asked only by pinned calls,
 * keeps a small cache and no mapping, so a store of two years of months serves within the
 * memory of one snapshot and a little more.
 */
const NEWEST: OpenVersionOptions = { cacheKiB: 65536, mmapBytes: 268435456 };
const OLDER: OpenVersionOptions = { cacheKiB: 8192, mmapBytes: 0 };

/** A version of a store the service can serve (not retired), with the stamp it is ranked and selected by. */
export interface ServedVersion {
  seq: number;
  stamp: SnapshotStamp;
  /** Whether it is the store's newest version (read from the latest rows, not by version number). */
  newest: boolean;
  /** The store's newest version when this list was read: an older version's connection reads the text index as it stood then. */
  storeNewest: number;
}

/** The versions of the store at `storePath` not retired, oldest first; throws when it is not a store. */
export function servedVersions(storePath: string): ServedVersion[] {
  const db = new Database(storePath, { readonly: true, fileMustExist: true });
  try {
    const versions: StoreVersion[] = storeVersions(db);
    const newestSeq = versions.length ? versions[versions.length - 1].seq : -1;
    return versions
      .filter((v) => v.retired_at === null)
      .map((v) => ({
        seq: v.seq,
        stamp: { id: v.id, captured_at: v.captured_at, built_at: v.built_at },
        newest: v.seq === newestSeq,
        storeNewest: newestSeq,
      }));
  } finally {
    db.close();
  }
}

/** A version of the store opened as a snapshot (the checks every snapshot passes: meta, format, layout). */
export function openServedVersion(storePath: string, version: ServedVersion): SnapshotContext {
  const db = openStoreVersion(storePath, version.stamp.id, version.newest ? NEWEST : OLDER);
  const context = contextOf(db);
  if (context.stamp.built_at !== version.stamp.built_at) {
    context.close();
    throw new Error(`snapshot ${version.stamp.id} changed in the store while it was opened`);
  }
  return context;
}

/**
 * Ends the read transaction of a newest version's connection and begins another (its requests
 * all answered: `leases` is 0), so the store's write-ahead log is not held at where it began.
 * Returns false, the connection then to be retired, when the store has a version newer than
 * `seq` now (a publish committed since the transaction began). A connection in no transaction
 * (an older version's) has nothing to renew.
 */
export function renewRead(context: SnapshotContext, seq: number): boolean {
  const db = context.db;
  if (!db.inTransaction) return true;
  db.exec("COMMIT");
  db.exec("BEGIN");
  // The first read fixes what the new transaction sees; no version after `seq` means the latest rows are still its.
  const newest = db.prepare("SELECT max(seq) FROM main.store_versions").pluck().get() as number;
  return newest === seq;
}
