// Key rows by key id, so the hot path of every API call skips a database read.
//
// One cache per database connection, shared by every store on it: a revocation through the
// web account area and a plan change through the accounts store act on the next request at once. A
// commit by any other connection (the admin command, another process) changes
// `PRAGMA data_version`, which empties the cache; that is checked once per event-loop turn,
// because the check is a read transaction (two file-lock system calls) and cost about a sixth of
// a property lookup under load when run per request. So such a revocation acts on every request
// handled from the next turn on: requests already being handled in the turn of the commit
// arrived with it. Only known ids are cached, so random ids cannot fill it.
import type Database from "better-sqlite3";
import type { StoredKey } from "../../auth/key-verification";

/** Verified keys kept in memory; far more than one deployment's live keys. */
const KEY_CACHE_SIZE = 10_000;

export class KeyCache {
  private readonly rows = new Map<string, StoredKey>();
  private readonly dataVersion: Database.Statement;
  private seenVersion = -1;
  /** Set when `data_version` was read in the current event-loop turn; cleared by setImmediate. */
  checkedThisTurn = false;

  constructor(db: Database.Database) {
    this.dataVersion = db.prepare("PRAGMA data_version").pluck();
  }

  /** The cached row of a key id (none is read from the database), after the check for other connections' commits. */
  get(keyId: string): StoredKey | undefined {
    if (!this.checkedThisTurn) {
      this.checkedThisTurn = true;
      setImmediate(endTurn, this);
      const version = this.dataVersion.get() as number;
      if (version !== this.seenVersion) {
        this.rows.clear();
        this.seenVersion = version;
      }
    }
    return this.rows.get(keyId);
  }

  set(keyId: string, row: StoredKey): void {
    if (this.rows.size >= KEY_CACHE_SIZE) this.rows.clear();
    this.rows.set(keyId, row);
  }

  delete(keyId: string): void {
    this.rows.delete(keyId);
  }

  clear(): void {
    this.rows.clear();
  }
}

// A module-level function, so the once-per-turn reset allocates no closure.
function endTurn(cache: KeyCache): void {
  cache.checkedThisTurn = false;
}

const caches = new WeakMap<Database.Database, KeyCache>();

/** The key cache of a database connection. */
export function keyCacheOf(db: Database.Database): KeyCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new KeyCache(db)));
  return cache;
}
