/**
 * A response body that is already JSON text: the route sends it without serialising again.
 * `etag`, when given, is the answer's validator, so the body need not be hashed for one;
 * `totalCount`, when the text is a list, is its `total_count` (what billing reads).
 */
export class JsonText {
  constructor(
    readonly text: string,
    readonly etag?: string,
    readonly totalCount?: number,
  ) {}
}
