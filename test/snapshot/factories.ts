// Small valid records for importer and derivation tests. Each call returns a fresh object;
// pass overrides for the fields a test is about.
import type { CommercialProperty, Company, Listing, Parcel, SaleComp, Tenancy } from "../../src/contract/records";

export function company(over: Partial<Company> = {}): Company {
  return {
    id: "co_owner1",
    object: "company",
    company_type: "owner",
    name: "Granite Peak Realty Trust",
    industry: null,
    headquarters_city: "Austin",
    headquarters_state: "TX",
    founded_year: 1998,
    website: null,
    property_count: 1,
    ...over,
  };
}

export function property(over: Partial<CommercialProperty> = {}): CommercialProperty {
  return {
    id: "cp_1",
    object: "commercial_property",
    name: "Oak Logistics Center",
    asset_type: "industrial",
    subtype: "warehouse",
    building_class: "B",
    address: "1200 Oak St",
    city: "Austin",
    state_code: "TX",
    zip: "78701",
    county: "Travis",
    county_fips: "48453",
    metro_id: "metro-austin-tx",
    metro_name: "Austin, TX metro",
    latitude: 30.27,
    longitude: -97.74,
    building_area_sqft: 100_000,
    land_area_acres: 5.5,
    units: null,
    year_built: 1990,
    stories: 1,
    occupancy_rate: 0.9,
    asking_rent_sqft_year: 10,
    asking_rent_unit_month: null,
    estimated_value: 12_000_000,
    owner_id: "co_owner1",
    owner_name: "Granite Peak Realty Trust",
    parcel_id: "par_1",
    tenant_count: 0,
    last_sale_id: null,
    last_sale_date: null,
    last_sale_price: null,
    ...over,
  };
}

export function parcel(over: Partial<Parcel> = {}): Parcel {
  return {
    id: "par_1",
    object: "parcel",
    apn: "123-456-78",
    county_fips: "48453",
    county: "Travis",
    state_code: "TX",
    city: "Austin",
    zip: "78701",
    address: "1200 Oak St",
    latitude: 30.27,
    longitude: -97.74,
    land_use: "industrial",
    lot_area_sqft: 239_580,
    building_area_sqft: 100_000,
    year_built: 1990,
    assessed_land_value: 2_000_000,
    assessed_improvement_value: 8_000_000,
    assessed_total_value: 10_000_000,
    assessment_year: 2026,
    tax_amount: 160_000,
    owner_name: "Granite Peak Realty Trust",
    owner_type: "company",
    last_sale_date: null,
    last_sale_price: null,
    property_id: "cp_1",
    ...over,
  };
}

export function sale(over: Partial<SaleComp> = {}): SaleComp {
  return {
    id: "sale_1",
    object: "sale_comp",
    property_id: "cp_1",
    property_name: "Oak Logistics Center",
    asset_type: "industrial",
    subtype: "warehouse",
    building_class: "B",
    address: "1200 Oak St",
    city: "Austin",
    state_code: "TX",
    zip: "78701",
    county_fips: "48453",
    metro_id: "metro-austin-tx",
    latitude: 30.27,
    longitude: -97.74,
    sale_date: "2026-03-15",
    sale_price: 11_500_000,
    building_area_sqft: 100_000,
    land_area_acres: 5.5,
    units: null,
    year_built: 1990,
    price_per_sqft: 115,
    price_per_unit: null,
    price_per_acre: 2_090_909,
    cap_rate: 0.0625,
    occupancy_at_sale: 0.9,
    sale_type: "investment",
    buyer_id: "co_owner1",
    buyer_name: "Granite Peak Realty Trust",
    seller_id: "co_owner2",
    seller_name: "Stone Bridge Capital Partners",
    broker_id: null,
    broker_name: null,
    ...over,
  };
}

export function tenancy(over: Partial<Tenancy> = {}): Tenancy {
  return {
    id: "ten_1",
    object: "tenancy",
    tenant_id: "co_tenant1",
    property_id: "cp_1",
    suite: "Bay 1",
    leased_area_sqft: 40_000,
    lease_start: "2026-01-01",
    lease_expiration: "2027-12-31",
    rent_sqft_year: 10.5,
    ...over,
  };
}

export function listing(over: Partial<Listing> = {}): Listing {
  return {
    id: "lst_1",
    object: "listing",
    mls_number: "TX1234567",
    status: "active",
    property_type: "commercial",
    address: "1200 Oak St",
    city: "Austin",
    state_code: "TX",
    zip: "78701",
    latitude: 30.27,
    longitude: -97.74,
    list_price: 12_500_000,
    original_list_price: 12_500_000,
    sold_price: null,
    price_per_sqft: 125,
    bedrooms: null,
    bathrooms: null,
    building_area_sqft: 100_000,
    lot_area_sqft: 239_580,
    year_built: 1990,
    listed_date: "2026-09-01",
    status_date: "2026-09-01",
    days_on_market: 61,
    agent_name: "Maria Lopez",
    brokerage_id: "co_broker1",
    brokerage_name: "Summit Commercial Realty",
    parcel_id: "par_1",
    property_id: "cp_1",
    ...over,
  };
}

/** A small, consistent dataset: two owners, a tenant, a broker, one property with its parcel, a sale, a lease and a listing. */
export function dataset() {
  return {
    companies: [
      company(),
      company({ id: "co_owner2", name: "Stone Bridge Capital Partners" }),
      company({ id: "co_tenant1", company_type: "tenant", name: "Meridian Logistics", industry: "Logistics" }),
      company({ id: "co_broker1", company_type: "broker", name: "Summit Commercial Realty" }),
    ],
    properties: [property({ last_sale_id: "sale_1", last_sale_date: "2026-03-15", last_sale_price: 11_500_000, tenant_count: 1 })],
    parcels: [parcel({ last_sale_date: "2026-03-15", last_sale_price: 11_500_000 })],
    sales: [sale()],
    tenancies: [tenancy()],
    listings: [listing()],
  };
}

export type Dataset = ReturnType<typeof dataset>;
