// The columns each function can spill, by resource: names, types and descriptions for
// =PROP.FIELDS and for checking `cols=` before any request. Every resource is derived from a
// schema in the shared contract (src/contract/), the same one the service serialises
// with, so the columns cannot drift; test/addin/endpoints-contract.test.ts checks the result
// against the service's OpenAPI document.
import type { TSchema } from "@sinclair/typebox";
import { CommercialProperty, Company, DiligenceCandidate, Listing, MarketSnapshot, Parcel } from "../contract/records";
import { AssetAnalysis, AssetBreakdown, ComparisonStatistic, PortfolioHolding, SaleCompRow, TenantLocation } from "../contract/responses";
import { MARKET_HISTORY_METRICS, MARKET_HISTORY_UNITS, MarketHistoryPoint, PropertyEvent } from "../contract/history";
import { MATCH_LOW_CONFIDENCE_SCORE, MatchResult } from "../contract/property-match";
import type { ValueFormat } from "./cell-values";
import { InputError } from "./excel-errors";
import { nameKey } from "../contract/vocabulary";

export interface FieldInfo {
  name: string;
  type: string;
  description: string;
  /** A date, a moment or a rate: the cell holds an Excel date or a percentage (cell-values.ts). */
  format?: ValueFormat;
  /** The field holds numbers (statistics summarise it). */
  numeric: boolean;
}

type Schema = {
  type?: string | string[];
  anyOf?: Schema[];
  enum?: (string | null)[];
  format?: string;
  description?: string;
  const?: string;
  items?: Schema;
  "x-unit"?: string;
};

/** The JSON types a field may hold; a union (`anyOf`) holds those of its members. */
function typesOf(schema: Schema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  return ([] as string[]).concat(schema.type ?? (schema.const !== undefined ? "string" : "any"));
}

/** How a field's values are meant, from its schema: a date, a date-time, or a fraction (`x-unit`). */
function formatOf(schema: Schema): ValueFormat | undefined {
  if (schema.anyOf) return schema.anyOf.map(formatOf).find((f) => f !== undefined);
  if (schema.format === "date") return "date";
  if (schema.format === "date-time") return "datetime";
  if (schema["x-unit"] === "fraction") return "fraction";
  return undefined;
}

function describe(name: string, schema: Schema): FieldInfo {
  const types = typesOf(schema);
  const nullable = types.includes("null");
  const format = formatOf(schema);
  let type = types.filter((t) => t !== "null").join(" or ");
  if (format === "date") type = "date";
  if (format === "datetime") type = "date and time (UTC)";
  if (format === "fraction") type = "percentage (a fraction: 0.065 is 6.5%)";
  // A nullable enum lists null among its values; "may be empty" says that already.
  if (schema.enum) type = `one of ${schema.enum.filter((v) => v !== null).join(", ")}`;
  if (type === "array") type = "list (comma-separated)";
  const numeric = types.includes("number") || types.includes("integer");
  const info: FieldInfo = { name, type: nullable ? `${type}, may be empty` : type, description: schema.description ?? "", numeric };
  if (format) info.format = format;
  return info;
}

/** A record's fields in the schema's order; `overrides` replaces a field's schema for the add-in's own wording. */
function fieldsOf(schema: TSchema, overrides: Record<string, Schema> = {}): FieldInfo[] {
  const props = { ...(schema.properties as Record<string, Schema>), ...overrides };
  return Object.entries(props).map(([name, s]) => describe(name, s));
}

/** The analysis' figures; its breakdown arrays (`by_*`) are spilled as rows by breakdown=. */
const analysisFigures = fieldsOf(AssetAnalysis).filter((f) => !f.name.startsWith("by_"));

/**
 * The columns PROP.MARKETHISTORY can spill: the period (its end date first, as the spill's
 * first column), then every metric a series offers, a rate being a fraction as everywhere.
 */
const P = MarketHistoryPoint.properties as Record<string, Schema>;
const historyColumns: FieldInfo[] = [
  describe("period_end", P.period_end),
  describe("period", P.period),
  ...Object.entries(MARKET_HISTORY_METRICS).map(([name, description]) =>
    describe(name, {
      anyOf: [
        {
          type: "number",
          ...(MARKET_HISTORY_UNITS[name as keyof typeof MARKET_HISTORY_UNITS] === "fraction" ? { "x-unit": "fraction" } : {}),
        },
        { type: "null" },
      ],
      description,
    }),
  ),
];

/**
 * The columns PROP.MATCH can spill: a match result's fields without the row's `ref` (the spill
 * keeps the order of the addresses), its candidates as one text cell.
 */
const matchColumns = fieldsOf(MatchResult, {
  candidates: {
    type: "string",
    description:
      "The properties the address may name, best first, as address (id) separated by semicolons, when it is not a unique match; empty when matched.",
  },
  confidence: {
    type: "string",
    description: `low for a low-confidence match (a street spelt differently, or a score below ${MATCH_LOW_CONFIDENCE_SCORE}: check it), high for another match; only for a matched row.`,
  },
}).filter((f) => f.name !== "ref");

export const RESOURCES = {
  property: fieldsOf(CommercialProperty),
  parcel: fieldsOf(Parcel),
  listing: fieldsOf(Listing),
  sale_comp: fieldsOf(SaleCompRow),
  market: fieldsOf(MarketSnapshot),
  asset_analysis: analysisFigures,
  breakdown: fieldsOf(AssetBreakdown),
  portfolio_holding: fieldsOf(PortfolioHolding),
  company: fieldsOf(Company),
  tenant_location: fieldsOf(TenantLocation),
  diligence_candidate: fieldsOf(DiligenceCandidate),
  property_event: fieldsOf(PropertyEvent),
  market_history: historyColumns,
  property_match: matchColumns,
  // Add-in wording: the service leaves `field` undescribed; =PROP.FIELDS says what it holds.
  statistic: fieldsOf(ComparisonStatistic, { field: { type: "string", description: "The numeric field." } }),
} satisfies Record<string, FieldInfo[]>;

export type ResourceName = keyof typeof RESOURCES;

/** Other names analysts type for a resource (plural, the function's name, ...). */
const ALIASES: Record<string, ResourceName> = {
  properties: "property",
  search: "property",
  assetsearch: "property",
  details: "property",
  compare: "property",
  parcels: "parcel",
  listings: "listing",
  sale_comps: "sale_comp",
  salecomps: "sale_comp",
  comps: "sale_comp",
  sales: "sale_comp",
  markets: "market",
  analysis: "asset_analysis",
  breakdowns: "breakdown",
  portfolio: "portfolio_holding",
  companies: "company",
  footprint: "tenant_location",
  tenant_locations: "tenant_location",
  diligence: "diligence_candidate",
  diligence_candidates: "diligence_candidate",
  statistics: "statistic",
  history: "property_event",
  events: "property_event",
  property_events: "property_event",
  property_history: "property_event",
  markethistory: "market_history",
  market_histories: "market_history",
  metrics: "market_history",
  stats: "statistic",
  match: "property_match",
  matches: "property_match",
  property_matches: "property_match",
};

export function resourceNamed(raw: unknown): ResourceName {
  const key = typeof raw === "string" ? nameKey(raw) : "";
  const wanted = [...Object.keys(RESOURCES), ...Object.keys(ALIASES)].find((name) => nameKey(name) === key) ?? "";
  if (wanted in RESOURCES) return wanted as ResourceName;
  if (wanted in ALIASES) return ALIASES[wanted];
  const names = Object.keys(RESOURCES).join(", ");
  if (!key) throw new InputError(`resource is empty: give one of ${names}.`);
  throw new InputError(`"${String(raw).trim()}" is not a resource; use one of ${names}.`);
}

export function fieldNames(resource: ResourceName): string[] {
  return RESOURCES[resource].map((f) => f.name);
}

/** The dates, moments and rates among a resource's fields, by name. */
export function fieldFormats(resource: ResourceName): Record<string, ValueFormat> {
  return Object.fromEntries(RESOURCES[resource].flatMap((f) => (f.format ? [[f.name, f.format]] : [])));
}
