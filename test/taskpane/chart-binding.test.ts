// The rules of a chart bound to a spill, and what the pane offers to chart: which cells a
// series reads, the registry read defensively, and the block a chart across places reads.
import { dataRowsOf, parseRegistry, seriesCells, uniqueChartName } from "../../src/taskpane/chart-binding";
import { marketFigures, placesBlock, placesChartSpec, placesOf } from "../../src/taskpane/chart-choices";

describe("seriesCells and dataRowsOf", () => {
  test("each plotted column under the header, named by its header cell, against the x column", () => {
    expect(seriesCells({ row: 2, column: 3, rows: 5, columns: 3 }, 0, [2, 1])).toEqual({
      x: { row: 3, column: 3, rows: 4, columns: 1 },
      series: [
        { name: { row: 2, column: 5, rows: 1, columns: 1 }, values: { row: 3, column: 5, rows: 4, columns: 1 } },
        { name: { row: 2, column: 4, rows: 1, columns: 1 }, values: { row: 3, column: 4, rows: 4, columns: 1 } },
      ],
    });
  });

  test("nothing to bind: a header alone, no data row, or a column the spill no longer has", () => {
    expect(seriesCells({ row: 0, column: 0, rows: 1, columns: 3 }, 0, [1])).toBeNull();
    expect(seriesCells({ row: 0, column: 0, rows: 5, columns: 3 }, 0, [1], 0)).toBeNull();
    expect(seriesCells({ row: 0, column: 0, rows: 5, columns: 2 }, 0, [2])).toBeNull();
  });

  test("trailing rows without a number to plot (a note row, rows still calculating) are left out; a gap inside stays", () => {
    const values = [
      ["period_end", "vacancy_rate"],
      [1, 0.05],
      [2, ""],
      [3, 0.06],
      ["Thin: 2024-Q1.", ""],
    ];
    expect(dataRowsOf(values, [1])).toBe(3);
    expect(
      dataRowsOf(
        [
          ["geography", "vacancy_rate"],
          ["TX", "#BUSY!"],
        ],
        [1],
      ),
    ).toBe(0);
  });
});

describe("the registry", () => {
  test("read from the setting's JSON; anything that is not a binding is dropped, bad JSON is none", () => {
    const good = { chart: "PROP x", sheet: "Market", anchor: "Market!A1", xColumn: 0, yColumns: [1], bound: null };
    expect(parseRegistry(JSON.stringify([good, { chart: 3 }, { ...good, yColumns: [-1] }, { ...good, source: "table" }]))).toEqual([good]);
    expect(parseRegistry("{not json")).toEqual([]);
    expect(parseRegistry(undefined)).toEqual([]);
  });

  test("chart names are unique on their sheet", () => {
    expect(uniqueChartName("Vacancy rate", [])).toBe("PROP Vacancy rate");
    expect(uniqueChartName("Vacancy rate", ["prop vacancy rate", "PROP Vacancy rate (2)"])).toBe("PROP Vacancy rate (3)");
  });
});

describe("a market's figure across places", () => {
  test("places one a line or separated by ;, each once; none or too many is said", () => {
    expect(placesOf(" Austin, TX \n\nDallas, TX; austin, tx;TX")).toEqual(["Austin, TX", "Dallas, TX", "TX"]);
    expect(() => placesOf(" \n ")).toThrow(/one a line/);
    expect(() => placesOf(Array.from({ length: 26 }, (_, i) => `${10000 + i}`).join("\n"))).toThrow(/at most 25 places; 26/);
  });

  test("the block: a header, then each place beside =PROP.MARKET of its own cell", () => {
    expect(placesBlock(["Austin, TX", 'The "Q", NY'], "office", "vacancy_rate", { row: 59, column: 2 })).toEqual([
      ["geography", "vacancy_rate"],
      ["Austin, TX", { formula: '=PROP.MARKET($C61,"office","vacancy_rate")' }],
      ['The "Q", NY', { formula: '=PROP.MARKET($C62,"office","vacancy_rate")' }],
    ]);
  });

  test("the figures offered are numbers (rates, rents, counts), not flags or names; the chart reads the block", () => {
    const fields = marketFigures().map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(["vacancy_rate", "asking_rent_sqft_year", "median_cap_rate", "property_count"]));
    expect(fields).not.toEqual(expect.arrayContaining(["thin"]));
    expect(fields).not.toContain("geography_name");
    const vacancy = marketFigures().find((f) => f.field === "vacancy_rate")!;
    expect(placesChartSpec("'My sheet'!C60", "office", vacancy)).toEqual({
      anchor: "'My sheet'!C60",
      kind: "column",
      title: "Vacancy rate, office by place",
      xColumn: 0,
      yColumns: [1],
      placeAt: "'My sheet'!F60",
      source: "block",
    });
  });
});
