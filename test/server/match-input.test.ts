// A match row as the matcher reads it: its address fields written as one line (each field unless
// the line already names it), so one reading serves both forms, and a ZIP code that lost its
// leading zero after the state read as the ZIP code.
import { RowRefusal, lineOf, readRow } from "../../src/server/data/match-input";

test("a row's fields are written as the one line an analyst would type, none of them twice", () => {
  expect(lineOf("623 Main St", "Austin", "TX", "78721")).toBe("623 Main St, Austin, TX 78721");
  expect(lineOf("623 Main St, Suite 200", "Austin", "TX", null)).toBe("623 Main St, Suite 200, Austin, TX");
  expect(lineOf("623 Main St, Austin, TX 78721", "Austin", "TX", "78721")).toBe("623 Main St, Austin, TX 78721");
  expect(lineOf("623 Main St, Austin, Texas", undefined, "TX", "78721")).toBe("623 Main St, Austin, Texas, 78721");
  expect(lineOf("623 Main St", undefined, null, null)).toBe("623 Main St");
});

test("a row in columns and the same row in one line are read alike", () => {
  const columns = readRow({ address: "623 N Washington Blvd", city: "Saint Louis", state: "Missouri", zip: "63101-1234" });
  const line = readRow({ address: "623 N Washington Blvd, St. Louis, MO 63101" });
  if (columns instanceof RowRefusal || line instanceof RowRefusal) throw new Error("refused");
  expect(columns.address).toMatchObject({ number: "623", zip: "63101", state: "MO" });
  expect(new Set(columns.address!.keys)).toEqual(new Set(line.address!.keys));
});

test("four digits after a state are a ZIP code without its leading zero; elsewhere they are not", () => {
  const read = (address: string) => {
    const row = readRow({ address });
    if (row instanceof RowRefusal) throw new Error(row.detail);
    return row.address!;
  };
  expect(read("1 Main St, Boston, MA 2134").zip).toBe("02134");
  expect(read("1 Main St, Boston, Massachusetts 2134").zip).toBe("02134");
  expect(read("1 Main St, Boston 2134").zip).toBeNull();
  // In columns the same: four digits beside a state are the ZIP code; without one they are refused, saying what to do.
  const columns = readRow({ address: "1 Main St", city: "Boston", state: "MA", zip: "2134" });
  expect(columns instanceof RowRefusal ? columns.detail : columns.address!.zip).toBe("02134");
  const alone = readRow({ address: "1 Main St", zip: "2134" });
  expect(alone).toBeInstanceOf(RowRefusal);
  expect((alone as RowRefusal).detail).toMatch(/dropped its leading zero, give the state or write it as 02134/);
});

test("a city that names New York City's places looks them up under each of their names", () => {
  const row = readRow({ address: "1068 Hill Dr, New York, NY" });
  if (row instanceof RowRefusal) throw new Error(row.detail);
  expect(row.address!.keys).toEqual(expect.arrayContaining(["C|NY|NEW YORK|1068", "C|NY|MANHATTAN|1068", "C|NY|NEW YORK CITY|1068"]));
});
