// Slots and states of the flags the main thread and the parcel worker share (an Int32Array
// over a SharedArrayBuffer): how many rounds the main thread has posted, and the worker's state.
export const POSTED = 0;
export const STATE = 1;
/** Set to 1 once the worker has posted the sales groups (before its indexes: they are needed first). */
export const SALES_READY = 2;
/** Set to 1 once the main thread has posted market history's base (the worker writes the history). */
export const HISTORY_POSTED = 3;
/** How many slots the flags hold. */
export const SLOTS = 4;

export const STARTED = 1;
export const DONE = 2;
export const FAILED = 3;
