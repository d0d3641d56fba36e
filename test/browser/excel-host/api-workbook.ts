// Excel.run and the workbook-level objects of the stand-in: Workbook, worksheets, tables,
// defined names (always none), comments and Application.calculate; Range is in api-range.ts.
import { type Rect, formatAddress, parseAddress } from "./addresses";
import { ClientObject, CollectionProxy, ExcelApiError, type Host, RequestContext } from "./api-base";
import { RangeProxy, type RangeTarget, targetOf } from "./api-range";
import type { CommentModel, SheetModel, TableModel } from "./workbook-model";
import { ChartCollectionProxy, SettingCollectionProxy } from "./api-charts";

export class WorkbookProxy {
  readonly worksheets: WorksheetCollectionProxy;
  readonly tables: TableCollectionProxy;
  readonly names: NamedItemCollectionProxy;
  readonly comments: CommentCollectionProxy;
  readonly settings: SettingCollectionProxy;
  readonly application: { calculate(type?: string): void };

  constructor(private readonly context: RequestContext) {
    const { model, calculation } = context.host;
    this.worksheets = new WorksheetCollectionProxy(context, () => model.sheets);
    this.tables = new TableCollectionProxy(context, () => model.tables);
    this.names = new NamedItemCollectionProxy(context, () => []);
    this.comments = new CommentCollectionProxy(context, () => model.comments);
    this.settings = new SettingCollectionProxy(context);
    this.application = { calculate: () => context.enqueue(() => calculation.calculateAll()) };
  }

  getSelectedRange(): RangeProxy {
    const { model } = this.context.host;
    return new RangeProxy(this.context, () => ({ sheet: model.active, rect: model.active.selection }));
  }

  /** The active cell: the top-left cell of the selection. */
  getActiveCell(): RangeProxy {
    const { model } = this.context.host;
    return new RangeProxy(this.context, () => ({ sheet: model.active, rect: { ...model.active.selection, rows: 1, columns: 1 } }));
  }
}

export class WorksheetCollectionProxy extends CollectionProxy<SheetModel, WorksheetProxy> {
  protected item(sheet: SheetModel): WorksheetProxy {
    return new WorksheetProxy(this.context, () => sheet);
  }

  getItem(name: string): WorksheetProxy {
    return new WorksheetProxy(this.context, () => {
      const sheet = this.context.host.model.sheet(name);
      if (!sheet) throw new ExcelApiError("ItemNotFound", `The requested resource doesn't exist: worksheet "${name}".`);
      return sheet;
    });
  }

  getItemOrNullObject(name: string): WorksheetProxy {
    return new WorksheetProxy(this.context, () => this.context.host.model.sheet(name) ?? null, true);
  }

  /**
   * worksheets.onCalculated: the handler is called (later, as Excel raises events) after a
   * formula's result is recorded, with the sheet and the cell.
   */
  get onCalculated() {
    const { model } = this.context.host;
    return {
      add: (handler: (event: { type: string; worksheetId: string; address: string }) => unknown) => {
        let removed = false;
        model.onCalculated((sheet, row, column) => {
          if (removed) return;
          const address = formatAddress(sheet.name, { row, column, rows: 1, columns: 1 });
          setTimeout(() => void handler({ type: "WorksheetCalculated", worksheetId: sheet.name, address }), 0);
        });
        return { remove: () => void (removed = true) };
      },
    };
  }

  getActiveWorksheet(): WorksheetProxy {
    return new WorksheetProxy(this.context, () => this.context.host.model.active);
  }

  add(name: string): WorksheetProxy {
    let added: SheetModel | null = null;
    this.context.enqueue(() => {
      const { model } = this.context.host;
      if (!name || name.length > 31 || /[[\]:*?/\\]/.test(name) || /^'|'$/.test(name) || name.toLowerCase() === "history") {
        throw new ExcelApiError("InvalidArgument", `"${name}" is not a valid sheet name.`);
      }
      if (model.sheet(name)) throw new ExcelApiError("ItemAlreadyExists", `A sheet named "${name}" already exists.`);
      added = model.addSheet(name);
    });
    return new WorksheetProxy(this.context, () => added);
  }
}

export class WorksheetProxy extends ClientObject<SheetModel> {
  protected readonly scalarProperties = ["name"];

  protected read(sheet: SheetModel, property: string): unknown {
    if (property === "name") return sheet.name;
    throw new ExcelApiError("InvalidArgument", `the stand-in Worksheet has no property ${property}`);
  }

  get name(): string {
    return this.loadedValue("name");
  }

  get tables(): TableCollectionProxy {
    return new TableCollectionProxy(
      this.context,
      () => this.context.host.model.tables.filter((t) => t.sheet === this.require()),
      () => this.require(),
    );
  }

  get comments(): CommentCollectionProxy {
    return new CommentCollectionProxy(this.context, () => this.context.host.model.comments.filter((c) => c.sheet === this.require()));
  }

  get charts(): ChartCollectionProxy {
    return new ChartCollectionProxy(this.context, () => this.require());
  }

  get freezePanes() {
    return {
      freezeAt: (frozen: string | RangeProxy) =>
        this.act((sheet) => {
          sheet.frozenAt = formatAddress(sheet.name, targetOf(this.context, frozen, sheet).rect);
          this.context.host.model.viewChanged();
        }),
      freezeRows: (count: number) =>
        this.act((sheet) => {
          sheet.frozenAt = `${sheet.name}!1:${count}`;
          this.context.host.model.viewChanged();
        }),
    };
  }

  getRange(address?: string): RangeProxy {
    return new RangeProxy(this.context, () => {
      const sheet = this.require();
      if (address === undefined) return { sheet, rect: { row: 0, column: 0, rows: 1_048_576, columns: 16_384 } };
      const parsed = parseAddress(address);
      if (parsed.sheet !== null && parsed.sheet.toLowerCase() !== sheet.name.toLowerCase())
        throw new ExcelApiError("InvalidArgument", `${address} is not on ${sheet.name}`);
      return { sheet, rect: parsed.rect };
    });
  }

  getRangeByIndexes(row: number, column: number, rows: number, columns: number): RangeProxy {
    return this.range(() => ({ row, column, rows, columns }));
  }

  getCell(row: number, column: number): RangeProxy {
    return this.range(() => ({ row, column, rows: 1, columns: 1 }));
  }

  getUsedRangeOrNullObject(valuesOnly = false): RangeProxy {
    return new RangeProxy(
      this.context,
      () => {
        const sheet = this.require();
        const rect = this.context.host.model.usedRect(sheet, valuesOnly);
        return rect && { sheet, rect };
      },
      true,
    );
  }

  activate(): void {
    this.act((sheet) => {
      this.context.host.model.active = sheet;
      this.context.host.model.viewChanged();
    });
  }

  private range(rect: () => Rect): RangeProxy {
    return new RangeProxy(this.context, () => {
      const r = rect();
      if (r.rows < 1 || r.columns < 1 || r.row < 0 || r.column < 0) throw new ExcelApiError("InvalidArgument", "The range has no cells.");
      return { sheet: this.require(), rect: r };
    });
  }
}

export class TableCollectionProxy extends CollectionProxy<TableModel, TableProxy> {
  constructor(
    context: RequestContext,
    resolver: () => TableModel[],
    private readonly sheetForAdd: (() => SheetModel) | null = null,
  ) {
    super(context, resolver);
  }

  protected item(table: TableModel): TableProxy {
    return new TableProxy(this.context, () => table);
  }

  /** Makes a table of `address` (its first row the header when hasHeaders), named Table1, Table2, … until renamed. */
  add(address: string | RangeProxy, hasHeaders: boolean): TableProxy {
    let added: TableModel | null = null;
    this.context.enqueue(() => {
      const { model } = this.context.host;
      const target: RangeTarget = targetOf(this.context, address, this.sheetForAdd?.() ?? model.active);
      if (!hasHeaders) throw new ExcelApiError("InvalidArgument", "the stand-in makes tables with headers only");
      if (model.tablesIn(target.sheet, target.rect, false).length)
        throw new ExcelApiError("InvalidOperation", "A table can't overlap another table.");
      let n = model.tables.length + 1;
      while (model.tables.some((t) => t.name.toLowerCase() === `table${n}`)) n++;
      added = { name: `Table${n}`, sheet: target.sheet, rect: target.rect, style: "TableStyleMedium2" };
      model.tables.push(added);
      model.viewChanged();
    });
    return new TableProxy(this.context, () => added);
  }
}

const TABLE_NAME = /^[A-Za-z_\\][A-Za-z0-9_.\\]*$/;

export class TableProxy extends ClientObject<TableModel> {
  protected readonly scalarProperties = ["name", "style"];

  protected read(table: TableModel, property: string): unknown {
    if (property === "name" || property === "style") return table[property];
    throw new ExcelApiError("InvalidArgument", `the stand-in Table has no property ${property}`);
  }

  get name(): string {
    return this.loadedValue("name");
  }
  set name(name: string) {
    this.act((table) => {
      const { model } = this.context.host;
      const readsAsCell = /^[A-Za-z]{1,3}\d+$/.test(name) || /^(R\d*C?\d*|C\d*)$/i.test(name);
      if (!TABLE_NAME.test(name) || readsAsCell || name.length > 255)
        throw new ExcelApiError("InvalidArgument", `"${name}" is not a valid table name.`);
      if (model.tables.some((t) => t !== table && t.name.toLowerCase() === name.toLowerCase()))
        throw new ExcelApiError("InvalidArgument", `A table named "${name}" exists.`);
      table.name = name;
    });
  }
  get style(): string {
    return this.loadedValue("style");
  }
  set style(style: string) {
    this.act((table) => (table.style = style));
  }

  getRange(): RangeProxy {
    return new RangeProxy(this.context, () => ({ sheet: this.require().sheet, rect: this.require().rect }));
  }

  getHeaderRowRange(): RangeProxy {
    return new RangeProxy(this.context, () => ({ sheet: this.require().sheet, rect: { ...this.require().rect, rows: 1 } }));
  }

  /** The rows below the header (a table always keeps at least one). */
  getDataBodyRange(): RangeProxy {
    return new RangeProxy(this.context, () => {
      const { sheet, rect } = this.require();
      return { sheet, rect: { ...rect, row: rect.row + 1, rows: Math.max(1, rect.rows - 1) } };
    });
  }
}

class NamedItemProxy extends ClientObject<{ name: string }> {
  protected readonly scalarProperties = ["name"];
  protected read(item: { name: string }): unknown {
    return item.name;
  }
  get name(): string {
    return this.loadedValue("name");
  }
}

export class NamedItemCollectionProxy extends CollectionProxy<{ name: string }, NamedItemProxy> {
  protected item(item: { name: string }): NamedItemProxy {
    return new NamedItemProxy(this.context, () => item);
  }
}

export class CommentProxy extends ClientObject<CommentModel> {
  protected readonly scalarProperties = ["id", "content"];

  protected read(comment: CommentModel, property: string): unknown {
    if (property === "id" || property === "content") return comment[property];
    throw new ExcelApiError("InvalidArgument", `the stand-in Comment has no property ${property}`);
  }

  get id(): string {
    return this.loadedValue("id");
  }
  get content(): string {
    return this.loadedValue("content");
  }

  get replies() {
    return { add: (content: string) => this.act((comment) => comment.replies.push(content)) };
  }

  getLocation(): RangeProxy {
    return new RangeProxy(this.context, () => {
      const { sheet, row, column } = this.require();
      return { sheet, rect: { row, column, rows: 1, columns: 1 } };
    });
  }
}

export class CommentCollectionProxy extends CollectionProxy<CommentModel, CommentProxy> {
  protected item(comment: CommentModel): CommentProxy {
    return new CommentProxy(this.context, () => comment);
  }

  /** Adds a comment to one cell; Excel refuses a second comment on a cell that has one. */
  add(cellAddress: string | RangeProxy, content: string): CommentProxy {
    let added: CommentModel | null = null;
    this.context.enqueue(() => {
      const { model } = this.context.host;
      const { sheet, rect } = targetOf(this.context, cellAddress, model.active);
      if (rect.rows !== 1 || rect.columns !== 1) throw new ExcelApiError("InvalidArgument", "A comment goes on one cell.");
      added = model.addComment(sheet, rect.row, rect.column, content);
    });
    return new CommentProxy(this.context, () => added);
  }
}

/** The global Excel: run() and the enums add-ins name. */
export function excelNamespace(host: Host) {
  return {
    async run<T>(batch: (context: RequestContext & { workbook: WorkbookProxy }) => Promise<T>): Promise<T> {
      const context = new RequestContext(host) as RequestContext & { workbook: WorkbookProxy };
      context.workbook = new WorkbookProxy(context);
      const result = await batch(context);
      await context.sync();
      return result;
    },
    RequestContext,
    CalculationType: { recalculate: "Recalculate", full: "Full", fullRebuild: "FullRebuild" },
    ClearApplyTo: { all: "All", formats: "Formats", contents: "Contents" },
    RangeValueType: { empty: "Empty", string: "String", double: "Double", boolean: "Boolean", error: "Error" },
    ErrorCodes: { itemNotFound: "ItemNotFound", invalidArgument: "InvalidArgument", propertyNotLoaded: "PropertyNotLoaded" },
  };
}
