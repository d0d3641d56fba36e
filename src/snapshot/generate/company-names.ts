// Synthetic company names from templates: {P} a place-like word, {N} a noun, {L} a surname,
// {R} a fund numeral, {F} the owner's focus word. Names are made unique per snapshot, so a
// search by owner name finds one company.
import type { AssetType, CompanyType } from "../../contract/vocabulary";
import { slugify } from "../geo-keys";
import type { Random } from "./random";
import { LAST_NAMES, NOUN_WORDS, PLACE_WORDS, ROMAN } from "./words";

const GENERAL_OWNER = [
  "{P} Realty Trust",
  "{N} Properties LLC",
  "{P} Capital Partners",
  "{L} Family Holdings",
  "{N} Real Estate Fund {R} LP",
  "{N} Realty Advisors",
  "{P} Investment Group",
  "{L} & {L} Properties",
  "{N} Equities",
  "{P} Holdings LLC",
];
const FOCUSED_OWNER = ["{N} {F} Partners LLC", "{P} {F} REIT", "{N} {F} Fund {R}", "{P} {F} Holdings", "{N} {F} Trust"];

const FOCUS: Record<AssetType, string[]> = {
  multifamily: ["Residential", "Apartment", "Living"],
  industrial: ["Industrial", "Logistics"],
  office: ["Office", "Commercial"],
  retail: ["Retail", "Shopping Center"],
  land: ["Land", "Ranch"],
  hospitality: ["Hospitality", "Hotel"],
  "health-care": ["Healthcare", "Medical Properties"],
  flex: ["Flex", "Business Park"],
  specialty: ["Storage", "Net Lease"],
  "sports-and-entertainment": ["Entertainment", "Venue"],
  student: ["Student Living", "Campus Housing"],
  "senior-living": ["Senior Housing", "Senior Living"],
};

const BY_TYPE: Record<Exclude<CompanyType, "owner" | "tenant">, string[]> = {
  broker: [
    "{P} Commercial Realty",
    "{L} & {L} Real Estate Advisors",
    "{N} Realty Group",
    "{N} Commercial",
    "{P} Properties Brokerage",
    "{L} {N} Realtors",
    "{N} Capital Markets",
  ],
  lender: [
    "{P} National Bank",
    "{N} Capital Lending",
    "{P} Federal Savings",
    "{N} Mortgage Trust",
    "{P} Life Insurance Company",
    "{N} Credit Partners",
    "{P} Community Bank",
  ],
  "property-manager": [
    "{N} Property Management",
    "{P} Asset Services",
    "{N} Management Group",
    "{L} Property Services",
    "{P} Facilities Management",
  ],
  developer: [
    "{N} Development Co.",
    "{P} Builders LLC",
    "{L} Development Partners",
    "{N} Construction & Development",
    "{P} Land Company",
    "{N} Urban Ventures",
  ],
};

/** Tenant industries with name templates. */
export const TENANT_TEMPLATES: Record<string, string[]> = {
  "Legal Services": ["{L}, {L} & {L} LLP", "{L} {L} LLP", "{L} Law Group"],
  "Financial Services": ["{N} Wealth Partners", "{P} Financial Group", "{N} Asset Management"],
  Insurance: ["{N} Insurance Agency", "{P} Mutual Insurance", "{N} Risk Services"],
  Technology: ["{N} Software", "{N} Analytics", "{N} Cloud Systems", "{N} Labs"],
  Consulting: ["{N} Consulting Group", "{L} Advisory"],
  Government: ["{P} County Human Services", "{P} Regional Transit Authority"],
  Engineering: ["{L} {N} Engineers", "{N} Engineering"],
  "Real Estate Services": ["{N} Realty Services", "{P} Title Company"],
  "Advertising & Media": ["{N} Creative", "{N} Media Group"],
  Accounting: ["{L} & {L} CPAs", "{N} Tax & Accounting"],
  Staffing: ["{N} Staffing Solutions", "{P} Talent Partners"],
  Grocery: ["{P} Market", "{N} Fresh Foods", "{P} Grocers"],
  Apparel: ["{N} Outfitters", "{L} & Co. Apparel", "{N} Threads"],
  Restaurant: ["{L}'s Kitchen", "{N} Grill", "{P} Bistro", "{N} Tavern"],
  "Quick Service Restaurant": ["{N} Burger", "{N} Taco", "{N} Coffee", "{N} Pizza", "{N} Chicken"],
  Pharmacy: ["{N} Pharmacy", "{P} Drug"],
  Fitness: ["{N} Fitness", "{N} Athletic Club"],
  "Home Improvement": ["{N} Home & Hardware", "{P} Lumber"],
  Electronics: ["{N} Electronics", "{N} Mobile"],
  Banking: ["{P} Savings Bank", "{N} Credit Union"],
  "Discount Retail": ["{N} Dollar & More", "{N} Outlet"],
  "Personal Services": ["{N} Salon", "{N} Cleaners", "{L} Barber Co."],
  "Pet Supplies": ["{N} Pet Supply", "{P} Pet Care"],
  Logistics: ["{N} Logistics", "{N} Freight"],
  "E-commerce Fulfillment": ["{N} Fulfillment", "{N} Direct"],
  Manufacturing: ["{N} Manufacturing", "{L} Precision Products", "{N} Industries"],
  "Food & Beverage Distribution": ["{P} Foods Distribution", "{N} Beverage Co."],
  "Building Materials": ["{N} Building Supply", "{P} Stone & Tile"],
  "Automotive Parts": ["{N} Auto Parts", "{N} Automotive"],
  "Third-Party Logistics": ["{N} Supply Chain", "{N} Distribution Services"],
  "Medical Devices": ["{N} Medical Devices", "{N} Biomedical"],
  "Aerospace Components": ["{N} Aerospace", "{N} Aviation Components"],
  Packaging: ["{N} Packaging", "{N} Containers"],
  "Physician Practice": ["{P} Family Medicine", "{L} Orthopedics", "{P} Pediatrics"],
  Dental: ["{N} Dental Group", "{P} Dental Care"],
  "Urgent Care": ["{N} Urgent Care", "{P} Walk-In Clinic"],
  Dialysis: ["{N} Kidney Care", "{P} Dialysis Center"],
  "Physical Therapy": ["{N} Physical Therapy", "{P} Rehab Partners"],
  Imaging: ["{N} Imaging Center", "{P} Radiology"],
  "Ambulatory Surgery": ["{P} Surgery Partners", "{N} Surgical Center"],
  "Behavioral Health": ["{N} Behavioral Health", "{P} Counseling Center"],
  "Data Services": ["{N} Data Systems", "{N} Networks"],
  Education: ["{N} Learning Academy", "{P} Charter School"],
  "Self Storage Operations": ["{N} Storage Management", "{P} Storage Co."],
  "Car Care": ["{N} Car Care", "{N} Express Wash"],
  "Religious Organization": ["{P} Fellowship", "{P} Community Church"],
  "Parking Operations": ["{N} Parking", "{P} Parking Services"],
  Entertainment: ["{N} Entertainment", "{N} Live"],
  Cinema: ["{N} Cinemas", "{P} Theatres"],
  Recreation: ["{N} Family Fun", "{P} Recreation"],
};

function fill(template: string, rng: Random, focus: string): string {
  return template.replace(/\{([PNLRF])\}/g, (_, k: string) => {
    if (k === "P") return rng.pick(PLACE_WORDS);
    if (k === "N") return rng.pick(NOUN_WORDS);
    if (k === "L") return rng.pick(LAST_NAMES);
    if (k === "R") return rng.pick(ROMAN);
    return focus;
  });
}

export function ownerName(rng: Random, focus: AssetType | null): string {
  if (!focus) return fill(rng.pick(GENERAL_OWNER), rng, "");
  return fill(rng.pick(FOCUSED_OWNER), rng, rng.pick(FOCUS[focus]));
}

export function tenantName(rng: Random, industry: string): string {
  return fill(rng.pick(TENANT_TEMPLATES[industry]), rng, "");
}

export function serviceCompanyName(rng: Random, type: Exclude<CompanyType, "owner" | "tenant">): string {
  return fill(rng.pick(BY_TYPE[type]), rng, "");
}

/** Keeps names unique: redraws a few times, then adds a distinguishing numeral. */
export class UniqueNames {
  private readonly used = new Set<string>();

  take(make: () => string): string {
    let name = make();
    for (let i = 0; i < 4 && this.used.has(name); i++) name = make();
    if (this.used.has(name)) {
      const base = name;
      for (let n = 2; this.used.has(name); n++) name = `${base} ${n}`;
    }
    this.used.add(name);
    return name;
  }
}

/** A website on the reserved `.example` domain, derived from the name. */
export function websiteFor(name: string): string {
  const core = slugify(name.replace(/\b(LLC|LLP|LP|Inc\.?|Co\.?|Company|REIT)\b/g, "")).replace(/-/g, "");
  return `https://www.${core.slice(0, 40)}.example`;
}
