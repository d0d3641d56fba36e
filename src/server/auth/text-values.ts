// What text the stores take. PostgreSQL's text cannot hold a NUL character, so neither store
// keeps one: an email or a key name with one is refused (400) before it is written, and a look-up
// by a value with one (an email, a key id, a session id) finds nothing, on SQLite and PostgreSQL
// alike.

export const hasNul = (text: string): boolean => text.includes("\0");

/** An email or key name a store will not keep; `statusCode` makes it a 400 wherever it surfaces. */
export class UnstorableTextError extends Error {
  readonly statusCode = 400;
  constructor(what: string) {
    super(`${what} cannot contain a NUL character.`);
    this.name = "UnstorableTextError";
  }
}

/** Throws UnstorableTextError when `text` has a NUL character. */
export function checkStorable(text: string, what: string): void {
  if (hasNul(text)) throw new UnstorableTextError(what);
}
