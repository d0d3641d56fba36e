// The stores of accounts, keys, sessions and credits have two implementations: SQLite, which
// answers synchronously, and PostgreSQL, which answers with promises. Their interfaces return
// either, so the embedded default keeps its synchronous hot path (a promise per API request is
// measurable there) and callers that can wait simply `await` the answer.

export type MaybePromise<T> = T | Promise<T>;

/** Calls `next` with the value: at once when it is one, once it resolves when it is a promise. */
export function andThen<T, U>(value: MaybePromise<T>, next: (v: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
