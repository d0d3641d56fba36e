// The packed market history row (src/snapshot/history-codec.ts): every figure comes back as it
// went in, in the API's units, whatever its sign, size or gaps.
import { MARKET_HISTORY_METRIC_NAMES } from "../../src/contract/history";
import { decodeHistory, HistoryEncoder, historyQuarters, type SeriesFigures } from "../../src/snapshot/history-codec";

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
