// The parts of the npm package parse-address (a port of Perl's Geo::StreetAddress::US) that
// compare-address-parsers.ts calls: the package ships no types.
declare module "parse-address" {
  /** An address's parts; a part the text does not have is absent. Abbreviations come normalized ("Street" as "St", "North" as "N", "Texas" as "TX"). */
  export interface ParsedLocation {
    number?: string;
    prefix?: string;
    street?: string;
    type?: string;
    suffix?: string;
    sec_unit_type?: string;
    sec_unit_num?: string;
    city?: string;
    state?: string;
    zip?: string;
    plus4?: string;
  }

  /** The parts of an address, a PO box or an intersection (then street1, street2…); null when the text reads as none. */
  export function parseLocation(address: string): ParsedLocation | null;
}
