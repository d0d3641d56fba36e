// The packed market history row (src/snapshot/history-codec.ts): every figure comes back as it
// went in, in the API's units, whatever its sign, size or gaps.
import { MARKET_HISTORY_METRIC_NAMES } from "../../src/contract/history";
import { decodeHistory, HistoryEncoder, historyQuarters, marketQuarters, type SeriesFigures } from "../../src/snapshot/history-codec";
import { historyYears } from "../../src/snapshot/history-tables";
import { quarterOf } from "../../src/contract/periods";

const N = 6;

function seriesOf(fill: (metric: string, j: number) => number | null): SeriesFigures {
  return Object.fromEntries(
    MARKET_HISTORY_METRIC_NAMES.map((m) => [m, Array.from({ length: N }, (_, j) => fill(m, j))]),
  ) as unknown as SeriesFigures;
}

const roundTrip = (s: SeriesFigures) => decodeHistory(Buffer.from(new HistoryEncoder(N).encode(s)), N);
const asLists = (s: SeriesFigures) => MARKET_HISTORY_METRIC_NAMES.map((m) => [...s[m]]);

test("figures in their units, gaps, negative absorption and national-size totals decode to the same numbers", () => {
  const s = seriesOf((m, j) => {
    if (j === 2) return null;
    if (m === "vacancy_rate") return [0.2048, 0.0513, 0, 0.95, 0.1234, 0.0001][j];
    if (m === "median_cap_rate") return [0.0625, 0.07, 0, 0.0599, 0.1, 0.0412][j];
    if (m === "asking_rent_sqft_year") return [28.15, 28.4, 0, 0.01, 131.99, 9.5][j];
    if (m.startsWith("net_absorption")) return [-154911, 2200, 0, -1, 0, 987654321][j];
    if (m === "sales_volume") return [401_900_000_000, 0, 0, 1, 7_491_000, 12][j];
    return [0, 5, 0, 17, 3_000_000_000, 4][j];
  });
  expect(roundTrip(s)).toEqual(asLists(s));
});

test("a figure without a scale that is not whole, or too large for the varints, is kept exactly (doubles)", () => {
  const s = seriesOf((m, j) => (m === "asking_rent_unit_month" ? 1234.5 + j : m === "sales_volume" ? 2 ** 52 + j * 2 : j));
  expect(roundTrip(s)).toEqual(asLists(s));
});

test("a series with every quarter a gap decodes to nulls, and the first figure may follow gaps", () => {
  const s = seriesOf((m, j) => (m === "vacancy_rate" ? null : j < 4 ? null : 1000 + j));
  expect(roundTrip(s)).toEqual(asLists(s));
});

test("a metric with no figure in the run is one byte, and one with the same figure in every quarter is that figure once", () => {
  const s = seriesOf((m, j) => {
    if (m === "median_cap_rate") return null;
    if (m === "inventory_sqft") return 1_250_000;
    if (m === "vacancy_rate") return 0.0725;
    if (m === "sales_count") return 0;
    if (m === "net_absorption_sqft") return -4200;
    return 10 + j;
  });
  expect(roundTrip(s)).toEqual(asLists(s));
  // A metric's section: the blob of it alone, every other metric one byte (no figure).
  const sectionOf = (x: SeriesFigures, metric: keyof SeriesFigures) => {
    const only = seriesOf((m, j) => (m === metric ? x[metric][j] : null));
    return new HistoryEncoder(N).encode(only).length - (MARKET_HISTORY_METRIC_NAMES.length - 1);
  };
  expect(sectionOf(s, "median_cap_rate")).toBe(1);
  expect(sectionOf(s, "sales_count")).toBe(2);
  expect(sectionOf(s, "vacancy_rate")).toBe(3); // 725, zigzag 1450: two bytes of varint
  expect(sectionOf(s, "inventory_sqft")).toBe(1 + 4); // zigzag 2,500,000: 22 bits, four bytes
  expect(sectionOf(s, "net_absorption_sqft")).toBe(1 + 2);
  expect(sectionOf(s, "sales_volume")).toBe(1 + N);
});

test("a blob cut short or with bytes past its quarters is an error, not a wrong series", () => {
  const blob = Buffer.from(new HistoryEncoder(N).encode(seriesOf(() => 5)));
  expect(() => decodeHistory(Buffer.concat([blob, Buffer.from([1])]), N)).toThrow(/bytes past its 6 quarters/);
  expect(() => decodeHistory(blob.subarray(0, blob.length - 1), N)).toThrow(/ends before its 6 quarters/);
  expect(() => decodeHistory(Buffer.from([7]), N)).toThrow(/unknown section mode 7/);
});

test("historyQuarters gives the quarters asked for within the row's span, each labelled", () => {
  const figures = Buffer.from(new HistoryEncoder(N).encode(seriesOf((_, j) => j)));
  const row = { market: 9, first_quarter: 8000, quarters: N, figures };
  const got = historyQuarters(row, 7990, 8002);
  expect(got.map((q) => q.quarter)).toEqual([8000, 8001, 8002]);
  expect(got[2]).toMatchObject({ market: 9, quarter: 8002, sales_count: 2, vacancy_rate: 2 });
  expect(historyQuarters(row, 8004)).toHaveLength(2);
});

test("a run of a series encoded on its own stands alone: its first figure absolute, and it decodes to that run", () => {
  const s = seriesOf((m, j) => (m === "vacancy_rate" ? [0.2, 0.21, null, 0.25, 0.24, 0.3][j] : 1000 + 10 * j));
  const encoder = new HistoryEncoder(N);
  const head = Buffer.from(encoder.encode(s, 0, 4));
  const tail = Buffer.from(encoder.encode(s, 4, 2));
  expect(decodeHistory(head, 4)).toEqual(asLists(s).map((l) => l.slice(0, 4)));
  expect(decodeHistory(tail, 2)).toEqual(asLists(s).map((l) => l.slice(4)));
  expect(() => encoder.encode(s, 0, N + 1)).toThrow(/made for 6 quarters was given 7/);
});

test("marketQuarters joins a market's rows in order, decoding only the rows that hold quarters asked for", () => {
  const s = seriesOf((_, j) => j);
  const encoder = new HistoryEncoder(N);
  const closed = { market: 3, first_quarter: 8000, quarters: 4, figures: Buffer.from(encoder.encode(s, 0, 4)) };
  const current = { market: 3, first_quarter: 8004, quarters: 2, figures: Buffer.from(encoder.encode(s, 4, 2)) };
  expect(marketQuarters([closed, current], 8000, 8005)).toEqual(
    historyQuarters({ market: 3, first_quarter: 8000, quarters: N, figures: Buffer.from(encoder.encode(s)) }),
  );
  expect(marketQuarters([closed, current], 8002, 8004).map((q) => [q.quarter, q.sales_count])).toEqual([
    [8002, 2],
    [8003, 3],
    [8004, 4],
  ]);
  // A row outside the quarters asked for is not decoded (a corrupt one would throw).
  const corrupt = { ...closed, figures: Buffer.from([7]) };
  expect(marketQuarters([corrupt, current], 8004, 8005).map((q) => q.quarter)).toEqual([8004, 8005]);
});

test("historyYears makes one row per calendar year: whole years, then the capture's year to the quarter holding it", () => {
  const y2006 = quarterOf("2006-01-01");
  const runs = historyYears(y2006, quarterOf("2026-11-01") - y2006 + 1);
  expect(runs).toHaveLength(21);
  expect(runs[0]).toEqual({ first: y2006, quarters: 4 });
  expect(runs.every((r, i) => r.first === y2006 + 4 * i && r.quarters === 4)).toBe(true);
  // A year's close adds a row of one quarter and changes none of the rows before it.
  const closed = historyYears(y2006, quarterOf("2027-01-01") - y2006 + 1);
  expect(closed.slice(0, 21)).toEqual(runs);
  expect(closed[21]).toEqual({ first: quarterOf("2027-01-01"), quarters: 1 });
});

test("historyYears splits a span that starts or ends within a year at the year's turns, and covers every quarter once", () => {
  const q3 = quarterOf("2024-07-01");
  expect(historyYears(q3, 7)).toEqual([
    { first: q3, quarters: 2 },
    { first: quarterOf("2025-01-01"), quarters: 4 },
    { first: quarterOf("2026-01-01"), quarters: 1 },
  ]);
  expect(historyYears(q3, 1)).toEqual([{ first: q3, quarters: 1 }]);
  expect(historyYears(q3, 0)).toEqual([]);
});
