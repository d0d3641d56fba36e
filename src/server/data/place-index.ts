// The places a snapshot holds (its `places` table), in memory for exact lookups: a place is
// resolved before a call is charged, so an unknown one is refused free of charge. Loaded on
// first use; a million-property snapshot holds some 60,000 places.
import type Database from "better-sqlite3";
import type { PlaceKind } from "../../contract/places";
import { PlaceNameIndex } from "./place-name-index";
import { lengthsAndBits } from "./place-name-distance";
import type { PlaceEntry } from "./place-entry";

export type { PlaceEntry };

/** Places with each one's key length and letterBits(), to rule most out without reading their keys. */
export interface LetteredPlaces {
  entries: readonly PlaceEntry[];
  lengths: Uint16Array;
  bits: Int32Array;
}

interface Row {
  kind: PlaceKind;
  code: string;
  name: string;
  local_name: string;
  key: string;
  state_code: string;
  city: string | null;
  property_count: number;
  record_count: number;
}

export class PlaceIndex {
  /** Every place of a kind, in the table's order. */
  readonly all = new Map<PlaceKind, PlaceEntry[]>();
  private readonly byCode = new Map<string, PlaceEntry>();
  /** `${kind}|${key}`: the places of that name in every state. */
  private readonly byKey = new Map<string, PlaceEntry[]>();
  private nameIndex: PlaceNameIndex | undefined;
  private states: LetteredPlaces | undefined;
  private sortedZips: string[] | undefined;

  constructor(db: Database.Database) {
    for (const r of db.prepare("SELECT * FROM places").iterate() as IterableIterator<Row>) {
      const entry: PlaceEntry = {
        kind: r.kind,
        code: r.code,
        name: r.name,
        local: r.local_name,
        key: r.key,
        state: r.state_code,
        city: r.city,
        properties: r.property_count,
        records: r.record_count,
      };
      push(this.all, r.kind, entry);
      this.byCode.set(`${r.kind}|${r.code}`, entry);
      push(this.byKey, `${r.kind}|${r.key}`, entry);
    }
  }

  byCodeOf(kind: PlaceKind, code: string): PlaceEntry | undefined {
    return this.byCode.get(`${kind}|${code}`);
  }

  /** The places of a kind with this key, in one state or (state null) in every state, most records first. */
  named(kind: PlaceKind, key: string, state: string | null): PlaceEntry[] {
    const found = this.byKey.get(`${kind}|${key}`) ?? [];
    return (state === null ? found : found.filter((e) => e.state === state)).slice().sort((a, b) => b.records - a.records);
  }

  /** The names of the counties, cities and metros for suggestions, indexed on first use (only refusals need them). */
  get names(): PlaceNameIndex {
    this.nameIndex ??= new PlaceNameIndex(
      (["county", "city", "metro"] as const).flatMap((kind) => this.all.get(kind) ?? []),
    );
    return this.nameIndex;
  }

  /** The states, for a misspelt state's suggestions. */
  get stateNames(): LetteredPlaces {
    if (!this.states) {
      const entries = this.all.get("state") ?? [];
      this.states = { entries, ...lengthsAndBits(entries.map((e) => e.key)) };
    }
    return this.states;
  }

  /** The ZIP codes in order, for the ones nearest a code the snapshot lacks. */
  get zipCodes(): readonly string[] {
    this.sortedZips ??= (this.all.get("zip") ?? []).map((e) => e.code).sort();
    return this.sortedZips;
  }

  /** How many places of each kind the snapshot holds (for messages and coverage). */
  count(kind: PlaceKind): number {
    return this.all.get(kind)?.length ?? 0;
  }
}

function push<K>(map: Map<K, PlaceEntry[]>, key: K, entry: PlaceEntry): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}
