// The packed market history row (src/snapshot/history-codec.ts): every figure comes back as it
// went in, in the API's units, whatever its sign, size or gaps.
import { MARKET_HISTORY_METRIC_NAMES } from "../../src/contract/history";
import { decodeHistory, HistoryEncoder, historyQuarters, marketQuarters, type SeriesFigures } from "../../src/snapshot/history-codec";
import { historySplit } from "../../src/snapshot/history-tables";
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

test("historySplit is the first quarter of the capture date's year, whatever the month", () => {
  expect(historySplit("2026-11-01")).toBe(quarterOf("2026-01-01"));
  expect(historySplit("2026-01-01")).toBe(quarterOf("2026-01-01"));
  expect(historySplit("2026-12-31")).toBe(quarterOf("2026-01-01"));
  expect(historySplit("2027-01-01")).toBe(quarterOf("2027-01-01"));
});
