// "Link a table": which columns of an analyst's table (a rent roll, a pipeline) name a field of
// the commercial property record, and which column holds the property ids, so the pane can
// offer to replace each column's typed values by =PROP.PROPERTY formulas. A header links by the
// product's own field names and labels (field-names.ts), else by the words analysts use in
// their models (the table below); nothing is guessed, since a wrong link is worse than none.
import { CommercialProperty } from "../contract/records";
import { nameKey } from "../contract/vocabulary";
import { nameIn } from "../functions/field-names";
import { PROPERTY_FIELDS } from "../functions/property-field";
import type { CellValue } from "./workbook-types";

export interface LinkedColumn {
  /** Index of the column in the header (and in each row). */
  column: number;
  /** The header's text, trimmed. */
  header: string;
  /** The property field it names (a name of PROPERTY_FIELDS). */
  field: string;
}

/** Fields never linked, each with why. */
export const UNLINKED_FIELDS: Readonly<Record<string, string>> = {
  id: "identifies the row: the formulas read it",
  object: "the record's kind, the same on every row",
  address: "the match reads it to find the id: a formula there would be circular",
  city: "the match reads it to find the id: a formula there would be circular",
  state_code: "the match reads it to find the id: a formula there would be circular",
  zip: "the match reads it to find the id: a formula there would be circular",
  parcel_id: "an id of another record, which analysts do not type",
  owner_id: "an id of another record, which analysts do not type",
  last_sale_id: "an id of another record, which analysts do not type",
  metro_id: "an id of another record, which analysts do not type",
  county_fips: "a county code analysts do not type",
};

/**
 * Headers analysts write in commercial real estate models (CoStar and broker exports,
 * underwriting and pipeline templates), for the fields whose own name or label
 * (=PROP.FIELDS) they do not use. Only the phrases nameIn does not already read are here.
 * Left out as naming something else as often: "SF" (a suite's leased area in a rent roll),
 * "Beds" (bedrooms), "Type" (a lease type), "Value" (any value).
 */
const ANALYST_HEADERS: Readonly<Record<string, readonly string[]>> = {
  building_area_sqft: ["Building SF", "Bldg SF", "Sq Ft", "Square Feet", "RBA", "GLA", "NRA", "Building Size", "Size (SF)"],
  occupancy_rate: ["Occupancy", "Occ", "Occ %", "Occupancy %", "% Leased", "Leased %"],
  last_sale_price: ["Sale Price", "Last Sale $"],
  last_sale_date: ["Sale Date", "Last Sold"],
  year_built: ["Built", "YOC", "Yr Built"],
  units: ["Unit Count", "Keys"],
  stories: ["Floors", "# Floors"],
  land_area_acres: ["Land Acres", "Acres", "Land Area (AC)"],
  owner_name: ["Owner", "Ownership"],
  building_class: ["Class", "Bldg Class"],
  asset_type: ["Property Type"],
  estimated_value: ["Est. Value"],
  // Not the bare "Asking Rent": per sq ft a year in office and industrial models, per unit a
  // month in multifamily ones; the product's own vocabulary refuses it as naming both.
  asking_rent_sqft_year: ["Asking Rent PSF", "Rent PSF", "Rent/SF"],
  asking_rent_unit_month: ["Rent/Unit", "Asking Rent/Unit", "Rent per Unit"],
  name: ["Property Name", "Property", "Building Name"],
  metro_name: ["Metro", "MSA", "Market"],
  latitude: ["Lat"],
  longitude: ["Long", "Lng", "Lon"],
};

/**
 * A header's key: nameKey (case, spacing and punctuation do not matter), except that "$" and
 * "%" count as words, since they carry meaning in a header: "Last Sale $" is the price where
 * "Last Sale" could be the date, and "% Leased" the occupancy where "Leased" could be a flag.
 */
export function headerKey(text: string): string {
  return nameKey(text.replace(/\$/g, " usd ").replace(/%/g, " pct "));
}

const FIELD_BY_HEADER = new Map<string, string>(
  Object.entries(ANALYST_HEADERS).flatMap(([field, phrases]) => phrases.map((phrase): [string, string] => [headerKey(phrase), field])),
);

/** The property field a header names, by the product's vocabulary then the analysts', or null. Excluded fields are returned too. */
export function fieldOfHeader(text: string): string | null {
  return nameIn(PROPERTY_FIELDS, text) ?? FIELD_BY_HEADER.get(headerKey(text)) ?? null;
}

/**
 * The columns whose header names a property field that can be linked, left to right. A field
 * named twice is linked at its first column only; headers that are not text, name no field or
 * name a field of UNLINKED_FIELDS are left out, and so is `idColumn` (the ids' own column,
 * whose header may read as a field: "Property").
 */
export function linkedColumns(header: CellValue[], idColumn: number | null = null): LinkedColumn[] {
  const linked: LinkedColumn[] = [];
  header.forEach((cell, column) => {
    if (typeof cell !== "string" || column === idColumn) return;
    const text = cell.trim();
    const field = fieldOfHeader(text);
    if (field === null || field in UNLINKED_FIELDS || linked.some((l) => l.field === field)) return;
    linked.push({ column, header: text, field });
  });
  return linked;
}

const PROPERTY_ID = new RegExp(CommercialProperty.properties.id.pattern ?? "^cp_[A-Za-z0-9-]+$");

/** Headers naming the property id, by key, in order of preference ("Property ID" over a bare "ID"). */
const ID_HEADERS = ["property_id", "prop_id", "id"];

/**
 * The column holding the property ids: the one whose header names the id ("Property ID",
 * "PROP id", "ID"), when most of its filled cells are ids, else the column where most filled
 * cells are ids and which holds the most of them (the leftmost of equals). Null when no column
 * qualifies. An "ID" column of row numbers is passed over for the ids beside it.
 */
export function propertyIdColumn(header: CellValue[], rows: CellValue[][]): number | null {
  const width = Math.max(header.length, ...rows.map((row) => row.length));
  const ids = Array.from({ length: width }, (_, column) => idCount(rows, column));
  const keys = header.map((cell) => (typeof cell === "string" ? nameKey(cell) : ""));
  for (const key of ID_HEADERS) {
    const column = keys.indexOf(key);
    if (column >= 0 && ids[column] !== null) return column;
  }
  let best: number | null = null;
  ids.forEach((count, column) => {
    if (count !== null && (best === null || count > (ids[best] ?? 0))) best = column;
  });
  return best;
}

/** How many of a column's filled cells are property ids, or null when they are not most of them. */
function idCount(rows: CellValue[][], column: number): number | null {
  const filled = rows.map((row) => row[column]).filter((cell) => cell !== null && cell !== undefined && String(cell).trim() !== "");
  const count = filled.filter((cell) => typeof cell === "string" && PROPERTY_ID.test(cell.trim())).length;
  return count > 0 && count * 2 > filled.length ? count : null;
}

/** The formula that shows `field` of the property whose id is in `idCell` ("$B2"): =PROP.PROPERTY($B2,"year_built"). */
export function linkFormula(idCell: string, field: string): string {
  return `=PROP.PROPERTY(${idCell},"${field}")`;
}
