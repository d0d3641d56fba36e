// The pane's preview and the formula it inserts show one answer the same way: for every search
// kind, the function as its JSDoc wrapper runs it (over a session that answers with a fixed
// answer) and previewRows over that answer give the same header and the same values.
import type { AddinSession } from "../../src/shared/addin-session";
import type { FunctionContext } from "../../src/functions/call-context";
import type { ListFunction } from "../../src/functions/list-table";
import { marketFigures } from "../../src/functions/market";
import { marketHistory } from "../../src/functions/market-history";
import { RESOURCES, type ResourceName } from "../../src/functions/record-fields";
import { SEARCH_KINDS, type SearchKind } from "../../src/taskpane/search-kinds";
import { formulaArgs, previewRows, type SearchAnswer } from "../../src/taskpane/search-request";
import { sampleSearch } from "./sample-searches";

/** A record holding every field of `resource`, each a value of its kind; every fourth one missing. */
function fullRecord(resource: ResourceName): Record<string, unknown> {
  return Object.fromEntries(
    RESOURCES[resource].map((f, i) => {
      if (i % 4 === 3 && f.name !== "id") return [f.name, null];
      if (f.format === "date") return [f.name, "2026-03-15"];
      if (f.format === "datetime") return [f.name, "2026-03-15T18:30:00Z"];
      if (f.format === "fraction") return [f.name, 0.0625];
      if (f.type.startsWith("integer")) return [f.name, 12];
      if (f.type.startsWith("number")) return [f.name, 1234.5];
      if (f.type.startsWith("list")) return [f.name, ["lease_rollover", "long_hold"]];
      if (f.type.startsWith("boolean")) return [f.name, true];
      return [f.name, `${f.name} text`];
    }),
  );
}

const SERIES = {
  object: "market_history",
  geography_name: "Texas",
  asset_type: "industrial",
  interval: "quarter",
  metrics: ["vacancy_rate", "sales_volume"],
  units: { vacancy_rate: "fraction", sales_volume: "usd" },
  periods: [
    {
      period: "2024-Q1",
      period_start: "2024-01-01",
      period_end: "2024-03-31",
      complete: true,
      property_count: 40,
      thin: false,
      values: { vacancy_rate: 0.05, sales_volume: null },
    },
    {
      period: "2024-Q2",
      period_start: "2024-04-01",
      period_end: "2024-06-30",
      complete: true,
      property_count: 41,
      thin: false,
      values: { vacancy_rate: 0.051, sales_volume: 2e6 },
    },
  ],
};

function answerOf(kind: SearchKind): unknown {
  const { resource } = SEARCH_KINDS[kind];
  if (kind === "markethistory") return SERIES;
  if (kind === "market") return { object: "market_snapshot", ...fullRecord(resource) };
  const data = [fullRecord(resource), fullRecord(resource)];
  return { object: "list", data, limit: 25, offset: 0, has_more: false, next_offset: null, total_count: data.length };
}

/** A context whose session answers every request with `answer`. */
function answering(answer: unknown): FunctionContext {
  const session = {
    api: { get: async () => answer, market: async () => answer },
    marketHistory: { series: async () => answer },
  } as unknown as AddinSession;
  return { session };
}

/** What the formula spills for the kind's sample search, run as its wrapper runs it. */
async function formulaSpill(kind: SearchKind, answer: unknown): Promise<unknown[][]> {
  const { args, options } = formulaArgs(sampleSearch(kind));
  const ctx = answering(answer);
  if (kind === "market") return marketFigures(args[0], args[1], args[2], options, ctx);
  if (kind === "markethistory") return marketHistory(args[0], args[1], args[2], args[3], args[4], options, ctx);
  return (SEARCH_KINDS[kind].def as ListFunction).run(args, options, ctx);
}

/** A cell's value: a formatted number's number (the preview writes values with their formats). */
const valueOf = (cell: unknown) =>
  typeof cell === "object" && cell !== null && "basicValue" in cell ? (cell as { basicValue: unknown }).basicValue : cell;

test.each(Object.keys(SEARCH_KINDS) as SearchKind[])(
  "%s: the preview's header and values are the formula's spill of the same answer",
  async (kind) => {
    const answer = answerOf(kind);
    const spill = await formulaSpill(kind, answer);
    const preview = previewRows(sampleSearch(kind), answer as SearchAnswer);
    expect([preview.header, ...preview.rows].map((row) => row.map(valueOf))).toEqual(spill.map((row) => row.map(valueOf)));
    expect(preview.header.length).toBeGreaterThan(1);
  },
);
