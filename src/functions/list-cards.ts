// The `ids=cards` option of the list functions over properties and sales (PROP.SEARCH,
// PROP.ASSETSEARCH, PROP.SALECOMPS): each row's property id cell becomes that property's card
// (property-card.ts), built from the row's own fields, so it costs no request beyond the list's.
// A search row is a whole property record, so its card is PROP.CARD's; a sale comp row holds the
// sale and the property as the sale describes it, and its card says so. Where the host cannot
// show cards, the column keeps its ids.
import type { Cell } from "./cell-values";
import type { LocalOption } from "./option-specs";
import { buildCard, type CardSpec, type PropertyCard } from "./property-card";

/** Declared here once; a list function offers it by naming its rows' card (ListFunctionSpec.cards). */
export const IDS_OPTION: LocalOption = {
  name: "ids",
  kind: "choice",
  values: ["text", "cards"],
  help: "text (default): property ids as text; cards: each row's property as a card built from the row (no extra request; ids where Excel cannot show cards).",
};

/** A cell of a list whose id column may hold cards. */
export type ListCell = Cell | PropertyCard;

/**
 * The spill with the id column's cells (column `column`, rows after `headerRows`) replaced by the
 * card of the record the row shows; `records` are the rows' records, in the spill's order. Rows
 * after the records (a footer) and a row without an id are left as they are; so is every row
 * when the columns shown leave the id out (column -1).
 */
export function cardColumn(
  spill: Cell[][],
  records: readonly Record<string, unknown>[],
  column: number,
  headerRows: number,
  spec: CardSpec,
  serviceUrl: string,
): ListCell[][] {
  if (column < 0) return spill;
  return spill.map((row, i) => {
    const record = i >= headerRows ? records[i - headerRows] : undefined;
    const card = record ? buildCard(record, spec, serviceUrl) : null;
    return card ? row.map((cell, c) => (c === column ? card : cell)) : row;
  });
}
