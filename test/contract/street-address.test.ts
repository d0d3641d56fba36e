// The address grammar reads an address as a postal service does: the same street, city, state
// and parcel number in their several spellings come to the same parts and keys.
import { apnKey, cityKey, countyKey, segments, stateOf, streetLine, tokens } from "../../src/contract/street-address";

const line = (text: string) => streetLine(tokens(text));

test("tokens drop case, accents, periods and apostrophes, keep # apart and a ZIP+4's first five digits", () => {
  expect(tokens("623 N. Washington Blvd., Ste #200, Austin, TX 78721-1234")).toEqual([
    "623",
    "N",
    "WASHINGTON",
    "BLVD",
    "STE",
    "#",
    "200",
    "AUSTIN",
    "TX",
    "78721",
  ]);
  expect(tokens("O'Brien Café Rd")).toEqual(["OBRIEN", "CAFE", "RD"]);
  // Waipi‘o, Waipi'o and Waipio are one name.
  expect(new Set(["Waipi\u2018o Acres", "Waipi'o Acres", "Waipio Acres", "Waipi\u02bbo Acres"].map((c) => tokens(c).join(" ")))).toEqual(
    new Set(["WAIPIO ACRES"]),
  );
  expect(segments("623 Washington Blvd,, Austin ,TX")).toEqual([["623", "WASHINGTON", "BLVD"], ["AUSTIN"], ["TX"]]);
});

test.each([
  ["623 Washington Blvd", { number: "623", predir: null, name: ["WASHINGTON"], suffix: "BLVD", postdir: null }],
  ["623 washington boulevard", { number: "623", predir: null, name: ["WASHINGTON"], suffix: "BLVD", postdir: null }],
  ["0623 North Main Street South", { number: "623", predir: "N", name: ["MAIN"], suffix: "ST", postdir: "S" }],
  ["623 N Main St Ste 200", { number: "623", predir: "N", name: ["MAIN"], suffix: "ST", postdir: null }],
  ["10 Fifth Avenue", { number: "10", predir: null, name: ["5TH"], suffix: "AVE", postdir: null }],
  ["10 5th Ave", { number: "10", predir: null, name: ["5TH"], suffix: "AVE", postdir: null }],
  // A directional or suffix word that is all the name there is stays the name.
  ["12 North St", { number: "12", predir: null, name: ["NORTH"], suffix: "ST", postdir: null }],
  ["12 Parkway Blvd", { number: "12", predir: null, name: ["PARKWAY"], suffix: "BLVD", postdir: null }],
  ["12 Broadway", { number: "12", predir: null, name: ["BROADWAY"], suffix: null, postdir: null }],
  ["623-625 Oak Ct", { number: "623", predir: null, name: ["OAK"], suffix: "CT", postdir: null }],
  ["623 1/2 Oak Ct", { number: "623", predir: null, name: ["OAK"], suffix: "CT", postdir: null }],
  ["Oak Ct", { number: "", predir: null, name: ["OAK"], suffix: "CT", postdir: null }],
])("%s is read as its parts", (text, parts) => {
  expect(line(text)).toEqual(parts);
});

test("a state is its code or its name, in any case and with periods", () => {
  expect(["TX", "tx", "Texas", "TEXAS", "T.X."].map(stateOf)).toEqual(["TX", "TX", "TX", "TX", "TX"]);
  expect(["District of Columbia", "new york", "DC"].map(stateOf)).toEqual(["DC", "NY", "DC"]);
  expect(["Texsa", "XX", "", "Tex"].map(stateOf)).toEqual([undefined, undefined, undefined, undefined]);
});

test("cities, counties and parcel numbers compare in their usual spellings", () => {
  expect(cityKey("St. Louis")).toBe(cityKey("Saint Louis"));
  expect(cityKey("Fort Worth")).toBe(cityKey("FT WORTH"));
  expect(cityKey("Austin")).not.toBe(cityKey("Boston"));
  expect(countyKey("Travis County")).toBe(countyKey("travis"));
  expect(countyKey("St. Tammany Parish")).toBe(countyKey("Saint Tammany"));
  expect(apnKey("123-456-78")).toBe(apnKey("12345678"));
  expect(apnKey("r 123 456")).toBe("R123456");
});
