// Bounds on the work one request may ask of the service. A request that would pass one is
// refused (free, saying how to narrow it), never answered from part of its rows. The contract
// holds them because the operations' descriptions state them.

/** Most candidate sales looked at around one subject (sale comps within a radius). */
export const MAX_COMP_CANDIDATES = 20_000;
