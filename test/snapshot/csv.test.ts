// The RFC 4180 parser the importer uses.
import { CsvParser, CsvSyntaxError, parseCsv, type CsvRecord } from "../../src/snapshot/import/csv";

test("plain records, LF or CRLF, with line numbers; blank lines skipped", () => {
  expect(parseCsv("a,b,c\r\n1,2,3\n\n4,,6\n")).toEqual([
    { fields: ["a", "b", "c"], line: 1 },
    { fields: ["1", "2", "3"], line: 2 },
    { fields: ["4", "", "6"], line: 4 },
  ]);
});

test("quoted fields hold commas, doubled quotes and line breaks", () => {
  const text = 'id,name,address\n1,"Smith, Jones & Co.","12 ""Old"" Mill Rd\nSuite 4"\n2,"",x\n';
  expect(parseCsv(text)).toEqual([
    { fields: ["id", "name", "address"], line: 1 },
    { fields: ["1", "Smith, Jones & Co.", '12 "Old" Mill Rd\nSuite 4'], line: 2 },
    { fields: ["2", "", "x"], line: 4 },
  ]);
});

test("a last record without a line break, and trailing empty fields", () => {
  expect(parseCsv("a,b\n1,")).toEqual([
    { fields: ["a", "b"], line: 1 },
    { fields: ["1", ""], line: 2 },
  ]);
});

test("chunk boundaries do not matter", () => {
  const text = 'x,y\r\n"a ""b"", c","d\r\ne"\r\n3,4\r\n';
  const whole = parseCsv(text);
  const pieces: CsvRecord[] = [];
  const p = new CsvParser((r) => pieces.push(r));
  for (const ch of text) p.push(ch); // one character at a time splits every quote and CRLF
  p.end();
  expect(pieces).toEqual(whole);
  expect(whole[1].fields).toEqual(['a "b", c', "d\r\ne"]);
  expect(whole[2].line).toBe(4);
});

test("malformed quoting is an error with the line it is on", () => {
  const bad = (text: string) => {
    try {
      parseCsv(text);
    } catch (e) {
      return e instanceof CsvSyntaxError ? [e.line, e.message] : e;
    }
    return "no error";
  };
  expect(bad('a,b\n1,"open\n2,3\n')).toEqual([2, expect.stringContaining("not closed")]);
  expect(bad('a,b\n1,ab"c\n')).toEqual([2, expect.stringContaining("quote inside an unquoted field")]);
  expect(bad('a,b\n\n1,"x"y\n')).toEqual([3, expect.stringContaining("after a closing quote")]);
});
