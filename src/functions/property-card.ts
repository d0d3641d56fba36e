// A property as an Excel entity value (a "card"): the cell shows the property's name, the card
// opens on its fields in sections, and a formula reads any field by its label, =A2.[Year built].
// Hosts with CustomFunctionsRuntime 1.4 take one from a custom function; the shape is Office.js's
// EntityCellValue (test/addin/property-card.test.ts holds it to @types/office-js at compile time).
//
// - Each field is a typed value: numbers and dates as Double with a number format (a date as its
//   serial with "yyyy-mm-dd"), text as String, flags as Boolean. A field the record leaves empty
//   is left off the card (never a 0 that is not in the data), and so is a section left empty.
// - Property names are the fields' labels (field-labels.ts): the words the pane and =PROP.FIELDS
//   show, which PROP.PROPERTY also takes as a field's name.
// - A card is built from a record alone, with no request: the property's record (PROP.CARD) or a
//   list row (ids=cards). A search row is a whole record, so its card is the same; a row that
//   holds less (a sale comp's) makes a card of what it holds, and says so in "Card from".
import { DATE_FORMAT, DATETIME_FORMAT, formattedNumbersSupported, toExcelSerial } from "./cell-values";
import { fieldLabel } from "./field-labels";
import { RESOURCES, type FieldInfo, type ResourceName } from "./record-fields";
import { OPERATIONS } from "../contract/operations";

/** One field of a card: Office.js's DoubleCellValue, StringCellValue or BooleanCellValue. */
export type CardValue =
  | { type: "Double"; basicValue: number; numberFormat: string }
  | { type: "String"; basicValue: string }
  | { type: "Boolean"; basicValue: boolean };

/** A section of the card (Office.js's CardLayoutListSection). */
export interface CardSection {
  layout: "List";
  title: string;
  properties: string[];
}

/** The entity value a card cell holds (a subset of Office.js's EntityCellValue). */
export interface PropertyCard {
  type: "Entity";
  text: string;
  properties: Record<string, CardValue>;
  layouts: { card: { title: string; subTitle?: { property: string }; sections: CardSection[] } };
  provider: { description: string; logoSourceAddress: string; logoTargetAddress: string };
}

/** What a kind of record's card shows: its sections of fields, the id field and how fields are named. */
export interface CardSpec {
  resource: ResourceName;
  /** The field holding the property id (the record links to that property). */
  idField: string;
  /** The field holding the property's name: the cell's text and the card's title. */
  nameField: string;
  sections: readonly { title: string; fields: readonly string[] }[];
  /** Names other than the field's label: the property id is "Property ID" on every card. */
  labels: Readonly<Record<string, string>>;
  /** What the card was built from, shown on it as "Card from", when it is less than the property's record. */
  source?: string;
}

/** The card of a property's record (PROP.CARD, and the search functions' rows, which are whole records). */
export const PROPERTY_CARD: CardSpec = {
  resource: "property",
  idField: "id",
  nameField: "name",
  sections: [
    {
      title: "Identity",
      fields: [
        "id",
        "name",
        "asset_type",
        "subtype",
        "building_class",
        "address",
        "city",
        "state_code",
        "zip",
        "parcel_id",
        "latitude",
        "longitude",
      ],
    },
    { title: "Building", fields: ["building_area_sqft", "land_area_acres", "units", "year_built", "stories"] },
    { title: "Occupancy and rents", fields: ["occupancy_rate", "asking_rent_sqft_year", "asking_rent_unit_month", "tenant_count"] },
    { title: "Value and last sale", fields: ["estimated_value", "last_sale_date", "last_sale_price", "last_sale_id"] },
    { title: "Owner", fields: ["owner_name", "owner_id"] },
    { title: "Market", fields: ["metro_name", "metro_id", "county", "county_fips"] },
  ],
  labels: { id: "Property ID" },
};

/**
 * The card of a sale comp row (PROP.SALECOMPS with ids=cards): the property as the sale
 * describes it, and the sale. Occupancy, rents, owner and metro name are not in the row:
 * =PROP.CARD of the property id gives the whole record.
 */
export const SALE_COMP_CARD: CardSpec = {
  resource: "sale_comp",
  idField: "property_id",
  nameField: "property_name",
  sections: [
    {
      title: "Identity",
      fields: [
        "property_id",
        "property_name",
        "asset_type",
        "subtype",
        "building_class",
        "address",
        "city",
        "state_code",
        "zip",
        "latitude",
        "longitude",
      ],
    },
    { title: "Building", fields: ["building_area_sqft", "land_area_acres", "units", "year_built"] },
    {
      title: "This sale",
      fields: [
        "id",
        "sale_date",
        "sale_price",
        "price_per_sqft",
        "price_per_unit",
        "price_per_acre",
        "cap_rate",
        "occupancy_at_sale",
        "sale_type",
      ],
    },
    { title: "Buyer and seller", fields: ["buyer_name", "buyer_id", "seller_name", "seller_id", "broker_name", "broker_id"] },
    { title: "Market", fields: ["metro_id", "county_fips", "distance_miles", "similarity_score", "months_since_sale"] },
  ],
  labels: { id: "Sale ID", property_id: "Property ID", property_name: "Name" },
  source: "A sale comp row: the sale's fields; =PROP.CARD(the property ID) gives the whole record",
};

/**
 * Whether the host shows entity values returned by custom functions. They come with
 * CustomFunctionsRuntime 1.4, as formatted numbers do: one requirement set, asked the same way.
 */
export function cardsSupported(): boolean {
  return formattedNumbersSupported();
}

/** The card's own properties beside the record's fields. */
export const RECORD_PROPERTY = "Record";
export const SOURCE_PROPERTY = "Card from";

/**
 * The number format of a numeric field, from its schema and label: a rate as a percentage, a
 * year as digits, a dollar amount in whole dollars (a price per sq ft with cents), an area in
 * sq ft or a count in whole numbers with thousands separators, coordinates to six places,
 * anything else to two.
 */
export function cardNumberFormat(field: FieldInfo, label: string): string {
  if (field.format === "fraction") return "0.0%";
  if (field.format === "date") return DATE_FORMAT;
  if (field.format === "datetime") return DATETIME_FORMAT;
  const integer = field.type.startsWith("integer");
  if (integer && /year/.test(field.name) && !label.includes("$")) return "0";
  if (label.includes("$")) return /sq ft/.test(label) ? "$#,##0.00" : "$#,##0";
  if (/\(sq ft\)/.test(label)) return "#,##0";
  if (field.name === "latitude" || field.name === "longitude") return "0.000000";
  return integer ? "#,##0" : "#,##0.00";
}

/** A field as its cards show it: its name on the card, its number format, whether its text is a date. */
interface CardField {
  name: string;
  label: string;
  numberFormat: string;
  dated: boolean;
}

/** Each spec's sections as CardFields, worked out once: the labels and formats are the same on every card. */
const PLANS = new WeakMap<CardSpec, { title: string; fields: CardField[] }[]>();

function planOf(spec: CardSpec): { title: string; fields: CardField[] }[] {
  let plan = PLANS.get(spec);
  if (plan) return plan;
  const infos = new Map(RESOURCES[spec.resource].map((f) => [f.name, f]));
  plan = spec.sections.map((section) => ({
    title: section.title,
    fields: section.fields.map((name) => {
      const info = infos.get(name);
      if (!info) throw new Error(`${spec.resource} has no field ${name}`);
      const label = cardLabel(spec, info);
      return { name, label, numberFormat: cardNumberFormat(info, label), dated: info.format === "date" || info.format === "datetime" };
    }),
  }));
  PLANS.set(spec, plan);
  return plan;
}

/** One value as a card's typed value; null for a value the record does not hold. */
function cardValue(value: unknown, field: CardField): CardValue | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "boolean") return { type: "Boolean", basicValue: value };
  if (typeof value === "number")
    return Number.isFinite(value) ? { type: "Double", basicValue: value, numberFormat: field.numberFormat } : null;
  if (typeof value === "string" && field.dated) {
    const serial = toExcelSerial(value);
    // A date that does not read as one stays its text rather than becoming a wrong number.
    if (!Number.isNaN(serial)) return { type: "Double", basicValue: serial, numberFormat: field.numberFormat };
  }
  if (Array.isArray(value)) return value.length === 0 ? null : { type: "String", basicValue: value.map(String).join(", ") };
  return { type: "String", basicValue: typeof value === "string" ? value : JSON.stringify(value) };
}

/** A card property's name for a field: the spec's own, else the field's label. */
export function cardLabel(spec: CardSpec, field: FieldInfo): string {
  return spec.labels[field.name] ?? fieldLabel(field);
}

/** The links of a card to the service that answered it (`serviceUrl`: its base URL, no trailing slash). */
export function recordLinks(serviceUrl: string, propertyId: string): { record: string; reference: string; logo: string } {
  const { tag, name: operationId, path } = OPERATIONS.getProperty;
  return {
    // The record itself, as the API answers it (with an API key).
    record: `${serviceUrl}${path.replace("{property_id}", encodeURIComponent(propertyId))}`,
    // The operation in the interactive API reference (Swagger UI's deep link: tag/operationId).
    reference: `${serviceUrl}/docs/api#/${tag.replace(/\s/g, "_")}/${operationId}`,
    logo: `${serviceUrl}/addin/assets/icon-32.png`,
  };
}

/**
 * The card of one record: each field of the spec's sections the record holds, typed and named by
 * its label, in sections left out when empty; then where it came from. Null when the record has no
 * property id (nothing to link the card to).
 */
export function buildCard(record: Readonly<Record<string, unknown>>, spec: CardSpec, serviceUrl: string): PropertyCard | null {
  const id = record[spec.idField];
  if (typeof id !== "string" || id === "") return null;
  const properties: Record<string, CardValue> = {};
  const sections: CardSection[] = [];
  let addressLabel: string | null = null;
  for (const section of planOf(spec)) {
    const names: string[] = [];
    for (const field of section.fields) {
      const value = cardValue(record[field.name], field);
      if (value === null) continue;
      properties[field.label] = value;
      names.push(field.label);
      if (field.name === "address") addressLabel = field.label;
    }
    if (names.length > 0) sections.push({ layout: "List", title: section.title, properties: names });
  }
  const links = recordLinks(serviceUrl, id);
  properties[RECORD_PROPERTY] = { type: "String", basicValue: links.record };
  if (spec.source) properties[SOURCE_PROPERTY] = { type: "String", basicValue: spec.source };
  sections.push({ layout: "List", title: "Source", properties: spec.source ? [RECORD_PROPERTY, SOURCE_PROPERTY] : [RECORD_PROPERTY] });
  const name = record[spec.nameField];
  const address = record.address;
  const text = typeof name === "string" && name !== "" ? name : typeof address === "string" && address !== "" ? address : id;
  return {
    type: "Entity",
    text,
    properties,
    layouts: {
      card: {
        title: text,
        ...(addressLabel && text !== address ? { subTitle: { property: addressLabel } } : {}),
        sections,
      },
    },
    provider: { description: "Property Intelligence", logoSourceAddress: links.logo, logoTargetAddress: links.reference },
  };
}
