// Excel.Range in the stand-in: the properties and methods excel-workbook.ts uses (its header
// comment lists them), over the workbook model.
import { MAX_COLUMNS, MAX_ROWS, type Rect, formatAddress, parseAddress } from "./addresses";
import { ClientObject, ExcelApiError, MAX_LOAD_CELLS, type RequestContext } from "./api-base";
import { parseInput } from "./cell-input";
import { ConditionalFormatCollectionProxy } from "./api-conditional-formats";
import { type SheetModel, rangeValue, shownFormat, shownText, valueAsJson, valueType } from "./workbook-model";
// api-workbook.ts imports this file too: the cycle is safe because these are used in methods only.
import { TableCollectionProxy, WorksheetProxy } from "./api-workbook";

export interface RangeTarget {
  sheet: SheetModel;
  rect: Rect;
}

export class RangeProxy extends ClientObject<RangeTarget> {
  protected readonly scalarProperties = [
    "address",
    "rowIndex",
    "columnIndex",
    "rowCount",
    "columnCount",
    "values",
    "formulas",
    "valueTypes",
    "numberFormat",
    "text",
    "valuesAsJson",
  ];
  readonly format: RangeFormatProxy;

  constructor(context: RequestContext, resolver: () => RangeTarget | null, nullable = false) {
    super(context, resolver, nullable);
    this.format = new RangeFormatProxy(this);
  }

  get conditionalFormats(): ConditionalFormatCollectionProxy {
    return new ConditionalFormatCollectionProxy(this);
  }

  private get host() {
    return this.context.host;
  }

  protected read({ sheet, rect }: RangeTarget, property: string): unknown {
    const model = this.host.model;
    const grid = <V>(cell: (row: number, column: number) => V): V[][] => {
      if (rect.rows * rect.columns > MAX_LOAD_CELLS) {
        throw new ExcelApiError(
          "RequestPayloadSizeLimitExceeded",
          `The request payload size has exceeded the limit (${rect.rows * rect.columns} cells).`,
        );
      }
      return Array.from({ length: rect.rows }, (_, i) =>
        Array.from({ length: rect.columns }, (_, j) => cell(rect.row + i, rect.column + j)),
      );
    };
    switch (property) {
      case "address":
        return formatAddress(sheet.name, rect);
      case "rowIndex":
        return rect.row;
      case "columnIndex":
        return rect.column;
      case "rowCount":
        return rect.rows;
      case "columnCount":
        return rect.columns;
      case "values":
        return grid((r, c) => rangeValue(model.shown(sheet, r, c)));
      case "formulas":
        return grid((r, c) => model.formulaText(sheet, r, c));
      case "valueTypes":
        return grid((r, c) => valueType(model.shown(sheet, r, c)));
      // The cell's own format: a formatted number's format is the value's (valuesAsJson), as in Excel.
      case "numberFormat":
        return grid((r, c) => sheet.cells.get(`${r},${c}`)?.numberFormat ?? "General");
      case "text":
        return grid((r, c) => {
          const shown = model.shown(sheet, r, c);
          return shownText(shown, shownFormat(shown, sheet.cells.get(`${r},${c}`)));
        });
      case "valuesAsJson":
        return grid((r, c) => valueAsJson(model.shown(sheet, r, c)));
      default:
        throw new ExcelApiError("InvalidArgument", `the stand-in Range has no property ${property}`);
    }
  }

  get address(): string {
    return this.loadedValue("address");
  }
  get rowIndex(): number {
    return this.loadedValue("rowIndex");
  }
  get columnIndex(): number {
    return this.loadedValue("columnIndex");
  }
  get rowCount(): number {
    return this.loadedValue("rowCount");
  }
  get columnCount(): number {
    return this.loadedValue("columnCount");
  }
  get values(): unknown[][] {
    return this.loadedValue("values");
  }
  set values(values: unknown[][]) {
    this.writeContents(values, "values");
  }
  get formulas(): unknown[][] {
    return this.loadedValue("formulas");
  }
  set formulas(formulas: unknown[][]) {
    this.writeContents(formulas, "formulas");
  }
  get valueTypes(): string[][] {
    return this.loadedValue("valueTypes");
  }
  get text(): string[][] {
    return this.loadedValue("text");
  }
  get valuesAsJson(): unknown[][] {
    return this.loadedValue("valuesAsJson");
  }
  get numberFormat(): unknown[][] {
    return this.loadedValue("numberFormat");
  }
  set numberFormat(formats: unknown[][]) {
    this.act(({ sheet, rect }) => {
      const grid = fit(formats, rect, "numberFormat");
      this.host.model.format(sheet, rect, (cell, i, j) => (cell.numberFormat = String(grid[i][j])));
    });
  }

  /** Range.worksheet: a navigation property, usable without load. */
  get worksheet(): WorksheetProxy {
    return new WorksheetProxy(this.context, () => this.require().sheet);
  }

  getCell(row: number, column: number): RangeProxy {
    return this.derived(({ sheet, rect }) => ({ sheet, rect: { row: rect.row + row, column: rect.column + column, rows: 1, columns: 1 } }));
  }

  getResizedRange(deltaRows: number, deltaColumns: number): RangeProxy {
    return this.derived(({ sheet, rect }) => ({
      sheet,
      rect: { ...rect, rows: rect.rows + deltaRows, columns: rect.columns + deltaColumns },
    }));
  }

  getSurroundingRegion(): RangeProxy {
    return this.derived(({ sheet, rect }) => ({ sheet, rect: this.host.model.surroundingRegion(sheet, rect.row, rect.column) }));
  }

  /** The formula cell of the spill a single cell is in; a null object for anything else (a larger range too). */
  getSpillParentOrNullObject(): RangeProxy {
    return new RangeProxy(
      this.context,
      () => {
        const { sheet, rect } = this.require();
        if (rect.rows !== 1 || rect.columns !== 1) return null;
        const spill = this.host.model.spillAt(sheet, rect.row, rect.column);
        return spill && { sheet, rect: { row: spill.anchor[0], column: spill.anchor[1], rows: 1, columns: 1 } };
      },
      true,
    );
  }

  /** The range a formula cell's array spills into (itself included); a null object when it does not spill. */
  getSpillingToRangeOrNullObject(): RangeProxy {
    return new RangeProxy(
      this.context,
      () => {
        const { sheet, rect } = this.require();
        const spill = this.host.model.spillAt(sheet, rect.row, rect.column);
        const isAnchor = spill && spill.anchor[0] === rect.row && spill.anchor[1] === rect.column;
        return isAnchor ? { sheet, rect: spill.rect } : null;
      },
      true,
    );
  }

  getTables(fullyContained = false): TableCollectionProxy {
    return new TableCollectionProxy(this.context, () => {
      const { sheet, rect } = this.require();
      return this.host.model.tablesIn(sheet, rect, fullyContained);
    });
  }

  calculate(): void {
    this.act(({ sheet, rect }) => this.host.calculation.calculate(sheet, rect));
  }

  clear(applyTo: string = "All"): void {
    this.act(({ sheet, rect }) => {
      if (applyTo === "All" || applyTo === "Contents") this.host.model.setContents(sheet, rect, blank(rect));
      if (applyTo === "All" || applyTo === "Formats") {
        this.host.model.format(sheet, rect, (cell) => {
          delete cell.bold;
          delete cell.italic;
          delete cell.numberFormat;
        });
      }
    });
  }

  private derived(make: (target: RangeTarget) => RangeTarget): RangeProxy {
    return new RangeProxy(this.context, () => checkRect(make(this.require())));
  }

  private writeContents(input: unknown[][], property: string): void {
    this.act(({ sheet, rect }) => {
      const grid = fit(input, rect, property);
      const contents = grid.map((row, i) =>
        row.map((value, j) => parseInput(value, sheet.cells.get(`${rect.row + i},${rect.column + j}`)?.numberFormat)),
      );
      this.host.model.setContents(sheet, rect, contents);
    });
  }
}

/** Range.format: font.bold / font.italic, fill.color and autofitColumns. */
export class RangeFormatProxy {
  readonly font: { bold: boolean; italic: boolean };
  readonly fill: { color: string };

  constructor(private readonly range: RangeProxy) {
    const style = (property: "bold" | "italic") => ({
      set: (on: boolean) =>
        range.context.enqueue(() => {
          const { sheet, rect } = range.require();
          range.context.host.model.format(sheet, rect, (cell) => (cell[property] = on));
        }),
      get: () => {
        throw new ExcelApiError("PropertyNotLoaded", `the stand-in does not read font.${property}; use the host's cellInfo()`);
      },
    });
    this.font = Object.defineProperties({} as { bold: boolean; italic: boolean }, { bold: style("bold"), italic: style("italic") });
    this.fill = Object.defineProperty({} as { color: string }, "color", {
      set: (color: string) =>
        range.context.enqueue(() => {
          const { sheet, rect } = range.require();
          range.context.host.model.format(sheet, rect, (cell) => (cell.fill = color));
        }),
      get: () => {
        throw new ExcelApiError("PropertyNotLoaded", "the stand-in does not read fill.color; use the host's cellInfo()");
      },
    });
  }

  autofitColumns(): void {
    this.range.context.enqueue(() => {
      const { sheet, rect } = this.range.require();
      sheet.autofitted.push(formatAddress(sheet.name, rect));
    });
  }
}

/** A range given as an address (with or without sheet) or a Range proxy, on `fallback` when it names no sheet. */
export function targetOf(context: RequestContext, address: string | RangeProxy, fallback: SheetModel): RangeTarget {
  if (typeof address !== "string") return address.require();
  const parsed = parseAddress(address);
  return { sheet: parsed.sheet === null ? fallback : context.host.model.requireSheet(parsed.sheet), rect: parsed.rect };
}

function checkRect(target: RangeTarget): RangeTarget {
  const { rect } = target;
  if (
    rect.rows < 1 ||
    rect.columns < 1 ||
    rect.row < 0 ||
    rect.column < 0 ||
    rect.row + rect.rows > MAX_ROWS ||
    rect.column + rect.columns > MAX_COLUMNS
  ) {
    throw new ExcelApiError("InvalidArgument", "The range is outside the worksheet or has no cells.");
  }
  return target;
}

/** Checks that a 2-D array matches the range (Excel refuses other shapes); a single value fills every cell. */
function fit(input: unknown, rect: Rect, property: string): unknown[][] {
  if (!Array.isArray(input)) return Array.from({ length: rect.rows }, () => Array.from({ length: rect.columns }, () => input));
  if (input.length !== rect.rows || input.some((row) => !Array.isArray(row) || row.length !== rect.columns)) {
    throw new ExcelApiError(
      "InvalidArgument",
      `The number of rows or columns in the input array for ${property} doesn't match the size or dimensions of the range.`,
    );
  }
  return input as unknown[][];
}

function blank(rect: Rect) {
  return Array.from({ length: rect.rows }, () => Array.from({ length: rect.columns }, () => ({})));
}
