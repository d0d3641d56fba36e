// The records the API's schemas share, each with its `$id`. The service registers each once
// (Fastify's addSchema); the operations refer to them with Ref (schema-helpers.ts), so each is
// validated, serialised and published (OpenAPI components.schemas) from one definition.
import type { TSchema } from "@sinclair/typebox";
import { MarketHistory, MarketHistoryPoint, PropertyEvent } from "./history";
import { MarketBatch } from "./market-batch";
import { PropertyMatch, PropertyMatches } from "./property-match";
import { Problem } from "./problem";
import { CommercialProperty, Company, DiligenceCandidate, Listing, MarketSnapshot, Parcel } from "./records";
import { AssetAnalysis, CompanySummary, PortfolioHolding, SaleCompRow, TenantLocation } from "./responses";

export const SHARED_SCHEMAS: readonly TSchema[] = [
  Problem,
  Parcel,
  Listing,
  CommercialProperty,
  PropertyEvent,
  SaleCompRow,
  MarketSnapshot,
  MarketBatch,
  PropertyMatches,
  PropertyMatch,
  MarketHistoryPoint,
  MarketHistory,
  AssetAnalysis,
  PortfolioHolding,
  CompanySummary,
  Company,
  TenantLocation,
  DiligenceCandidate,
];
