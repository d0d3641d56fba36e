// How each asset type looks in the generated data: its share of properties, sizes, vintages,
// occupancy, rents, operating margins and cap rates. Figures are round numbers in the range of
// published US market reports (2024-2026); market price levels scale them (market-model.ts).
import type { AssetType } from "../../contract/vocabulary";

export interface Subtype {
  name: string;
  weight: number;
  /** Multiplies the type's median size (a regional mall is bigger than a strip center). */
  size: number;
}

export interface AssetProfile {
  share: number;
  /** City weight is population^cityExponent: above 1 concentrates the type in big cities. */
  cityExponent: number;
  /** Unit-based types are sized in units (units, beds or keys); building area follows. */
  unitBased: boolean;
  /** Median and log-sigma of size (sq ft, or units when unitBased), and the clamp range. */
  size: [median: number, sigma: number, min: number, max: number];
  sqftPerUnit: number;
  /** Mean and sd of year built, clamped to [1880, capture year]. */
  vintage: [mean: number, sd: number];
  /** Median vacancy (log-normal) and the chance a property is fully occupied. */
  vacancy: number;
  fullChance: number;
  /** Base rent: USD/sq ft/year, or USD/unit/month for unitBased (null for hotels). */
  rent: number | null;
  /** Annual rent growth of new leases, before market noise. */
  rentGrowth: number;
  /** Net operating income as a share of occupied gross rent. */
  margin: number;
  /** Base cap rate in an average market. */
  cap: number;
  /** Average suite size for multi-tenant splits; null when the type carries no tenancies. */
  suiteSqft: number | null;
  maxTenants: number;
  /** Floor-area ratio used to size the site. */
  far: number;
  subtypes: Subtype[];
}

const sub = (name: string, weight: number, size = 1): Subtype => ({ name, weight, size });

export const ASSET_PROFILES: Record<AssetType, AssetProfile> = {
  multifamily: {
    share: 0.2,
    cityExponent: 1.05,
    unitBased: true,
    size: [96, 0.95, 5, 1400],
    sqftPerUnit: 950,
    vintage: [1985, 22],
    vacancy: 0.055,
    fullChance: 0.04,
    rent: 1450,
    rentGrowth: 0.025,
    margin: 0.6,
    cap: 0.0525,
    suiteSqft: null,
    maxTenants: 0,
    far: 1.2,
    subtypes: [
      sub("garden", 45, 0.9),
      sub("mid-rise", 22, 1.4),
      sub("high-rise", 8, 3),
      sub("townhome", 10, 0.5),
      sub("affordable", 15, 0.9),
    ],
  },
  industrial: {
    share: 0.17,
    cityExponent: 0.95,
    unitBased: false,
    size: [85_000, 0.9, 20_000, 1_000_000],
    sqftPerUnit: 0,
    vintage: [1992, 20],
    vacancy: 0.06,
    fullChance: 0.45,
    rent: 9.5,
    rentGrowth: 0.055,
    margin: 0.88,
    cap: 0.0575,
    suiteSqft: 90_000,
    maxTenants: 5,
    far: 0.42,
    subtypes: [
      sub("warehouse", 34),
      sub("distribution", 26, 2),
      sub("manufacturing", 20, 1.2),
      sub("cold-storage", 5, 0.9),
      sub("truck-terminal", 4, 0.5),
      sub("light-industrial", 8, 0.5),
      sub("showroom", 3, 0.5),
    ],
  },
  office: {
    share: 0.14,
    cityExponent: 1.15,
    unitBased: false,
    size: [42_000, 1.05, 4_000, 2_500_000],
    sqftPerUnit: 0,
    vintage: [1982, 22],
    vacancy: 0.14,
    fullChance: 0.08,
    rent: 29,
    rentGrowth: 0.005,
    margin: 0.55,
    cap: 0.0825,
    suiteSqft: 20_000,
    maxTenants: 14,
    far: 1.1,
    subtypes: [
      sub("cbd-office", 20, 4),
      sub("suburban-office", 45),
      sub("office-park", 18, 0.9),
      sub("creative-office", 10, 0.6),
      sub("government-office", 7, 1.2),
    ],
  },
  retail: {
    share: 0.2,
    cityExponent: 1.0,
    unitBased: false,
    size: [18_000, 1.1, 1_500, 1_400_000],
    sqftPerUnit: 0,
    vintage: [1988, 18],
    vacancy: 0.055,
    fullChance: 0.3,
    rent: 22,
    rentGrowth: 0.02,
    margin: 0.75,
    cap: 0.0675,
    suiteSqft: 10_000,
    maxTenants: 12,
    far: 0.25,
    subtypes: [
      sub("strip-center", 26, 0.8),
      sub("neighborhood-center", 20, 3.5),
      sub("grocery-anchored", 12, 4),
      sub("power-center", 4, 12),
      sub("regional-mall", 2, 30),
      sub("freestanding", 28, 0.35),
      sub("restaurant", 6, 0.25),
      sub("auto-service", 2, 0.3),
    ],
  },
  land: {
    share: 0.08,
    cityExponent: 0.8,
    unitBased: false,
    size: [9, 1.3, 0.25, 2_500],
    sqftPerUnit: 0,
    vintage: [0, 0],
    vacancy: 0,
    fullChance: 0,
    rent: null,
    rentGrowth: 0,
    margin: 0,
    cap: 0,
    suiteSqft: null,
    maxTenants: 0,
    far: 0,
    subtypes: [
      sub("commercial-land", 30),
      sub("industrial-land", 20, 2),
      sub("residential-land", 25, 1.5),
      sub("agricultural-land", 15, 6),
      sub("mixed-use-land", 10, 0.7),
    ],
  },
  hospitality: {
    share: 0.04,
    cityExponent: 0.95,
    unitBased: true,
    size: [110, 0.75, 12, 2_000],
    sqftPerUnit: 560,
    vintage: [1990, 18],
    vacancy: 0.32,
    fullChance: 0,
    rent: null,
    rentGrowth: 0,
    margin: 0.3,
    cap: 0.0825,
    suiteSqft: null,
    maxTenants: 0,
    far: 1.0,
    subtypes: [
      sub("select-service", 32),
      sub("limited-service", 25, 0.7),
      sub("full-service", 15, 2.5),
      sub("extended-stay", 14),
      sub("resort", 5, 2.2),
      sub("motel", 9, 0.5),
    ],
  },
  "health-care": {
    share: 0.04,
    cityExponent: 1.05,
    unitBased: false,
    size: [24_000, 0.95, 3_000, 900_000],
    sqftPerUnit: 0,
    vintage: [1992, 17],
    vacancy: 0.075,
    fullChance: 0.3,
    rent: 25,
    rentGrowth: 0.025,
    margin: 0.65,
    cap: 0.07,
    suiteSqft: 14_000,
    maxTenants: 6,
    far: 0.5,
    subtypes: [
      sub("medical-office", 55),
      sub("outpatient-clinic", 18, 0.6),
      sub("ambulatory-surgery", 10, 0.7),
      sub("hospital", 6, 12),
      sub("rehabilitation", 6, 1.5),
      sub("life-science-lab", 5, 2.5),
    ],
  },
  flex: {
    share: 0.05,
    cityExponent: 1.0,
    unitBased: false,
    size: [32_000, 0.65, 5_000, 300_000],
    sqftPerUnit: 0,
    vintage: [1990, 14],
    vacancy: 0.07,
    fullChance: 0.3,
    rent: 14,
    rentGrowth: 0.035,
    margin: 0.75,
    cap: 0.07,
    suiteSqft: 14_000,
    maxTenants: 6,
    far: 0.35,
    subtypes: [sub("r-and-d", 30), sub("light-industrial-flex", 35), sub("showroom-flex", 15, 0.8), sub("incubator", 20, 0.6)],
  },
  specialty: {
    share: 0.03,
    cityExponent: 1.0,
    unitBased: false,
    size: [35_000, 1.0, 2_000, 900_000],
    sqftPerUnit: 0,
    vintage: [1995, 18],
    vacancy: 0.08,
    fullChance: 0.5,
    rent: 15,
    rentGrowth: 0.03,
    margin: 0.7,
    cap: 0.0675,
    suiteSqft: 30_000,
    maxTenants: 3,
    far: 0.4,
    subtypes: [
      sub("self-storage", 40, 1.8),
      sub("data-center", 8, 3),
      sub("car-wash", 12, 0.12),
      sub("school", 12, 1.5),
      sub("religious", 14, 0.5),
      sub("parking-garage", 9, 4),
      sub("gas-station", 5, 0.1),
    ],
  },
  "sports-and-entertainment": {
    share: 0.015,
    cityExponent: 1.05,
    unitBased: false,
    size: [45_000, 1.1, 5_000, 2_000_000],
    sqftPerUnit: 0,
    vintage: [1990, 20],
    vacancy: 0.1,
    fullChance: 0.55,
    rent: 18,
    rentGrowth: 0.015,
    margin: 0.6,
    cap: 0.085,
    suiteSqft: 35_000,
    maxTenants: 2,
    far: 0.3,
    subtypes: [
      sub("fitness-center", 28, 0.6),
      sub("movie-theater", 16),
      sub("bowling-center", 12, 0.8),
      sub("golf-course", 12, 0.25),
      sub("arena", 5, 8),
      sub("stadium", 3, 15),
      sub("casino", 5, 5),
      sub("amusement-park", 6, 2),
      sub("performing-arts", 13, 1.2),
    ],
  },
  student: {
    share: 0.015,
    cityExponent: 1.0,
    unitBased: true,
    size: [420, 0.6, 60, 2_500],
    sqftPerUnit: 380,
    vintage: [2008, 12],
    vacancy: 0.05,
    fullChance: 0.06,
    rent: 820,
    rentGrowth: 0.03,
    margin: 0.55,
    cap: 0.0575,
    suiteSqft: null,
    maxTenants: 0,
    far: 1.5,
    subtypes: [sub("pedestrian-to-campus", 50), sub("drive-to-campus", 30, 0.9), sub("cottage-style", 20, 0.7)],
  },
  "senior-living": {
    share: 0.02,
    cityExponent: 1.0,
    unitBased: true,
    size: [105, 0.55, 16, 700],
    sqftPerUnit: 820,
    vintage: [2000, 14],
    vacancy: 0.12,
    fullChance: 0,
    rent: 4_600,
    rentGrowth: 0.04,
    margin: 0.32,
    cap: 0.0675,
    suiteSqft: null,
    maxTenants: 0,
    far: 0.6,
    subtypes: [
      sub("independent-living", 28, 1.4),
      sub("assisted-living", 35),
      sub("memory-care", 15, 0.5),
      sub("skilled-nursing", 14, 1.1),
      sub("ccrc", 8, 2.5),
    ],
  },
};

/** Hotels: average daily rate in an average market, to value keys on income. */
export const HOTEL_ADR = 145;
