// Paging bounds of every list endpoint (docs/decisions.md, "Records and envelope"): the service validates and
// publishes them, and the add-in pages and checks arguments by the same numbers.
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
export const MAX_OFFSET = 10_000;
