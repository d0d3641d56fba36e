// An RFC 4180 CSV parser that takes text in chunks (so large files stream): fields separated by
// commas, records by CRLF or LF, fields optionally in double quotes, where a quote is written
// as two quotes and commas and line breaks are literal. Each record carries the line it starts
// on, for error messages. Blank lines are skipped.

export interface CsvRecord {
  fields: string[];
  line: number;
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

export class CsvParser {
  private fields: string[] = [];
  private field = "";
  private quoted = false; // inside a quoted field
  private afterQuote = false; // just closed a quoted field: only a delimiter may follow
  private fieldStarted = false;
  private pendingQuote = false; // saw a quote inside a quoted field: escape or close?
  private line = 1;
  private recordLine = 1;
  private lastWasCR = false;

  constructor(private readonly onRecord: (r: CsvRecord) => void) {}

  push(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.pendingQuote) {
        this.pendingQuote = false;
        if (c === QUOTE) {
          this.field += '"';
          continue;
        }
        this.quoted = false;
        this.afterQuote = true;
      }
      if (this.quoted) {
        if (c === QUOTE) this.pendingQuote = true;
        else {
          if (c === LF) this.line++;
          this.field += text[i];
        }
        continue;
      }
      if (c === COMMA) this.endField();
      else if (c === LF || c === CR) {
        // CRLF counts as one line break.
        if (!(c === LF && this.lastWasCR)) {
          this.endRecord();
          this.line++;
        }
        this.recordLine = this.line;
      } else if (this.afterQuote) {
        throw new CsvSyntaxError(this.line, "unexpected text after a closing quote (quotes inside a field must be doubled)");
      } else if (c === QUOTE) {
        if (this.fieldStarted)
          throw new CsvSyntaxError(this.line, "a quote inside an unquoted field (quote the whole field and double the quote)");
        this.quoted = true;
        this.fieldStarted = true;
      } else {
        this.field += text[i];
        this.fieldStarted = true;
      }
      this.lastWasCR = c === CR;
    }
  }

  /** Call once at the end of input. */
  end(): void {
    if (this.pendingQuote) {
      this.pendingQuote = false;
      this.quoted = false;
      this.afterQuote = true;
    }
    if (this.quoted) throw new CsvSyntaxError(this.recordLine, "a quoted field is not closed before the end of the file");
    this.endRecord();
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = "";
    this.fieldStarted = false;
    this.afterQuote = false;
  }

  private endRecord(): void {
    const blank = this.fields.length === 0 && !this.fieldStarted && !this.afterQuote;
    this.endField();
    if (!blank) this.onRecord({ fields: this.fields, line: this.recordLine });
    this.fields = [];
  }
}

/** Parses a whole CSV string (for tests and small inputs). */
export function parseCsv(text: string): CsvRecord[] {
  const out: CsvRecord[] = [];
  const p = new CsvParser((r) => out.push(r));
  p.push(text);
  p.end();
  return out;
}
