// The starter model's sheets other than the comp grid (model-comps.ts): the subject's profile
// (which holds the subject's id and the cells the other sheets read: its asset type, its places,
// its owner), the market snapshot of its city, county and metro, ten years of its market's rent,
// vacancy and cap rate, and its owner's portfolio and its tenants.
import { type Arg, a1, excel, onSheet, propCall, text, type ModelFormula } from "./model-formulas";
import type { ModelCell, ModelSheet, ModelSheetKey, ModelSubject } from "./model-types";

/** A sheet's cells being laid out: set by zero-based row and column, read back rectangular. */
export function sheetGrid() {
  const rows: ModelCell[][] = [];
  return {
    set(row: number, column: number, cell: ModelCell) {
      while (rows.length <= row) rows.push([]);
      rows[row][column] = cell;
    },
    cells(): ModelCell[][] {
      const width = Math.max(...rows.map((r) => r.length));
      return rows.map((r) => Array.from({ length: width }, (_, j) => r[j] ?? null));
    },
  };
}

/** The profile's cells the other sheets refer to, each with its sheet ("'Model - Profile'!$B$4"). */
export interface ProfileRefs {
  subject: string;
  assetType: string;
  cityPlace: string;
  countyPlace: string;
  metroPlace: string;
  historyPlace: string;
  ownerId: string;
  ownerName: string;
}

const SUBJECT_ROW = 3;
/** The profile's fields, each one PROP.PROPERTY of the subject (one request for all of them). */
const PROFILE_FIELDS: Array<[field: string, label: string]> = [
  ["name", "Name"],
  ["address", "Address"],
  ["city", "City"],
  ["state_code", "State"],
  ["zip", "ZIP code"],
  ["county", "County"],
  ["metro_name", "Metro"],
  ["asset_type", "Asset type"],
  ["subtype", "Subtype"],
  ["building_class", "Building class"],
  ["year_built", "Year built"],
  ["building_area_sqft", "Building area (sq ft)"],
  ["units", "Units"],
  ["occupancy_rate", "Occupancy"],
  ["asking_rent_sqft_year", "Asking rent ($/sq ft/yr)"],
  ["asking_rent_unit_month", "Asking rent ($/unit/month)"],
  ["estimated_value", "Estimated value"],
  ["owner_name", "Owner"],
  ["owner_id", "Owner id"],
  ["tenant_count", "Tenants"],
  ["last_sale_date", "Last sale date"],
  ["last_sale_price", "Last sale price"],
];

/** PROP.PROPERTY(subject, field): every such call of the model is one request for the subject's record. */
export function subjectField(subject: string, field: string): ModelFormula {
  // The subject's reference carries its sheet, so the call's own sheet does not enter its key.
  return propCall("", "PROPERTY", [{ ref: subject }, { text: field }], "getProperty", [{ ref: subject }]);
}

export function profileSheet(subject: ModelSubject, names: Record<ModelSheetKey, string>): { sheet: ModelSheet; refs: ProfileRefs } {
  const name = names.profile;
  const g = sheetGrid();
  const ref = (row: number) => onSheet(name, a1(row, 1, true));
  const S = ref(SUBJECT_ROW);
  g.set(0, 0, "Starter underwriting model");
  g.set(1, 0, `Every figure is a live PROP formula. Type another property id in B${SUBJECT_ROW + 1} to retarget every sheet of the model.`);
  g.set(SUBJECT_ROW, 0, "Subject property id");
  g.set(SUBJECT_ROW, 1, subject.propertyId);
  if (subject.label) g.set(SUBJECT_ROW, 2, subject.label);
  g.set(5, 0, "Field");
  g.set(5, 1, "Value");
  const rowOf = new Map<string, number>();
  PROFILE_FIELDS.forEach(([field, label], i) => {
    g.set(6 + i, 0, label);
    g.set(6 + i, 1, subjectField(S, field));
    rowOf.set(field, 6 + i);
  });
  const cell = (field: string) => a1(rowOf.get(field)!, 1);
  // The places the market sheets ask about, put together from the subject's own fields in the
  // place grammar: "Austin, TX", "Travis County, TX" (the word is read whatever the state calls
  // its counties: "Orleans County, LA" is Orleans Parish), and the metro's id.
  const placesRow = 6 + PROFILE_FIELDS.length + 1;
  g.set(placesRow, 0, "Places the market sheets use");
  const places: Array<[label: string, formula: ModelFormula]> = [
    ["City market", excel(`${cell("city")}&", "&${cell("state_code")}`)],
    ["County market", excel(`${cell("county")}&" County, "&${cell("state_code")}`)],
    ["Metro market", subjectField(S, "metro_id")],
    ["History market (the metro, else the county)", excel(`IFERROR(${a1(placesRow + 3, 1)},${a1(placesRow + 2, 1)})`)],
  ];
  places.forEach(([label, formula], i) => {
    g.set(placesRow + 1 + i, 0, label);
    g.set(placesRow + 1 + i, 1, formula);
  });
  g.set(4, 3, "Every field of the subject");
  g.set(5, 3, propCall(name, "DETAILS", [{ ref: S }], "getProperty"));
  const refs: ProfileRefs = {
    subject: S,
    assetType: ref(rowOf.get("asset_type")!),
    cityPlace: ref(placesRow + 1),
    countyPlace: ref(placesRow + 2),
    metroPlace: ref(placesRow + 3),
    historyPlace: ref(placesRow + 4),
    ownerId: ref(rowOf.get("owner_id")!),
    ownerName: ref(rowOf.get("owner_name")!),
  };
  const sheet: ModelSheet = {
    key: "profile",
    name,
    cells: g.cells(),
    widths: [30, 36, 4, 26, 36],
    boldRows: [0, 5, placesRow],
    inputs: [a1(SUBJECT_ROW, 1)],
    formats: [],
    charts: [],
    notes: [
      `The subject's id is the input cell B${SUBJECT_ROW + 1}; every formula of the model refers to it, directly or through this sheet's cells.`,
      "Each field is PROP.PROPERTY of the subject, and column D spills PROP.DETAILS (every field): one request for all of them. A field the data does not hold shows #N/A saying so.",
      "The places below are put together from the subject's own city, county, state and metro; a subject with no metro shows #N/A there, and the history then follows its county.",
    ],
  };
  return { sheet, refs };
}

const MARKET_COLS =
  "geography_name,property_count,thin,inventory_sqft,inventory_units,occupancy_rate,vacancy_rate,asking_rent_sqft_year," +
  "asking_rent_unit_month,rent_growth_yoy,median_cap_rate,sales_count_12m,sales_volume_12m,median_price_per_sqft," +
  "median_price_per_unit,median_year_built";

export function marketSheet(refs: ProfileRefs, names: Record<ModelSheetKey, string>): ModelSheet {
  const g = sheetGrid();
  g.set(0, 0, "Market snapshot: the subject's city, county and metro");
  g.set(
    1,
    0,
    "PROP.MARKET of the subject's asset type in each of its places, one row each; property_count and thin say how many buildings stand behind a figure.",
  );
  g.set(3, 0, "Asset type");
  g.set(3, 1, excel(refs.assetType));
  g.set(5, 0, "Market");
  g.set(5, 1, "Place");
  const rows: Array<[label: string, place: string]> = [
    ["City", refs.cityPlace],
    ["County", refs.countyPlace],
    ["Metro", refs.metroPlace],
  ];
  const asset: Arg = { ref: "$B$4" };
  rows.forEach(([label, place], i) => {
    const row = 6 + i;
    g.set(row, 0, label);
    g.set(row, 1, excel(place));
    const here: Arg = { ref: a1(row, 1, true) };
    // The first row's spill brings the header row, one row up, beside "Market" and "Place".
    const options = `layout=columns; ${i === 0 ? "" : "headers=false; "}cols=${MARKET_COLS}`;
    g.set(
      i === 0 ? row - 1 : row,
      2,
      propCall(names.market, "MARKET", [here, asset, null, { text: options }], "getMarketSnapshotBatch", [here, asset]),
    );
  });
  return {
    key: "market",
    name: names.market,
    cells: g.cells(),
    widths: [12, 26, 26, ...Array<number>(15).fill(14)],
    boldRows: [0, 5],
    inputs: [],
    formats: [],
    charts: [],
    notes: [
      "Each place is one market: three markets, one credit each, asked in one batch request.",
      "A subject with no metro shows #N/A in the metro row (free).",
    ],
  };
}

/** Asset types whose rent is asked per unit and month (the others' per sq ft and year). */
export const UNIT_RENT_ASSET_TYPES = ["multifamily", "student", "senior-living"] as const;

export function historySheet(refs: ProfileRefs, names: Record<ModelSheetKey, string>): ModelSheet {
  const name = names.history;
  const g = sheetGrid();
  g.set(0, 0, "Ten years of rent, vacancy and cap rate");
  g.set(
    1,
    0,
    "PROP.MARKETHISTORY of the subject's metro (its county when it has no metro), by quarter: the 40 quarters to the last complete one (from=-40Q).",
  );
  g.set(3, 0, "Market");
  g.set(3, 1, excel(refs.historyPlace));
  g.set(4, 0, "Asset type");
  g.set(4, 1, excel(refs.assetType));
  g.set(5, 0, "Metrics");
  const unitRent = UNIT_RENT_ASSET_TYPES.map((t) => `$B$5=${text(t)}`).join(",");
  g.set(5, 1, excel(`IF(OR(${unitRent}),"asking_rent_unit_month","asking_rent_sqft_year")`));
  g.set(5, 2, "vacancy_rate");
  g.set(5, 3, "median_cap_rate");
  const anchorRow = 7;
  const place: Arg = { ref: "$B$4" };
  const asset: Arg = { ref: "$B$5" };
  const metrics: Arg = { ref: "$B$6:$D$6" };
  g.set(
    anchorRow,
    0,
    propCall(
      name,
      "MARKETHISTORY",
      [place, asset, metrics, { text: "-40Q" }, null, { text: "footer=false; missing=na" }],
      "getMarketHistory",
    ),
  );
  const anchor = onSheet(name, a1(anchorRow, 0));
  const chart = (title: string, column: number, row: number) => ({
    anchor,
    kind: "line" as const,
    title,
    xColumn: 0,
    yColumns: [column],
    placeAt: onSheet(name, a1(row, 6)),
  });
  return {
    key: "history",
    name,
    cells: g.cells(),
    widths: [14, 26, 16, 16],
    boldRows: [0],
    inputs: [],
    formats: [],
    charts: [
      chart("Asking rent", 1, anchorRow),
      chart("Vacancy", 2, anchorRow + 17),
      chart("Cap rate (median of sales, 24 months)", 3, anchorRow + 34),
    ],
    notes: [
      "The rent metric follows the asset type: per unit and month for multifamily, student and senior living, per sq ft and year for the others.",
      "One request (2 credits) for the three metrics. footer=false leaves out the note row on thin periods, so the charts plot periods only.",
      "The charts are bound to the spill and follow it when it grows at a later calculation.",
    ],
  };
}

export function ownerSheet(refs: ProfileRefs, names: Record<ModelSheetKey, string>): ModelSheet {
  const g = sheetGrid();
  g.set(0, 0, "The owner's portfolio and the tenants");
  g.set(3, 0, "Owner");
  g.set(3, 1, excel(refs.ownerName));
  g.set(4, 0, "Owner id");
  g.set(4, 1, excel(refs.ownerId));
  g.set(6, 0, "Portfolio (most valuable first)");
  g.set(
    7,
    0,
    propCall(
      names.owner,
      "PORTFOLIO",
      [
        { ref: "$B$5" },
        {
          text: "limit=25; cols=property_name,asset_type,city,state_code,building_area_sqft,units,estimated_value,acquired_date,acquisition_price,evidence",
        },
      ],
      "getOwnerPortfolio",
    ),
  );
  g.set(6, 11, "Tenants: leases expiring from this quarter on");
  g.set(
    7,
    11,
    propCall(
      names.owner,
      "HISTORY",
      [
        { ref: refs.subject },
        { text: "event_type=lease_expiration; from=-0Q; cols=counterparty_name,date,leased_area_sqft,rent_sqft_year" },
      ],
      "getPropertyHistory",
    ),
  );
  return {
    key: "owner",
    name: names.owner,
    cells: g.cells(),
    widths: [30, 14, 14, 8, 14, 8, 16, 14, 16, 16, 4, 30, 14, 14, 14],
    boldRows: [0, 6],
    inputs: [],
    formats: [],
    charts: [],
    notes: [
      "PROP.PORTFOLIO of the subject's owner (its id from the profile): its 25 most valuable holdings, with the footer saying how many it holds in all.",
      "The tenants are the subject's leases that expire from the current quarter on (PROP.HISTORY's lease_expiration events): tenant, expiration, leased area and rent. A subject with no owner on record shows #N/A in the portfolio; one with no such lease, the header row alone (free).",
    ],
  };
}
