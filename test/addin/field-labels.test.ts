// Labels derived from the contract's field names, types and descriptions, for what the pane shows.
import { RESOURCES, type FieldInfo } from "../../src/functions/record-fields";
import { fieldLabel, isFigure } from "../../src/functions/field-labels";

const field = (resource: keyof typeof RESOURCES, name: string): FieldInfo => {
  const found = RESOURCES[resource].find((f) => f.name === name);
  if (!found) throw new Error(`${resource} has no field ${name}`);
  return found;
};
const labels = (resource: keyof typeof RESOURCES) => Object.fromEntries(RESOURCES[resource].map((f) => [f.name, fieldLabel(f)]));

test("every market field reads as words, units in brackets, from the contract alone", () => {
  expect(labels("market")).toEqual({
    id: "ID",
    object: "Object",
    geography_type: "Geography type",
    geography_id: "Geography ID",
    geography_name: "Geography name",
    state_code: "State code",
    thin: "Thin market",
    asset_type: "Asset type",
    as_of: "As of",
    property_count: "Property count",
    inventory_sqft: "Inventory (sq ft)",
    inventory_units: "Inventory units",
    occupancy_rate: "Occupancy rate",
    vacancy_rate: "Vacancy rate",
    asking_rent_sqft_year: "Asking rent ($/sq ft/yr)",
    asking_rent_unit_month: "Asking rent ($/unit/mo)",
    rent_growth_yoy: "Rent growth (year over year)",
    median_cap_rate: "Median cap rate",
    sales_count_12m: "Sales count (12 months)",
    sales_volume_12m: "Sales volume (12 months, $)",
    median_price_per_sqft: "Median price per sq ft ($)",
    median_price_per_unit: "Median price per unit ($)",
    median_year_built: "Median year built",
  });
});

test("amounts get $ from the description (USD) or a price or rent word; rates, counts and years never do", () => {
  expect(fieldLabel(field("parcel", "assessed_total_value"))).toBe("Assessed total value ($)");
  expect(fieldLabel(field("listing", "price_per_sqft"))).toBe("Price per sq ft ($)");
  expect(fieldLabel(field("sale_comp", "cap_rate"))).toBe("Cap rate");
  expect(fieldLabel(field("property", "year_built"))).toBe("Year built");
  expect(fieldLabel(field("tenant_location", "rent_sqft_year"))).toBe("Rent ($/sq ft/yr)");
  expect(fieldLabel(field("parcel", "apn"))).toBe("APN");
  expect(fieldLabel(field("sale_comp", "distance_miles"))).toBe("Distance (miles)");
  // A field the contract adds later gets a label with no change to the tables.
  expect(fieldLabel({ name: "net_absorption_sqft_12m", type: "number", description: "Occupied area gained, square feet." })).toBe(
    "Net absorption (sq ft, 12 months)",
  );
});

test("figures are the numbers, rates and flags; ids, names, kinds and dates are what the record is about", () => {
  const figures = RESOURCES.market.filter(isFigure).map((f) => f.name);
  expect(figures).toEqual([
    "property_count",
    "thin",
    "inventory_sqft",
    "inventory_units",
    "occupancy_rate",
    "vacancy_rate",
    "asking_rent_sqft_year",
    "asking_rent_unit_month",
    "rent_growth_yoy",
    "median_cap_rate",
    "sales_count_12m",
    "sales_volume_12m",
    "median_price_per_sqft",
    "median_price_per_unit",
    "median_year_built",
  ]);
  expect(RESOURCES.market.filter((f) => !isFigure(f)).map((f) => f.name)).toEqual([
    "id",
    "object",
    "geography_type",
    "geography_id",
    "geography_name",
    "state_code",
    "asset_type",
    "as_of",
  ]);
});
