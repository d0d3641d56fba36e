// One place of the snapshot as the place index and the name index hold it.
import type { PlaceKind } from "../../contract/places";

export interface PlaceEntry {
  kind: PlaceKind;
  /** State code, county FIPS code, city id, ZIP code or metro id. */
  code: string;
  /** How answers name it: "Austin, TX". */
  name: string;
  /** The name as the records spell it, without the state: "Austin". */
  local: string;
  key: string;
  state: string;
  /** A ZIP code's main city. */
  city: string | null;
  properties: number;
  records: number;
}
