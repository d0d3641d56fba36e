// Every operation of the v1 API, each defined once (contract/operation.ts says what a definition
// holds), with the words the documentation gives it. The service registers a route per operation
// (src/server/routes), the OpenAPI document is built from those routes, the catalog lists them,
// and the add-in calls them by these names.
import { defineOperation, type Operation } from "./operation";
import { QUERIES } from "./queries";
import {
  DEFAULT_WINDOW_QUARTERS,
  HISTORY_QUARTERS,
  MarketHistory,
  MarketHistoryQuery,
  PropertyEvent,
  PropertyHistoryQuery,
} from "./history";
import { ListOf } from "./list-envelope";
import { CommercialProperty, Company, DiligenceCandidate, Listing, MarketSnapshot, Parcel } from "./records";
import {
  AssetAnalysis,
  Catalog,
  CompanySummary,
  ListStatistics,
  PortfolioHolding,
  PropertyComparison,
  SaleCompRow,
  SaleCompsSubject,
  TenantLocation,
} from "./responses";
import { CoverageReport } from "./coverage";
import { MAX_MARKET_BATCH, MarketBatch, MarketBatchRequest } from "./market-batch";
import { COMPARE_MAX_IDS, COMPARE_MIN_IDS, CompareRequest } from "./compare";
import { MATCH_MAX_ROWS, MatchQuery, MatchRequest, PropertyMatch, PropertyMatches } from "./property-match";
import { AssetTypePath, CompanyTypePath, PropertyIdPath } from "./path-params";
import { Nullable, Ref } from "./schema-helpers";
import { THIN_MARKET_PROPERTIES } from "./market-sample";
import { COMPANY_TYPES } from "./vocabulary";
import { MAX_COMP_CANDIDATES } from "./search-bounds";
import { PLACE_PROBLEMS, RANGE_PROBLEM, UNKNOWN_ASSET_TYPE, UNSUPPORTED_FILTER } from "./operation-problems";

export const OPERATIONS = {
  listParcels: defineOperation("listParcels", {
    method: "GET",
    path: "/v1/parcels",
    paged: true,
    cost: 1,
    inputs: QUERIES.listParcels,
    response: ListOf(Ref(Parcel)),
    tag: "Parcels and listings",
    summary: "List parcels",
    description:
      "Assessor parcels, filtered by place (`geography`: a state, county, city or ZIP code; or `state_code`, `county_fips`, " +
      "`city`, `zip`), APN and land use, in a stable order.",
    badRequest: PLACE_PROBLEMS,
  }),
  searchListings: defineOperation("searchListings", {
    method: "GET",
    path: "/v1/listings/search",
    paged: true,
    cost: 1,
    inputs: QUERIES.searchListings,
    response: ListOf(Ref(Listing)),
    tag: "Parcels and listings",
    summary: "Search listings",
    description:
      "Listings matching the filters, newest first. `status=active` gives the active listings. Place: `geography` (a state, " +
      "city or ZIP code), or `state_code` (the older `state` is still accepted), `city`, `zip`.",
    badRequest: `${PLACE_PROBLEMS}; or ${RANGE_PROBLEM}`,
  }),
  getCoverage: defineOperation("getCoverage", {
    method: "GET",
    path: "/v1/commercial/coverage",
    paged: false,
    cost: 0,
    response: CoverageReport,
    tag: "Snapshot",
    summary: "Snapshot counts, timing and known gaps",
    description:
      "Computed from the data when the snapshot was built: record counts per resource, asset type and state, capture and " +
      "build times, and the known gaps (inputs an asset type lacks, thin resources); since when the node that answers has " +
      "served this snapshot; and every snapshot the service keeps, which `snapshot` or `as_of` selects. Free.",
  }),
  getCatalog: defineOperation("getCatalog", {
    method: "GET",
    path: "/v1/commercial/catalog",
    paged: false,
    cost: 0,
    response: Catalog,
    tag: "Snapshot",
    summary: "Available property, ownership, tenant, comparable and market surfaces",
    description:
      "Every endpoint with its credit cost; per asset type, the search inputs this snapshot supports (and why others are " +
      "not) and its subtypes; company types, listing statuses, metros, paging bounds and the fields of each resource. Free.",
  }),
  searchProperties: defineOperation("searchProperties", {
    method: "GET",
    path: "/v1/commercial/properties",
    paged: true,
    cost: 1,
    inputs: QUERIES.searchProperties,
    response: ListOf(Ref(CommercialProperty)),
    tag: "Commercial properties",
    summary: "Search commercial properties across asset types",
    description:
      "Cross-asset property search, in a stable order. `q` matches whole words of the name, address, city, state, owner, subtype and asset type (all words must match; end a word with `*` to match its start). " +
      "When `asset_type` is given, inputs that asset type does not support give `400 unsupported_filter`.",
    badRequest: UNSUPPORTED_FILTER,
  }),
  getProperty: defineOperation("getProperty", {
    method: "GET",
    path: "/v1/commercial/properties/{property_id}",
    paged: false,
    cost: 1,
    params: PropertyIdPath,
    response: Ref(CommercialProperty),
    tag: "Commercial properties",
    summary: "Property detail",
    description: "One commercial property, with links to its parcel, owner and last sale.",
    notFound: "No property with this id in the snapshot",
  }),
  getPropertyHistory: defineOperation("getPropertyHistory", {
    method: "GET",
    path: "/v1/commercial/properties/{property_id}/history",
    paged: true,
    cost: 1,
    params: PropertyIdPath,
    inputs: PropertyHistoryQuery,
    response: ListOf(Ref(PropertyEvent)),
    tag: "Commercial properties",
    summary: "Property history",
    description:
      "A property's events, oldest first: its completion (from year_built), each recorded sale with the owner after it (the " +
      "buyer) and the seller, and each lease's start and expiration with the tenant (an expiration may be after the capture " +
      "date). `event_type`, `from` and `to` narrow the list; an unknown event type is refused free of charge.",
    notFound: "No property with this id in the snapshot",
    badRequest: `an unknown or repeated event type (\`validation_failed\`), or ${RANGE_PROBLEM}`,
  }),
  compareProperties: defineOperation("compareProperties", {
    method: "POST",
    path: "/v1/commercial/properties/compare",
    paged: false,
    cost: 2,
    body: CompareRequest,
    response: PropertyComparison,
    tag: "Commercial properties",
    summary: "Compare selected properties",
    description:
      `Takes ${COMPARE_MIN_IDS} to ${COMPARE_MAX_IDS} property ids and the fields to compare (default: the main physical, financial and ownership fields). ` +
      "Returns the properties in the order asked, and min/median/max of each numeric field. Unknown ids give 404 naming them. " +
      "With the ETags already held (`if_none_match`), a property still as held comes back as its id only and is listed in " +
      "`not_modified`: a comparison whose properties are all unchanged is free and carries no field and no statistic; one " +
      'with any property changed is charged and carries the changed properties and the statistics. `"*"` is no ETag of a ' +
      "property and is refused free (400 naming `/if_none_match/<id>`).",
    notFound: "An id that is not a property in the snapshot; `unknown_ids` lists them",
    badRequest: '`"*"` as a property\'s `if_none_match` (`validation_failed`, naming `/if_none_match/<id>`)',
  }),
  matchProperties: defineOperation("matchProperties", {
    method: "POST",
    path: "/v1/commercial/properties/match",
    paged: false,
    cost: 1,
    costPer: "row that names a property",
    body: MatchRequest,
    // A thousand rows of addresses written out in full.
    bodyLimit: 1024 * 1024,
    response: Ref(PropertyMatches),
    tag: "Commercial properties",
    summary: "Match addresses and parcel numbers to properties",
    description:
      `Takes 1 to ${MATCH_MAX_ROWS} rows, each with your own \`ref\` and an address (the whole line, or the street line with ` +
      "`city`, `state` and `zip`) or an `apn` with its `county` (name or FIPS code) or `state`, and answers one result per row " +
      "in the order sent: `matched` (the property, its parcel, its address in the snapshot, a score and how it matched), " +
      "`ambiguous` (up to 3 candidates), `unmatched`, or `refused` (a row that cannot be read, with why; the rest are still " +
      "answered). Addresses are read as a postal service reads them: suffixes and directionals in either spelling, ordinals, " +
      "units (Suite, #, Fl) left out, ZIP+4, state names or codes, case, punctuation and missing commas. A street name a " +
      "letter or two off matches only with the same house number in the same ZIP code or city; never across house numbers " +
      "and never without a city or ZIP code. One credit per row whose answer names a property (`matched`, or `ambiguous` with " +
      "its candidates), except rows `unchanged` since the `etag` sent; `unmatched` and `refused` rows are free. The rows are " +
      "matched before any credit is held and exactly their price is held, so a request the credits left pay for is answered; " +
      "one they do not is refused 402 with its real `cost` and `rows_covered`, how many rows from the first the credits left " +
      "pay for. A request of the wrong shape (no rows, more than the limit, a field of the wrong type, a member the row does " +
      `not have) is refused as a whole, free. For the rate limit a request weighs one call per started 100 rows.`,
  }),
  matchProperty: defineOperation("matchProperty", {
    method: "GET",
    path: "/v1/commercial/properties/match",
    paged: false,
    cost: 1,
    costPer: "answer that names a property",
    inputs: MatchQuery,
    response: Ref(PropertyMatch),
    tag: "Commercial properties",
    summary: "Match one address or parcel number to a property",
    description:
      "One row of the match request, as query inputs (`address`, or the street line with `city`, `state` and `zip`; or `apn` " +
      "with `county` or `state`), matched the same way. Costs one credit when its answer names a property (`matched`, or " +
      "`ambiguous` with candidates); an `unmatched` answer is free, and so is an input that cannot be read (400), a parameter " +
      "the operation does not take (400), and a 304 (If-None-Match naming the answer's ETag, which only the service can make).",
    badRequest:
      'neither an address nor an APN; an APN without its county or state; a state, ZIP code or county that is not one; If-None-Match "*"',
  }),
  findSaleComps: defineOperation("findSaleComps", {
    method: "GET",
    path: "/v1/commercial/sale-comps",
    paged: true,
    cost: 2,
    inputs: QUERIES.findSaleComps,
    response: ListOf(Ref(SaleCompRow), { subject: Nullable(SaleCompsSubject), statistics: ListStatistics }),
    tag: "Sale comparables",
    summary: "Find captured sale comparables",
    description:
      "Give a subject `property_id` (sales of its kind within `max_distance_miles`, most similar first, with " +
      "`distance_miles` and `similarity_score`: its asset type's, or where the type is a catch-all of unrelated uses " +
      "(specialty, sports-and-entertainment, land) its subtype's and its kin's, e.g. self-storage with light-industrial flex), " +
      "or a place: `geography` (a state, county, city, ZIP code or metro), or " +
      "`state_code`, `city` or `metro_id` (newest first). Place and other filters apply in both modes. `per_property=latest` " +
      "keeps each property's latest matching sale; `sort` and `order` choose the order. The similarity score does not depend " +
      "on the radius: distance counts half at 10 miles, recency whole quarters before the capture date (docs/decisions.md). " +
      "Every comp has `months_since_sale`; `prefer_sold_within_months` puts the recent sales around a subject first. `stats=true` adds `statistics` over every " +
      "matching sale (all `total_count`, not the page) at the same price: 2 credits. Around a subject, a radius holding more " +
      `than ${MAX_COMP_CANDIDATES.toLocaleString("en-US")} candidate sales is refused free, rather than ranked from part of them.`,
    notFound: "The subject `property_id` is not in the snapshot",
    badRequest: `${PLACE_PROBLEMS}; ${RANGE_PROBLEM}; a sort by distance or similarity, or prefer_sold_within_months, without a subject; or more candidate sales around the subject than one request ranks`,
  }),
  getMarketSnapshot: defineOperation("getMarketSnapshot", {
    method: "GET",
    path: "/v1/commercial/markets/snapshot",
    paged: false,
    cost: 1,
    inputs: QUERIES.getMarketSnapshot,
    response: Ref(MarketSnapshot),
    tag: "Markets",
    summary: "Market snapshot by geography and asset type",
    description:
      "Inventory, occupancy and vacancy, asking rent, rent growth, cap rate and sales volume of one asset type in the whole " +
      'country, a state, county, metro, city or ZIP code ("US", "TX", "Travis County, TX", "Austin, TX metro", "Austin, TX", ' +
      '"78704"; "United States" is "US" too, the national market, whose `state_code` is null). A geography ' +
      "the snapshot does not hold, or a city name found in several states, is refused free of charge with suggestions.",
    notFound: "The snapshot has no properties of the asset type in the geography",
    badRequest: PLACE_PROBLEMS,
  }),
  getMarketSnapshotBatch: defineOperation("getMarketSnapshotBatch", {
    method: "POST",
    path: "/v1/commercial/markets/batch",
    paged: false,
    cost: 1,
    costPer: "market answered",
    body: MarketBatchRequest,
    response: Ref(MarketBatch),
    tag: "Markets",
    summary: "Many market snapshots in one request",
    description:
      `Up to ${MAX_MARKET_BATCH} markets, each given as the single endpoint's geography and asset type, answered in the ` +
      "order asked: each market is checked on its own, and its result has the market (status 200) or the problem the single " +
      "endpoint would answer (400 for an unknown asset type or place, 404), so one bad market refuses only itself. A batch " +
      "of the wrong shape (markets not a list, more than the limit, a field of the wrong type) is refused as a whole. " +
      "Costs the single endpoint's credits for each distinct market answered; markets refused cost nothing, and so does a " +
      'market sent with the ETag it has (`if_none_match`) when it is unchanged (status 304, no market); `"*"` is no ETag ' +
      "and refuses its market (400). The credits " +
      "of every market asked are held while the batch runs, so a batch larger than the credits left gets 402.",
  }),
  getMarketHistory: defineOperation("getMarketHistory", {
    method: "GET",
    path: "/v1/commercial/markets/history",
    paged: false,
    cost: 2,
    inputs: MarketHistoryQuery,
    response: Ref(MarketHistory),
    tag: "Markets",
    summary: "Market history by geography and asset type",
    description:
      `Quarterly (or yearly) series of one asset type in the whole country ("US"), a state, county, metro, city or ZIP code: asking rents, vacancy, ` +
      `cap rate, sales volume and count, price per sq ft and per unit, inventory, net absorption and deliveries, at least ` +
      `${HISTORY_QUARTERS} calendar quarters back. The last period holds the capture date and its figures are the market ` +
      "snapshot's, to that date. Without `from`, the series is the last " +
      `${DEFAULT_WINDOW_QUARTERS} quarters up to \`to\` (the capture date when \`to\` is not given). Unknown metrics, \`from\` after ` +
      "`to` or after the capture date, `to` before the history begins, and places the snapshot does not hold are refused " +
      "free of charge; a series with no period (`periods` empty) is free too. A `from` before the history begins is " +
      "answered from its first period, and `coverage` says so (`from_before_history`); a series costs one price whatever " +
      "the number of periods in it. The period holding the capture date is partial (`complete` false, `period_end` the " +
      "capture date). Every period carries the properties standing at its end (`property_count`), and `thin` when they " +
      `are fewer than ${THIN_MARKET_PROPERTIES}.`,
    notFound: "The snapshot has no properties of the asset type in the geography",
    badRequest: `an unknown or repeated metric, or dates outside the history (\`validation_failed\`); ${RANGE_PROBLEM}; or ${PLACE_PROBLEMS}`,
  }),
  analyseAssetType: defineOperation("analyseAssetType", {
    method: "GET",
    path: "/v1/commercial/assets/{asset_type}/analysis",
    paged: false,
    cost: 2,
    params: AssetTypePath,
    inputs: QUERIES.analyseAssetType,
    response: Ref(AssetAnalysis),
    tag: "Markets",
    summary: "Aggregate asset-type analysis",
    description:
      "Inventory, occupancy, vintage, pricing and sales activity of one asset type, nationally or in a place (`geography`: " +
      "a state, county, metro, city or ZIP code; or `state_code`, `metro_id`), with breakdowns by subtype, building class and state.",
    notFound: UNKNOWN_ASSET_TYPE,
    badRequest: PLACE_PROBLEMS,
  }),
  searchAssetProperties: defineOperation("searchAssetProperties", {
    method: "GET",
    path: "/v1/commercial/assets/{asset_type}/properties",
    paged: true,
    cost: 1,
    params: AssetTypePath,
    inputs: QUERIES.searchAssetProperties,
    response: ListOf(Ref(CommercialProperty)),
    tag: "Commercial properties",
    summary: "Search properties of one asset type",
    description:
      "Asset-oriented search. Each input is accepted only where the snapshot supports it " +
      "for this asset type (see the catalog's `asset_types[].supported_inputs`); others give `400 unsupported_filter`.",
    notFound: UNKNOWN_ASSET_TYPE,
    badRequest: UNSUPPORTED_FILTER,
  }),
  getOwnerPortfolio: defineOperation("getOwnerPortfolio", {
    method: "GET",
    path: "/v1/commercial/owners/portfolio",
    paged: true,
    cost: 2,
    inputs: QUERIES.getOwnerPortfolio,
    response: ListOf(Ref(PortfolioHolding), { owner: Ref(CompanySummary) }),
    tag: "Owners, companies and tenants",
    summary: "Owner portfolio evidence",
    description:
      "The properties an owner holds, each with the evidence for it (the recorded sale that transferred it to the owner, " +
      "or the ownership record), largest first. Give `owner_id`, or `owner_name` (exact match, else an owner whose name contains it: " +
      "the largest with `name_match=best`, the only one with `name_match=unique`). The `owner` summary says which owner was matched " +
      "(`matched_by`) and how many the name matched (`candidate_count`, `other_candidates`).",
    notFound: "No owner with this `owner_id`, or whose name contains `owner_name`",
    badRequest: `${PLACE_PROBLEMS}; or, with \`name_match=unique\`, a name several owners contain (\`ambiguous_name\`, listing them)`,
  }),
  searchCompanies: defineOperation("searchCompanies", {
    method: "GET",
    path: "/v1/commercial/companies/{company_type}",
    paged: true,
    cost: 1,
    params: CompanyTypePath,
    inputs: QUERIES.searchCompanies,
    response: ListOf(Ref(Company)),
    tag: "Owners, companies and tenants",
    summary: "Search owners, tenants, brokers and related companies",
    description: `Companies of one type (${COMPANY_TYPES.join(", ")}), largest first; \`q\` matches part of the name.`,
    notFound: "No such company type; `valid_values` lists them",
  }),
  getTenantFootprint: defineOperation("getTenantFootprint", {
    method: "GET",
    path: "/v1/commercial/tenants/footprint",
    paged: true,
    cost: 2,
    inputs: QUERIES.getTenantFootprint,
    response: ListOf(Ref(TenantLocation), { tenant: Ref(CompanySummary) }),
    tag: "Owners, companies and tenants",
    summary: "Tenant location footprint",
    description:
      "Every location a tenant occupies, with leased area and lease dates, soonest expiry first. Give `tenant_id`, or " +
      "`tenant_name` (exact match, else a tenant whose name contains it: the largest with `name_match=best`, the only one with " +
      "`name_match=unique`). The `tenant` summary says which tenant was matched and how many the name matched.",
    notFound: "No tenant with this `tenant_id`, or whose name contains `tenant_name`",
    badRequest: `${PLACE_PROBLEMS}; or, with \`name_match=unique\`, a name several tenants contain (\`ambiguous_name\`, listing them)`,
  }),
  rankDiligenceCandidates: defineOperation("rankDiligenceCandidates", {
    method: "GET",
    path: "/v1/commercial/diligence/candidates",
    paged: true,
    cost: 3,
    inputs: QUERIES.rankDiligenceCandidates,
    response: ListOf(Ref(DiligenceCandidate)),
    tag: "Diligence",
    summary: "Rank candidates for deeper diligence",
    description:
      "Properties ranked by a 0-100 score of reasons to look closer (occupancy below its market, lease rollover, long hold, " +
      "ageing asset, rent below market...), highest first, each with its reason codes. See docs/snapshot.md for the formula.",
    badRequest: PLACE_PROBLEMS,
  }),
};

export type Operations = typeof OPERATIONS;
export type OperationName = keyof Operations;

/** Every operation, in the order the documentation lists them. */
export const OPERATION_LIST: readonly Operation[] = Object.values(OPERATIONS);

/** Credits a successful call of each operation costs (per unit for those with `costPer`). */
export const CREDIT_COSTS = Object.fromEntries(OPERATION_LIST.map((o) => [o.name, o.cost])) as Record<OperationName, number>;
