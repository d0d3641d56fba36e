// The company pools the rest of the generator draws from: owners, tenants, brokers, lenders,
// property managers and developers. Company sizes follow a Zipf-like law (a few national REITs
// and chains, a long tail of local firms), implemented as alias tables over rank weights.
// Rows are written last, once property_count is known.
import type { Company } from "../../contract/records";
import { ASSET_TYPES, type AssetType, type CompanyType } from "../../contract/vocabulary";
import { ASSET_PROFILES } from "./asset-profiles";
import { ownerName, serviceCompanyName, tenantName, UniqueNames, websiteFor } from "./company-names";
import type { Geography } from "./geography";
import { seqId } from "./ids";
import { AliasTable, type Random } from "./random";
import { INDUSTRY_GROUPS, TENANT_GROUPS_BY_ASSET, type IndustryGroup } from "./industries";

export interface CompanyRec {
  id: string;
  type: CompanyType;
  name: string;
  industry: string | null;
  group: IndustryGroup | null;
  focus: AssetType | null;
  hqCity: string;
  hqState: string;
  founded: number | null;
  website: string | null;
  /** What property_count counts for this type (see Company schema); filled while generating. */
  count: number;
}

interface Pool {
  list: CompanyRec[];
  table: AliasTable;
}

export interface CompanyPools {
  all: CompanyRec[];
  ownersByAsset: Record<AssetType, Pool>;
  ownersByState: Map<string, CompanyRec[]>;
  tenantsByGroup: Map<IndustryGroup, Pool>;
  brokers: Pool;
  lenders: Pool;
  managers: Pool;
  developers: Pool;
}

/** Rank weights 1/(rank+5): the biggest firm is a few percent of the market, not half of it. */
const zipf = (n: number) => Array.from({ length: n }, (_, i) => 1 / (i + 5));

function pool(list: CompanyRec[], weights = zipf(list.length)): Pool {
  return { list, table: new AliasTable(weights) };
}

export function companyCounts(properties: number): Record<CompanyType, number> {
  const at = (share: number, min: number) => Math.max(min, Math.round(properties * share));
  return {
    owner: at(0.06, 60),
    tenant: at(0.08, 80),
    broker: at(0.01, 20),
    lender: at(0.005, 10),
    "property-manager": at(0.01, 15),
    developer: at(0.01, 15),
  };
}

export function makeCompanies(rng: Random, geo: Geography, properties: number, captureYear: number): CompanyPools {
  // Headquarters concentrate in large cities (population^1.3).
  const hqTable = new AliasTable(geo.cities.map((c) => Math.pow(c.population, 1.3)));
  const names = new UniqueNames();
  const all: CompanyRec[] = [];
  const counts = companyCounts(properties);
  const assetShares = ASSET_TYPES.map((t) => [t, ASSET_PROFILES[t].share] as const);
  const groupWeights = INDUSTRY_GROUPS.map((g) => [g.name, g.share] as const);

  for (const type of Object.keys(counts) as CompanyType[]) {
    for (let i = 0; i < counts[type]; i++) {
      const hq = geo.cities[hqTable.draw(rng)];
      let focus: AssetType | null = null;
      let group: IndustryGroup | null = null;
      let industry: string | null = null;
      let name: string;
      if (type === "owner") {
        focus = rng.chance(0.45) ? rng.weighted(assetShares) : null;
        name = names.take(() => ownerName(rng, focus));
      } else if (type === "tenant") {
        group = rng.weighted(groupWeights);
        const g = INDUSTRY_GROUPS.find((x) => x.name === group)!;
        industry = rng.pick(g.industries);
        name = names.take(() => tenantName(rng, industry!));
      } else {
        name = names.take(() => serviceCompanyName(rng, type));
      }
      const age = Math.round(rng.exponential(type === "lender" ? 45 : 22));
      all.push({
        id: seqId("co", all.length, 6),
        type,
        name,
        industry,
        group,
        focus,
        hqCity: hq.name,
        hqState: hq.state,
        founded: rng.chance(0.92) ? Math.max(1880, captureYear - 1 - age) : null,
        website: rng.chance(0.85) ? websiteFor(name) : null,
        count: 0,
      });
    }
  }
  return indexPools(all);
}

function indexPools(all: CompanyRec[]): CompanyPools {
  const of = (t: CompanyType) => all.filter((c) => c.type === t);
  const owners = of("owner");
  const base = zipf(owners.length);
  const ownersByAsset = {} as Record<AssetType, Pool>;
  for (const t of ASSET_TYPES) {
    // Specialists own mostly their type; diversified owners own a bit of everything.
    ownersByAsset[t] = pool(
      owners,
      owners.map((o, i) => base[i] * (o.focus === t ? 6 : o.focus === null ? 1 : 0.12)),
    );
  }
  const ownersByState = new Map<string, CompanyRec[]>();
  for (const o of owners) {
    const list = ownersByState.get(o.hqState) ?? [];
    list.push(o);
    ownersByState.set(o.hqState, list);
  }
  const tenantsByGroup = new Map<IndustryGroup, Pool>();
  for (const g of INDUSTRY_GROUPS) {
    const list = all.filter((c) => c.type === "tenant" && c.group === g.name);
    if (list.length) tenantsByGroup.set(g.name, pool(list));
  }
  return {
    all,
    ownersByAsset,
    ownersByState,
    tenantsByGroup,
    brokers: pool(of("broker")),
    lenders: pool(of("lender")),
    managers: pool(of("property-manager")),
    developers: pool(of("developer")),
  };
}

export function drawFrom(p: Pool, rng: Random): CompanyRec {
  return p.list[p.table.draw(rng)];
}

/** A tenant group suited to the asset type, then a tenant from it. */
export function drawTenant(pools: CompanyPools, asset: AssetType, rng: Random): CompanyRec | null {
  const groups = TENANT_GROUPS_BY_ASSET[asset];
  if (!groups) return null;
  const p = pools.tenantsByGroup.get(rng.weighted(groups));
  return p ? drawFrom(p, rng) : null;
}

export function companyRow(c: CompanyRec): Company {
  return {
    id: c.id,
    object: "company",
    company_type: c.type,
    name: c.name,
    industry: c.industry,
    headquarters_city: c.hqCity,
    headquarters_state: c.hqState,
    founded_year: c.founded,
    website: c.website,
    property_count: c.count,
  };
}
