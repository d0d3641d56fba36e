// The starter model's sale-comp grid: the subject on top, its comparable sales below (a fixed
// number of rows, so the adjustment columns the analyst fills in line up with the spill's rows),
// the adjusted prices computed by Excel, and the statistics of the set. The comps are the
// subject's most similar sales of the last RECENT_MONTHS months first; older ones fill the grid
// only when fewer recent ones lie within the radius, and a line under the statistics says when
// they did. Each comp's months since its sale stand beside its market-conditions adjustment.
//
// The functions spill "" for a figure the data lacks, and a comp row the spill does not reach is
// a truly empty cell. Every formula here tests ISNUMBER before it computes, so neither is read as
// a zero: a missing price gives an empty adjusted price, COUNT/AVERAGE/MEDIAN skip it, and a
// statistic of no values is "" rather than AVERAGE's #DIV/0! or MIN's 0.
import { a1, excel, propCall, type ModelFormula } from "./model-formulas";
import type { ModelSheet, ModelSheetKey } from "./model-types";
import { type ProfileRefs, sheetGrid, subjectField } from "./model-sheets";

/** How many comps the grid holds (one page): fewer leave the bottom rows blank. */
export const MODEL_COMPS = 10;

/** The months before the capture whose sales the grid takes first (prefer_sold_within_months). */
export const RECENT_MONTHS = 36;

/** The comps' columns, in the spill's order (A to K). */
const COMP_COLS = [
  "property_name",
  "sale_date",
  "sale_price",
  "price_per_sqft",
  "price_per_unit",
  "cap_rate",
  "building_area_sqft",
  "units",
  "year_built",
  "distance_miles",
  "months_since_sale",
];
const col = (field: string) => COMP_COLS.indexOf(field);
/** Market conditions first, beside the months since each sale (the spill's last column). */
const ADJUSTMENTS = ["Market conditions", "Location", "Size", "Age", "Condition"];
/** First column of the adjustments: one blank column after the spill. */
const ADJ = COMP_COLS.length + 1;
const NET = ADJ + ADJUSTMENTS.length;
const ADJ_SQFT = NET + 1;
const ADJ_UNIT = NET + 2;

const SUBJECT_ROW = 5;
const SPILL_ROW = 7;
const FIRST_COMP = SPILL_ROW + 1;
const LAST_COMP = SPILL_ROW + MODEL_COMPS;
const STATS_ROW = LAST_COMP + 2;

/** "D9:D18": a column of the comp rows. */
const compRange = (column: number) => `${a1(FIRST_COMP, column)}:${a1(LAST_COMP, column)}`;

/** IF(COUNT(r)=0,"",F(r)): a statistic of no values is empty, not an error or a zero. */
const statistic = (fn: string, range: string): ModelFormula => excel(`IF(COUNT(${range})=0,"",${fn}(${range}))`);

export function compsSheet(refs: ProfileRefs, names: Record<ModelSheetKey, string>): ModelSheet {
  const name = names.comps;
  const g = sheetGrid();
  const S = refs.subject;
  g.set(0, 0, "Sale comps: the subject and its comparable sales");
  g.set(
    1,
    0,
    `Fill the adjustments (${a1(FIRST_COMP, ADJ)}:${a1(LAST_COMP, NET - 1)}) as percentages, + where the comp is worse than the subject; blank is 0%. The adjusted prices and the statistics follow.`,
  );
  // The subject, in the comps' columns: its last sale and its size. Price per sq ft and per unit
  // are computed only where both figures are numbers (a never-sold subject shows #N/A in the sale cells).
  const labels = [
    "Property",
    "Sale date",
    "Price",
    "Price/sq ft",
    "Price/unit",
    "Cap rate",
    "Sq ft",
    "Units",
    "Year built",
    "Distance (mi)",
    "Months since sale",
  ];
  labels.forEach((label, j) => g.set(SUBJECT_ROW - 1, j, label));
  const subjectCells: Record<string, ModelFormula | number | null> = {
    property_name: subjectField(S, "name"),
    sale_date: subjectField(S, "last_sale_date"),
    sale_price: subjectField(S, "last_sale_price"),
    building_area_sqft: subjectField(S, "building_area_sqft"),
    units: subjectField(S, "units"),
    year_built: subjectField(S, "year_built"),
    distance_miles: 0,
    months_since_sale: null,
    cap_rate: null,
  };
  const here = (field: string) => a1(SUBJECT_ROW, col(field));
  const perUnit = (size: string) =>
    excel(`IF(AND(ISNUMBER(${here("sale_price")}),ISNUMBER(${here(size)})),IF(${here(size)}>0,${here("sale_price")}/${here(size)},""),"")`);
  subjectCells.price_per_sqft = perUnit("building_area_sqft");
  subjectCells.price_per_unit = perUnit("units");
  for (const [field, cell] of Object.entries(subjectCells)) g.set(SUBJECT_ROW, col(field), cell);
  g.set(SUBJECT_ROW, ADJ, "The subject");

  g.set(
    SPILL_ROW,
    0,
    propCall(
      name,
      "SALECOMPS",
      [
        { ref: S },
        null,
        {
          text: `limit=${MODEL_COMPS}; per_property=latest; prefer_sold_within_months=${RECENT_MONTHS}; footer=false; cols=${COMP_COLS.join(",")}`,
        },
      ],
      "findSaleComps",
    ),
  );
  ADJUSTMENTS.forEach((label, j) => g.set(SPILL_ROW, ADJ + j, `${label} adj.`));
  g.set(SPILL_ROW, NET, "Net adjustment");
  g.set(SPILL_ROW, ADJ_SQFT, "Adjusted price/sq ft");
  g.set(SPILL_ROW, ADJ_UNIT, "Adjusted price/unit");
  for (let row = FIRST_COMP; row <= LAST_COMP; row++) {
    const adjustments = `${a1(row, ADJ)}:${a1(row, NET - 1)}`;
    const adjusted = (field: string) => {
      const price = a1(row, col(field));
      return excel(`IF(ISNUMBER(${price}),${price}*(1+SUM(${adjustments})),"")`);
    };
    g.set(row, NET, excel(`IF(${a1(row, 0)}="","",SUM(${adjustments}))`));
    g.set(row, ADJ_SQFT, adjusted("price_per_sqft"));
    g.set(row, ADJ_UNIT, adjusted("price_per_unit"));
  }

  const columns: Array<[label: string, range: string]> = [
    ["Price/sq ft", compRange(col("price_per_sqft"))],
    ["Adjusted price/sq ft", compRange(ADJ_SQFT)],
    ["Price/unit", compRange(col("price_per_unit"))],
    ["Adjusted price/unit", compRange(ADJ_UNIT)],
    ["Cap rate", compRange(col("cap_rate"))],
  ];
  g.set(STATS_ROW, 0, "Statistics of the comps");
  columns.forEach(([label], j) => g.set(STATS_ROW, 1 + j, label));
  g.set(STATS_ROW + 1, 0, "Count");
  columns.forEach(([, range], j) => g.set(STATS_ROW + 1, 1 + j, excel(`COUNT(${range})`)));
  ["AVERAGE", "MEDIAN", "MIN", "MAX"].forEach((fn, i) => {
    g.set(STATS_ROW + 2 + i, 0, { AVERAGE: "Mean", MEDIAN: "Median", MIN: "Min", MAX: "Max" }[fn]!);
    columns.forEach(([, range], j) => g.set(STATS_ROW + 2 + i, 1 + j, statistic(fn, range)));
  });
  // The subject's value indicated by the adjusted medians, where the subject's size is a number.
  const medianRow = STATS_ROW + 3;
  const indicated = (median: string, size: string) => excel(`IF(AND(ISNUMBER(${median}),ISNUMBER(${size})),${median}*${size},"")`);
  g.set(STATS_ROW + 7, 0, "Indicated value: adjusted median × the subject's size");
  g.set(STATS_ROW + 7, 2, indicated(a1(medianRow, 2), here("building_area_sqft")));
  g.set(STATS_ROW + 7, 4, indicated(a1(medianRow, 4), here("units")));
  // Whether the grid had to reach past the recent sales, in words; with no comp at all, how to
  // look further (a town far from others of its kind, such as an apartment building in Laredo).
  const months = compRange(col("months_since_sale"));
  const older = `COUNTIF(${months},">${RECENT_MONTHS}")`;
  g.set(
    STATS_ROW + 8,
    0,
    excel(
      `IF(COUNT(${months})=0,"No sale of the subject's kind within the radius: raise max_distance_miles in the options of ${a1(SPILL_ROW, 0)}.",IF(${older}=0,"All "&COUNT(${months})&" comps sold within ${RECENT_MONTHS} months of the data's capture date.",` +
        `${older}&" of "&COUNT(${months})&" comps sold more than ${RECENT_MONTHS} months before the capture date: fewer recent sales matched, ` +
        `so the grid widened to older ones. Adjust them for market conditions."))`,
    ),
  );

  const money = '"$"#,##0';
  const statRange = (j: number) => `${a1(STATS_ROW + 2, 1 + j)}:${a1(STATS_ROW + 5, 1 + j)}`;
  return {
    key: "comps",
    name,
    cells: g.cells(),
    widths: [34, 12, 14, 12, 12, 10, 12, 8, 10, 12, 10, 3, 13, 11, 11, 11, 11, 13, 14, 14],
    boldRows: [0, SUBJECT_ROW - 1, SPILL_ROW, STATS_ROW],
    inputs: [`${a1(FIRST_COMP, ADJ)}:${a1(LAST_COMP, NET - 1)}`],
    formats: [
      { range: `${a1(FIRST_COMP, ADJ)}:${a1(LAST_COMP, NET)}`, format: "0.0%" },
      { range: `${here("price_per_sqft")}:${here("price_per_unit")}`, format: money },
      { range: `${a1(FIRST_COMP, ADJ_SQFT)}:${a1(LAST_COMP, ADJ_UNIT)}`, format: money },
      ...[0, 1, 2, 3].map((j) => ({ range: statRange(j), format: money })),
      { range: statRange(4), format: "0.00%" },
      { range: `${a1(STATS_ROW + 7, 2)}:${a1(STATS_ROW + 7, 4)}`, format: money },
    ],
    charts: [],
    notes: [
      `PROP.SALECOMPS of the subject: its ${MODEL_COMPS} most similar sales, one per property (per_property=latest), without a footer so the rows line up with the adjustment columns.`,
      `Sales of the last ${RECENT_MONTHS} months before the capture date come first (prefer_sold_within_months=${RECENT_MONTHS}); older sales fill the grid only when fewer recent ones lie within the radius, and the line under the statistics says how many did.`,
      "Months since sale counts whole months from the sale to the capture date: the basis of the market-conditions adjustment beside it.",
      `With fewer than ${MODEL_COMPS} comps the bottom rows stay blank: their adjusted prices are empty and the statistics (COUNT, AVERAGE, MEDIAN, MIN, MAX) skip them, as they skip a comp's missing figure (the functions spill "" for it, never 0).`,
      "The adjusted price is the comp's price × (1 + the sum of its adjustments); the statistics cover the comps only, not the subject.",
      "The subject's own price per sq ft and per unit are its last sale's, where it has one.",
    ],
  };
}
