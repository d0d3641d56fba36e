// Reading and writing the few cookies the account pages use. Small enough that a dependency
// would add more than it saves; values are opaque base64url tokens, never user text.

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    // The first occurrence wins: a cookie set for a more specific path comes first.
    if (!out.has(name)) out.set(name, part.slice(eq + 1).trim());
  }
  return out;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  secure: boolean;
}

/** HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Path=/. */
export function serializeCookie(name: string, value: string, opts: CookieOptions): string {
  const parts = [`${name}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (opts.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(opts.maxAgeSeconds))}`);
  if (opts.secure) parts.push("Secure");
  return parts.join("; ");
}

/** Cookie names: `__Host-` (Secure, host-only, Path=/ enforced by browsers) when served over HTTPS. */
export function cookieNames(secure: boolean) {
  const prefix = secure ? "__Host-" : "";
  return { session: `${prefix}pi_session`, preSession: `${prefix}pi_presession` };
}
