// The API key format, shared by the service (which issues and verifies keys) and the add-in
// (which checks a pasted key before making any request).
//
//   propi_<live|test>_<key id: 12 base62>_<secret: 24 base62><checksum: 6 base62>
//
// - `propi_` is a fixed, distinctive prefix, so secret scanners and people can recognise a key.
// - The key id is public: the service looks the key up by it, then compares hashes.
// - 24 base62 characters carry 142 bits of randomness (the spec asks for at least 128).
// - The checksum is CRC32 of everything before it, so a mistyped or truncated key is caught
//   locally, without a request. It is not a security measure.

export const KEY_PREFIX = "propi";
export const KEY_ID_LENGTH = 12;
export const SECRET_LENGTH = 24;
export const CHECKSUM_LENGTH = 6;
export const KEY_PATTERN = new RegExp(
  `^${KEY_PREFIX}_(live|test)_([0-9A-Za-z]{${KEY_ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);

/** Where the key id sits in a key: after `propi_live_` or `propi_test_` (both 4-letter environments). */
const KEY_ID_START = `${KEY_PREFIX}_live_`.length;
/** Characters in every well-formed key. */
export const KEY_LENGTH = KEY_ID_START + KEY_ID_LENGTH + 1 + SECRET_LENGTH + CHECKSUM_LENGTH;

/**
 * The characters where a key's id would be, without checking anything else (parseKey checks);
 * null when the text is not even a key's length. For a cache in front of full verification.
 */
export function keyIdAt(raw: string): string | null {
  return raw.length === KEY_LENGTH ? raw.slice(KEY_ID_START, KEY_ID_START + KEY_ID_LENGTH) : null;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export interface ParsedKey {
  environment: "live" | "test";
  keyId: string;
  /** The last characters, safe to show in a key list. */
  lastChars: string;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function toBase62(value: number, width: number): string {
  let out = "";
  let v = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

export function checksumOf(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

/** Assembles a key from its parts (the service supplies random id and secret). */
export function formatKey(environment: "live" | "test", keyId: string, secret: string): string {
  const body = `${KEY_PREFIX}_${environment}_${keyId}_${secret}`;
  return body + checksumOf(body);
}

/**
 * Checks a key's shape and checksum. Returns null for anything that is not a well-formed key,
 * and a reason a person can act on via `describeKeyProblem`.
 */
export function parseKey(raw: string): ParsedKey | null {
  const m = KEY_PATTERN.exec(raw);
  if (!m) return null;
  const body = raw.slice(0, raw.length - CHECKSUM_LENGTH);
  if (checksumOf(body) !== raw.slice(-CHECKSUM_LENGTH)) return null;
  return { environment: m[1] as "live" | "test", keyId: m[2], lastChars: raw.slice(-4) };
}

/** Why a pasted key is not a key, for the add-in's connect form. Null when it is fine. */
export function describeKeyProblem(raw: string): string | null {
  const key = raw.trim();
  if (key === "") return "Enter an API key.";
  if (!key.startsWith(`${KEY_PREFIX}_`)) return `API keys start with "${KEY_PREFIX}_".`;
  if (!KEY_PATTERN.test(key)) return "This is not a complete API key: copy the whole key.";
  if (!parseKey(key)) return "This key has a typo (its checksum does not match): copy it again.";
  return null;
}
