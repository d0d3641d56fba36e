// The bounds on one request's work the service enforces (contract/search-bounds.ts states them);
// read from here, so a test can narrow one for the service alone.
export { MAX_COMP_CANDIDATES } from "../../contract/search-bounds";
