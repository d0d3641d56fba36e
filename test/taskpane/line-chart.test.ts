// The preview's line chart as numbers: points read from preview rows (dates on x, a missing
// value a gap), scaled into the box, and the words a screen reader hears.
import { PREVIEW_BOX, cellNumber, lineChart, numericColumns, seriesOf } from "../../src/taskpane/line-chart";

const date = (serial: number) => ({ type: "Double" as const, basicValue: serial, numberFormat: "yyyy-mm-dd" });
const rate = (fraction: number) => ({ type: "Double" as const, basicValue: fraction, numberFormat: "0.00%" });
const { padding } = PREVIEW_BOX;
const plotLeft = padding.left;
const plotRight = PREVIEW_BOX.width - padding.right;
const plotTop = padding.top;
const plotBottom = PREVIEW_BOX.height - padding.bottom;

describe("seriesOf", () => {
  test("dates and formatted figures become numbers; empty text is a gap, not 0; a note row is no point", () => {
    const rows = [
      [date(45473), rate(0.0852), 2628],
      [date(45382), rate(0.081), ""],
      [date(45565), "", 2700],
      ["Thin (fewer than 5 properties): 2024-Q1.", "", ""],
    ];
    const points = seriesOf(rows, 0, 1);
    // Oldest first, whatever the rows' order.
    expect(points.map((p) => [p.x, p.y])).toEqual([
      [45382, 0.081],
      [45473, 0.0852],
      [45565, null],
    ]);
    expect(seriesOf(rows, 0, 2).map((p) => p.y)).toEqual([null, 2628, 2700]);
  });

  test("cellNumber takes numbers only", () => {
    expect([3, rate(0.1), "", "12", true, null, NaN].map(cellNumber)).toEqual([3, 0.1, null, null, null, null, null]);
  });

  test("numericColumns lists the figures, not the dates column asked to leave out, nor text columns", () => {
    const header = ["date", "event_type", "price", "cap_rate"];
    const rows = [
      [date(45000), "sale", 1_000_000, ""],
      [date(45100), "lease_start", "", rate(0.05)],
    ];
    expect(numericColumns(header, rows, [0])).toEqual([2, 3]);
  });
});

describe("lineChart", () => {
  test("a series spans the plot: the lowest value at the bottom, the highest at the top, first and last date at the ends", () => {
    const chart = lineChart(
      seriesOf(
        [
          [date(45000), 10],
          [date(45100), 30],
          [date(45200), 20],
        ],
        0,
        1,
      ),
      "Rent",
    )!;
    expect(chart.runs).toEqual([
      [
        { x: plotLeft, y: plotBottom },
        { x: (plotLeft + plotRight) / 2, y: plotTop },
        { x: plotRight, y: (plotTop + plotBottom) / 2 },
      ],
    ]);
    expect(chart.dots).toEqual([]);
    expect(chart.xLabels.map((l) => l.text)).toEqual(["2023-03-15", "2023-10-01"]);
    expect(chart.yLabels.map((l) => l.text)).toEqual(["30", "10"]);
    expect(chart.summary).toBe("Rent from 2023-03-15 to 2023-10-01: first 10 (2023-03-15), last 20 (2023-10-01); range 10 to 30.");
  });

  test("a missing value breaks the line into runs; a run of one point is a dot; the gap is said", () => {
    const rows = [
      [1, rate(0.05)],
      [2, rate(0.06)],
      [3, ""],
      [4, rate(0.07)],
      [5, ""],
      [6, rate(0.04)],
      [7, rate(0.05)],
    ];
    const chart = lineChart(seriesOf(rows, 0, 1), "Vacancy rate")!;
    expect(chart.runs).toHaveLength(2);
    expect(chart.runs.map((r) => r.length)).toEqual([2, 2]);
    expect(chart.dots).toHaveLength(1);
    // No point sits on a zero line: 4% is the bottom of the plot, not 0.
    expect(Math.max(...chart.runs.flat().map((p) => p.y), chart.dots[0].y)).toBe(plotBottom);
    expect(chart.summary).toBe("Vacancy rate from 1 to 7: first 5.00% (1), last 5.00% (7); range 4.00% to 7.00%; 2 of 7 without a value.");
  });

  test("a single point sits in the middle, as a dot", () => {
    const chart = lineChart(seriesOf([[date(45000), 12.5]], 0, 1), "Rent")!;
    expect(chart.runs).toEqual([]);
    expect(chart.dots).toEqual([{ x: (plotLeft + plotRight) / 2, y: (plotTop + plotBottom) / 2 }]);
    expect(chart.xLabels).toHaveLength(1);
    expect(chart.summary).toBe("Rent on 2023-03-15: one value, 12.5 (2023-03-15).");
  });

  test("equal values draw a flat line across the middle, with one y label", () => {
    const chart = lineChart(
      seriesOf(
        [
          [1, 0],
          [2, 0],
          [3, 0],
        ],
        0,
        1,
      ),
      "Deliveries",
    )!;
    expect(new Set(chart.runs[0].map((p) => p.y))).toEqual(new Set([(plotTop + plotBottom) / 2]));
    expect(chart.yLabels).toHaveLength(1);
    expect(chart.summary).toMatch(/range 0 to 0\.$/);
  });

  test("nothing to draw when no row has a value", () => {
    expect(
      lineChart(
        seriesOf(
          [
            [1, ""],
            [2, ""],
          ],
          0,
          1,
        ),
        "Rent",
      ),
    ).toBeNull();
    expect(lineChart([], "Rent")).toBeNull();
  });
});
