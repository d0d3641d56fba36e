// Range.conditionalFormats in the stand-in: custom formats (a rule formula and a fill) over a
// rectangle of one sheet, as excel-workbook.ts marks changed cells with. Rules are not
// evaluated: a cell shows the fill of the last custom format covering it.
import { overlaps } from "./addresses";
import { ClientObject, CollectionProxy, ExcelApiError } from "./api-base";
import type { RangeProxy } from "./api-range";
import type { ConditionalFormatModel } from "./workbook-model";

export class ConditionalFormatCollectionProxy extends CollectionProxy<ConditionalFormatModel, ConditionalFormatProxy> {
  constructor(private readonly range: RangeProxy) {
    // Excel's collection holds the formats that intersect the range.
    super(range.context, () => {
      const { sheet, rect } = range.require();
      return sheet.conditionalFormats.filter((f) => overlaps(f.rect, rect));
    });
  }

  protected item(format: ConditionalFormatModel): ConditionalFormatProxy {
    return new ConditionalFormatProxy(this.context, () => format);
  }

  add(type: string): ConditionalFormatProxy {
    if (type !== "Custom") throw new ExcelApiError("InvalidArgument", `the stand-in adds only Custom conditional formats, not ${type}`);
    let added: ConditionalFormatModel | null = null;
    this.context.enqueue(() => {
      const { sheet, rect } = this.range.require();
      added = { sheet, rect, type, formula: null, fill: null };
      sheet.conditionalFormats.push(added);
      this.context.host.model.viewChanged(sheet);
    });
    return new ConditionalFormatProxy(this.context, () => added);
  }
}

export class ConditionalFormatProxy extends ClientObject<ConditionalFormatModel> {
  protected readonly scalarProperties = ["type"];

  protected read(format: ConditionalFormatModel, property: string): unknown {
    if (property === "type") return format.type;
    throw new ExcelApiError("InvalidArgument", `the stand-in ConditionalFormat has no property ${property}`);
  }

  get type(): string {
    return this.loadedValue("type");
  }

  /** The custom format's rule and fill (Excel refuses this on formats of another type). */
  get custom() {
    const rule = new ConditionalRuleProxy(this.context, () => {
      const format = this.require();
      if (format.type !== "Custom") throw new ExcelApiError("InvalidArgument", "This conditional format is not a custom one.");
      return format;
    });
    const fill = Object.defineProperty({} as { color: string }, "color", {
      set: (color: string) => this.act((format) => (format.fill = color)),
      get: () => {
        throw new ExcelApiError("PropertyNotLoaded", "the stand-in does not read a conditional format's fill");
      },
    });
    return { rule, format: { fill } };
  }

  delete(): void {
    this.act((format) => {
      const list = format.sheet.conditionalFormats;
      list.splice(list.indexOf(format), 1);
      this.context.host.model.viewChanged(format.sheet);
    });
  }
}

class ConditionalRuleProxy extends ClientObject<ConditionalFormatModel> {
  protected readonly scalarProperties = ["formula"];

  protected read(format: ConditionalFormatModel, property: string): unknown {
    if (property === "formula") return format.formula;
    throw new ExcelApiError("InvalidArgument", `the stand-in ConditionalRangeFormatRule has no property ${property}`);
  }

  get formula(): string {
    return this.loadedValue("formula");
  }
  set formula(formula: string) {
    this.act((format) => (format.formula = formula));
  }
}
