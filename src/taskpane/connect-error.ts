// The connect form's own refusal: a problem the user can fix there, and which input it is about.

/** A problem the user can fix in the connect form; `field` says which input to point at. */
export class ConnectError extends Error {
  override readonly name = "ConnectError";
  constructor(
    message: string,
    readonly field: "baseUrl" | "apiKey" | null,
    /** True when no answer came back (no service at the URL, a network failure or a timeout). */
    readonly unreachable = false,
  ) {
    super(message);
  }
}
