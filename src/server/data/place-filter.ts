// A resolved place as a condition on one table's columns. Not every table has every geography
// column (listings have no county, parcels no metro); a kind the table has no column for is matched through the table's property id, when it has one.
import type { PlaceKind } from "../../contract/places";
import type { ResolvedPlace } from "./place-resolver";
import type { Where } from "./sql-where";

export interface PlaceColumns {
  state: string;
  city?: string;
  zip?: string;
  county?: string;
  metro?: string;
  /** The record's property id: zip, county or metro through the properties table. */
  property?: string;
}

const PROPERTY_COLUMN: Partial<Record<PlaceKind, string>> = { zip: "zip", county: "county_fips", metro: "metro_id" };

export function wherePlace(w: Where, place: ResolvedPlace, cols: PlaceColumns): Where {
  const [first] = place.entries;
  switch (place.kind) {
    case "state":
      return w.add(`${cols.state} = ?`, first.code);
    case "city": {
      const one = `(${cols.city} = ? COLLATE NOCASE AND ${cols.state} = ?)`;
      return w.add(`(${place.entries.map(() => one).join(" OR ")})`, ...place.entries.flatMap((e) => [e.local, e.state]));
    }
    default: {
      const column = cols[place.kind];
      if (column) return w.add(`${column} = ?`, first.code);
      if (cols.property) return w.add(`${cols.property} IN (SELECT id FROM properties WHERE ${PROPERTY_COLUMN[place.kind]} = ?)`, first.code);
      throw new Error(`no column to match a ${place.kind} with`);
    }
  }
}
