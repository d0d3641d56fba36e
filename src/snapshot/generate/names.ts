// Property names, by subtype where the name says what the building is ("Meridian Self
// Storage", "Cedar Ridge Medical Office Building"), else by asset type. Some industrial and
// office buildings go by their address, as many do.
import type { AssetType } from "../../contract/vocabulary";
import type { Random } from "./random";
import { NOUN_WORDS, PLACE_WORDS } from "./words";

const BY_ASSET: Record<AssetType, string[]> = {
  multifamily: ["{W} Apartments", "The Residences at {W}", "{W} Flats", "{W} Commons", "The {N} at {W}", "{W} Place Apartments"],
  industrial: ["{W} Logistics Center", "{W} Distribution Center", "{W} Industrial Park", "{N} Commerce Center", "{A}"],
  office: ["{N} Tower", "{W} Plaza", "{W} Corporate Center", "{N} Office Park", "One {N} Place", "{A}"],
  retail: ["{W} Shopping Center", "{W} Marketplace", "{W} Plaza", "{W} Crossing", "{W} Town Center", "Shops at {W}"],
  land: ["{W} Tract", "{W} Acreage", "{N} Land Parcel", "{W} Development Site"],
  hospitality: ["{W} Hotel", "{N} Inn & Suites", "{W} Lodge", "{N} Hotel & Conference Center"],
  "health-care": ["{W} Medical Office Building", "{W} Medical Center", "{N} Health Pavilion"],
  flex: ["{W} Business Park", "{N} Tech Center", "{W} Commerce Park"],
  specialty: ["{W} Center", "{N} Building"],
  "sports-and-entertainment": ["{N} Entertainment Center", "{W} Event Center"],
  student: ["{W} Student Living", "The {N} on {S}", "{W} Campus Lofts"],
  "senior-living": ["{W} Senior Living", "{N} Senior Residences", "The {N} at {W}"],
};

const BY_SUBTYPE: Record<string, string[]> = {
  "self-storage": ["{N} Self Storage", "{W} Storage"],
  "data-center": ["{N} Data Center"],
  "car-wash": ["{N} Car Wash"],
  school: ["{W} Academy", "{N} Preparatory School"],
  religious: ["{W} Community Church", "{N} Fellowship Hall"],
  "parking-garage": ["{S} Parking Garage"],
  "gas-station": ["{N} Fuel Stop"],
  arena: ["{N} Arena"],
  stadium: ["{N} Stadium", "{N} Field"],
  "movie-theater": ["{N} Cinemas"],
  "bowling-center": ["{N} Lanes"],
  "fitness-center": ["{N} Athletic Club"],
  "golf-course": ["{W} Golf Club"],
  casino: ["{N} Casino"],
  "amusement-park": ["{N} Fun Park"],
  "performing-arts": ["{N} Performing Arts Center"],
  resort: ["{W} Resort & Spa"],
  motel: ["{N} Motor Inn"],
  "extended-stay": ["{N} Extended Stay Suites"],
  hospital: ["{W} Regional Hospital"],
  "ambulatory-surgery": ["{W} Surgery Center"],
  "life-science-lab": ["{N} Life Science Center"],
  "memory-care": ["{W} Memory Care"],
  "assisted-living": ["{W} Assisted Living"],
  "regional-mall": ["{W} Mall", "{W} Galleria"],
  "power-center": ["{W} Power Center"],
};

export function propertyName(rng: Random, asset: AssetType, subtype: string, address: string, street: string): string {
  const templates = BY_SUBTYPE[subtype] ?? BY_ASSET[asset];
  return rng.pick(templates).replace(/\{([WNAS])\}/g, (_, k: string) => {
    if (k === "W") return rng.pick(PLACE_WORDS);
    if (k === "N") return rng.pick(NOUN_WORDS);
    if (k === "S") return street;
    return address;
  });
}
