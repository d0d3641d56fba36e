// What a 400 or 404 can mean, in the words the OpenAPI document gives them, for the problems
// several operations share (an operation's `badRequest` and `notFound`, contract/operation.ts).

/** A 400 of an operation that takes a place; these problems carry `suggestions`. */
export const PLACE_PROBLEMS =
  "a place the snapshot does not hold (`unknown_place`), a city name found in several states where one place is needed " +
  "(`ambiguous_place`), or a kind of place the endpoint cannot serve (`unsupported_place`); these carry `suggestions`";

/** A 400 of an operation with bounded ranges. */
export const RANGE_PROBLEM = "a range whose lower bound is above its upper bound (`validation_failed`)";

/** The 404 of an operation with an asset type in its path. */
export const UNKNOWN_ASSET_TYPE = "No such asset type; `valid_values` lists them";

/** A 400 of a property search: an input the asset type lacks, or a place. */
export const UNSUPPORTED_FILTER = `a search input the snapshot does not support for the asset type (\`unsupported_filter\`, with \`supported_filters\`); or ${PLACE_PROBLEMS}`;
