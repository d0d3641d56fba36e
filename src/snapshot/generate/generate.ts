// The generator's main loop, in rounds of ROUND_SIZE properties. Each property is written with
// its tenancies as it is made; its parcel, sales and any listing go to the part writer, which
// also makes the other parcels (inline, or in a worker thread for large builds: parts.ts).
// Companies are written last, once their property counts are known. Memory stays flat at any
// scale, and every row comes from seeded streams in a fixed order, so a seed gives one result.
import type { Listing, Parcel, SaleComp } from "../../contract/records";
import { ASSET_TYPES, type AssetType } from "../../contract/vocabulary";
import type { SalesGroup } from "../derive/markets";
import type { HistoryCoverage } from "../../contract/coverage";
import { historySpan } from "../derive/market-history";
import { PropertyFactsBuilder } from "../derive/history-inputs";
import type { MarketRow } from "../derive/history-series";
import { windowsFor } from "../derive/windows";
import type { PartPlaces } from "../derive/places";
import type { SnapshotWriter } from "../snapshot-file";
import { STATE_CODES } from "../state-data";
import { ASSET_PROFILES } from "./asset-profiles";
import { companyRow, drawFrom } from "./companies";
import { makeContext, type GenContext, type GenerateOptions } from "./context";
import type { City, Geography } from "./geography";
import { seqId } from "./ids";
import { commercialListing } from "./listings";
import { commercialParcel } from "./parcels";
import { InlinePart, WorkerPart } from "./parts";
import { planFor, ROUND_SIZE, type Plan } from "./plan";
import { makeProperty } from "./properties";
import { AliasTable, Random, Selector } from "./random";
import { makeSales } from "./sales";
import { makeTenancies } from "./tenancies";

export type { GenerateOptions } from "./context";

export type TableCounts = Record<"parcels" | "listings" | "companies" | "properties" | "sales" | "tenancies", number>;

export interface GenerateRun extends GenerateOptions {
  /** Make the other parcels in a worker thread, writing through this part file. */
  partPath?: string;
}

function cityPickers(geo: Geography): Record<AssetType, AliasTable> {
  const out = {} as Record<AssetType, AliasTable>;
  for (const t of ASSET_TYPES) out[t] = new AliasTable(geo.cities.map((c) => Math.pow(c.population, ASSET_PROFILES[t].cityExponent)));
  return out;
}

/**
 * The first 612 properties (51 states x 12 asset types) are one of each type in each state, in a
 * population-weighted city of that state, so every state has every type at any size.
 */
function floorCity(rng: Random, geo: Geography, state: string): City {
  const cities = geo.citiesByState.get(state)!;
  return cities[new AliasTable(cities.map((c) => c.population)).draw(rng)];
}

class PropertyLoop {
  readonly counts: TableCounts = { parcels: 0, listings: 0, companies: 0, properties: 0, sales: 0, tenancies: 0 };
  private readonly pickCity: Record<AssetType, AliasTable>;
  private readonly assetWeights = ASSET_TYPES.map((t) => [t, ASSET_PROFILES[t].share] as const);
  private readonly floor: number;
  private readonly listed: Selector;

  constructor(
    private readonly ctx: GenContext,
    private readonly plan: Plan,
    private readonly facts: PropertyFactsBuilder | null,
  ) {
    this.pickCity = cityPickers(ctx.geo);
    this.floor = Math.min(plan.properties, STATE_CODES.length * ASSET_TYPES.length);
    this.listed = new Selector(plan.commercialListings, plan.properties);
  }

  /** Property i and everything that hangs off it; parcel-side rows are pushed to the batch. */
  one(w: SnapshotWriter, i: number, batch: { parcels: Parcel[]; listings: Listing[]; sales: SaleComp[] }): void {
    const { ctx, counts } = this;
    const { rng, pools } = ctx;
    const inFloor = i < this.floor;
    const asset = inFloor ? ASSET_TYPES[Math.floor(i / STATE_CODES.length) % ASSET_TYPES.length] : rng.weighted(this.assetWeights);
    const city = inFloor ? floorCity(rng, ctx.geo, STATE_CODES[i % STATE_CODES.length]) : ctx.geo.cities[this.pickCity[asset].draw(rng)];
    const d = makeProperty(ctx, counts.properties++, asset, city);
    const developer = d.row.year_built !== null && d.row.year_built >= 1975 ? drawFrom(pools.developers, rng) : null;
    if (developer) developer.count++;
    if (asset !== "land" && rng.chance(0.6)) drawFrom(pools.managers, rng).count++; // third-party managed
    const ten = makeTenancies(ctx, d, () => seqId("ten", counts.tenancies++));
    for (const t of ten.tenants) t.count++;
    const sales = makeSales(ctx, d, developer, () => seqId("sale", counts.sales++));
    // A few properties have no owner on record beyond the parcel's owner name.
    const owner = sales.rows.length === 0 && rng.chance(0.03) ? null : sales.owner;
    if (owner) {
      owner.count++;
      d.row.owner_id = owner.id;
      d.row.owner_name = owner.name;
    }
    const parcel = commercialParcel(ctx, d, seqId("par", counts.parcels++), owner);
    d.row.parcel_id = parcel.id;
    w.insert("properties", d.row);
    this.facts?.add(d.row);
    for (const t of ten.rows) w.insert("tenancies", t);
    batch.parcels.push(parcel);
    batch.sales.push(...sales.rows);
    if (this.listed.take(rng)) {
      const n = counts.listings++;
      batch.listings.push(commercialListing(ctx, d, n, seqId("lst", n), sales.rows[sales.rows.length - 1]));
    }
  }
}

export interface Generation {
  counts: TableCounts;
  /** The markets' sales groups when the worker holds the sales (waits for them); else undefined. */
  salesGroups(): SalesGroup[] | undefined;
  /** Whether the worker writes the market history (hand it the markets with writeHistory before finish). */
  writesHistory: boolean;
  /** Hands the worker the markets, with the properties' facts the generator collected as it wrote them. */
  writeHistory(markets: MarketRow[]): void;
  /** The history's coverage when the worker wrote it (after finish); else undefined. */
  historyCoverage(): HistoryCoverage | undefined;
  /** The part tables' place groups when the worker counted them (after finish); else undefined. */
  partPlaces(): PartPlaces | undefined;
  /** Completes the part writer's tables (waits for the worker, if any) and indexes them. */
  finish(): void;
  /** Stops the worker, if any, after a failure. */
  abort(): void;
}

/**
 * Writes properties, tenancies and companies, and starts parcels, listings and sales. When it
 * returns, properties, tenancies and companies are complete in `w` and can be derived from.
 */
export function startGeneration(w: SnapshotWriter, opts: GenerateRun): Generation {
  const log = opts.log ?? (() => {});
  const plan = planFor(opts.properties);
  // Start the worker first: it loads its own geography while this thread loads the same.
  const part = opts.partPath ? new WorkerPart(opts, opts.partPath, log) : null;
  const ctx = makeContext(opts, "properties");
  const writer = part ?? new InlinePart(w, ctx, plan);
  // The worker writes the history: collect what it needs of each property as it is written.
  const facts = writer.writesHistory ? new PropertyFactsBuilder(historySpan(windowsFor(opts.capturedAt).capture)) : null;
  const loop = new PropertyLoop(ctx, plan, facts);
  try {
    for (let k = 0; k < plan.rounds; k++) {
      const batch = { round: k, parcels: [] as Parcel[], listings: [] as Listing[], sales: [] as SaleComp[] };
      w.transaction(() => {
        for (let i = k * ROUND_SIZE; i < Math.min(plan.properties, (k + 1) * ROUND_SIZE); i++) loop.one(w, i, batch);
      });
      writer.round(batch);
      if (k % 20 === 19 || k === plan.rounds - 1) log(`properties ${Math.min(plan.properties, (k + 1) * ROUND_SIZE)}/${plan.properties}`);
    }
    w.transaction(() => {
      for (const c of ctx.pools.all) w.insert("companies", companyRow(c));
    });
  } catch (err) {
    writer.abort();
    throw err;
  }
  return {
    counts: { ...loop.counts, parcels: plan.parcels, listings: plan.listings, companies: ctx.pools.all.length },
    salesGroups: () => writer.salesGroups(),
    writesHistory: writer.writesHistory,
    writeHistory: (markets) => {
      if (!facts) throw new Error("this build writes the market history after its tables, from the snapshot");
      writer.writeHistory({ markets, properties: facts.facts() });
    },
    historyCoverage: () => writer.historyCoverage(),
    partPlaces: () => writer.partPlaces(),
    finish: () => writer.finish(w),
    abort: () => writer.abort(),
  };
}
