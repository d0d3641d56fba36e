// Password hashing and rules. scrypt from node:crypto: memory-hard, no native dependency.
// N = 2^15, r = 8, p = 1 uses 32 MiB and about 50-100 ms per hash here, the parameters OWASP
// recommends as a minimum for scrypt. The parameters are stored with each hash, so they can be
// raised later and old hashes still verify.
import crypto from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(crypto.scrypt) as (
  password: string | Buffer,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

function maxmem(N: number, r: number): number {
  return 128 * N * r * 2; // twice what scrypt needs, so Node never refuses our own parameters
}

/** `scrypt$N$r$p$salt$hash` with base64url salt and hash. */
function encode(params: typeof SCRYPT_PARAMS, salt: Buffer, hash: Buffer): string {
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

/** Hashes off the event loop (libuv's thread pool), so a log-in never stalls other requests. */
export async function hashPassword(password: string, params = SCRYPT_PARAMS): Promise<string> {
  const salt = crypto.randomBytes(SALT_LENGTH);
  const { N, r, p } = params;
  return encode(params, salt, await scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r, p, maxmem: maxmem(N, r) }));
}

/** The same hash, synchronously: for the admin command, which has nothing else to do meanwhile. */
export function hashPasswordSync(password: string, params = SCRYPT_PARAMS): string {
  const salt = crypto.randomBytes(SALT_LENGTH);
  const { N, r, p } = params;
  return encode(params, salt, crypto.scryptSync(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r, p, maxmem: maxmem(N, r) }));
}

// A real hash of a random password, checked when an email has no password, so a login for an
// unknown email takes as long as one with a wrong password.
let dummyHash: Promise<string> | undefined;
function dummy(): Promise<string> {
  return (dummyHash ??= hashPassword(crypto.randomBytes(16).toString("hex")));
}

/** Computes the dummy hash ahead of the first log-in, so that one is not slower than the rest. */
export async function prepareDummyHash(): Promise<void> {
  await dummy();
}

/** True when `password` matches `stored`; with no stored hash, spends the same time and says no. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const encoded = stored ?? (await dummy());
  const [scheme, n, r, p, salt, hash] = encoded.split("$");
  if (scheme !== "scrypt" || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const N = Number(n),
    R = Number(r),
    P = Number(p);
  const actual = await scrypt(password.normalize("NFKC"), Buffer.from(salt, "base64url"), expected.length, {
    N,
    r: R,
    p: P,
    maxmem: maxmem(N, R),
  });
  return crypto.timingSafeEqual(actual, expected) && stored !== undefined;
}

/**
 * What is wrong with a new password, in words for the sign-up form; empty when it is fine.
 * Length is what matters (NIST SP 800-63B): no composition rules, only refusals of the
 * obviously guessable.
 */
export function passwordProblem(password: string, email: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters (you have ${length}).`;
  if (length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  const lower = password.toLowerCase();
  const local = email.toLowerCase().split("@")[0];
  if (lower === email.toLowerCase() || (local.length >= 4 && lower.includes(local))) {
    return "Don't use your email address in your password.";
  }
  if (new Set(password).size < 4) return "Use a password with more than three different characters.";
  if (/^(.{1,4})\1+$/.test(password)) return "Don't use a short pattern repeated.";
  return undefined;
}
