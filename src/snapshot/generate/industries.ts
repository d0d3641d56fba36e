// Tenant industries, grouped by the kind of space they lease, and which groups lease which
// asset types. Group shares set how many tenant companies each group gets.
import type { AssetType } from "../../contract/vocabulary";

export type IndustryGroup = "office" | "retail" | "industrial" | "medical" | "specialty" | "entertainment";

export const INDUSTRY_GROUPS: { name: IndustryGroup; share: number; industries: string[] }[] = [
  {
    name: "office",
    share: 0.33,
    industries: [
      "Legal Services",
      "Financial Services",
      "Insurance",
      "Technology",
      "Consulting",
      "Government",
      "Engineering",
      "Real Estate Services",
      "Advertising & Media",
      "Accounting",
      "Staffing",
    ],
  },
  {
    name: "retail",
    share: 0.36,
    industries: [
      "Grocery",
      "Apparel",
      "Restaurant",
      "Quick Service Restaurant",
      "Pharmacy",
      "Fitness",
      "Home Improvement",
      "Electronics",
      "Banking",
      "Discount Retail",
      "Personal Services",
      "Pet Supplies",
    ],
  },
  {
    name: "industrial",
    share: 0.18,
    industries: [
      "Logistics",
      "E-commerce Fulfillment",
      "Manufacturing",
      "Food & Beverage Distribution",
      "Building Materials",
      "Automotive Parts",
      "Third-Party Logistics",
      "Medical Devices",
      "Aerospace Components",
      "Packaging",
    ],
  },
  {
    name: "medical",
    share: 0.07,
    industries: [
      "Physician Practice",
      "Dental",
      "Urgent Care",
      "Dialysis",
      "Physical Therapy",
      "Imaging",
      "Ambulatory Surgery",
      "Behavioral Health",
    ],
  },
  {
    name: "specialty",
    share: 0.03,
    industries: ["Data Services", "Education", "Self Storage Operations", "Car Care", "Religious Organization", "Parking Operations"],
  },
  { name: "entertainment", share: 0.03, industries: ["Entertainment", "Fitness", "Cinema", "Recreation"] },
];

export const TENANT_GROUPS_BY_ASSET: Partial<Record<AssetType, [IndustryGroup, number][]>> = {
  office: [
    ["office", 0.92],
    ["medical", 0.05],
    ["specialty", 0.03],
  ],
  retail: [
    ["retail", 0.88],
    ["medical", 0.06],
    ["entertainment", 0.06],
  ],
  industrial: [["industrial", 1]],
  flex: [
    ["industrial", 0.6],
    ["office", 0.3],
    ["medical", 0.1],
  ],
  "health-care": [["medical", 1]],
  specialty: [["specialty", 1]],
  "sports-and-entertainment": [["entertainment", 1]],
};
