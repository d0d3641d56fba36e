import { KEY_LENGTH, checksumOf, crc32, describeKeyProblem, formatKey, keyIdAt, parseKey } from "../../src/contract/api-key-format";
import { randomBase62 } from "../../src/server/auth/random-id";

describe("API key format", () => {
  test("crc32 matches the standard check value", () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
  });

  test("a formatted key parses, with its id and last characters", () => {
    const key = formatKey("live", "abcDEF123456", randomBase62(24));
    expect(key).toMatch(/^propi_live_abcDEF123456_[0-9A-Za-z]{30}$/);
    expect(parseKey(key)).toEqual({ environment: "live", keyId: "abcDEF123456", lastChars: key.slice(-4) });
    expect(describeKeyProblem(key)).toBeNull();
    expect(key).toHaveLength(KEY_LENGTH);
    expect(keyIdAt(key)).toBe("abcDEF123456");
    expect(keyIdAt(formatKey("test", "abcDEF123456", randomBase62(24)))).toBe("abcDEF123456");
    expect(keyIdAt(key.slice(1))).toBeNull();
    expect(keyIdAt(key + " ")).toBeNull();
  });

  test("every single-character typo is caught by the checksum", () => {
    const key = formatKey("test", "k".repeat(12), "s".repeat(24));
    const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    const missed: string[] = [];
    let tried = 0;
    // Every base62 character in place of every character after "propi_test_".
    for (let i = 11; i < key.length; i++) {
      if (key[i] === "_") continue;
      for (const c of alphabet) {
        if (c === key[i]) continue;
        const typo = key.slice(0, i) + c + key.slice(i + 1);
        tried++;
        if (parseKey(typo) !== null) missed.push(`${c} at ${i}`);
      }
    }
    expect(missed).toEqual([]);
    expect(tried).toBe(42 * 61);
  });

  test("describeKeyProblem says what is wrong", () => {
    expect(describeKeyProblem("")).toMatch(/Enter/);
    expect(describeKeyProblem("sk_live_123")).toMatch(/start with "propi_"/);
    expect(describeKeyProblem("propi_live_abc")).toMatch(/not a complete/);
    const key = formatKey("live", "abcDEF123456", "x".repeat(24));
    const body = key.slice(0, -6);
    expect(describeKeyProblem(body + (checksumOf(body) === "000000" ? "000001" : "000000"))).toMatch(/typo/);
  });

  test("random secrets are uniform base62 and distinct", () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomBase62(24)));
    expect(seen.size).toBe(200);
    for (const s of seen) expect(s).toMatch(/^[0-9A-Za-z]{24}$/);
    // Uniform: over 480,000 characters each of the 62 comes within 6% of its share (about 5
    // standard deviations). Taking bytes modulo 62 would give 8 of them about 21% more.
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) for (const c of randomBase62(24)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const share = (20_000 * 24) / 62;
    const off = [...counts].filter(([, n]) => Math.abs(n - share) > share * 0.06);
    expect(off).toEqual([]);
  });
});
