// Sealing a just-created API key between the POST that creates it and the page that shows it
// (post/redirect/get, so reloading the page never creates a second key and never shows the
// first again). AES-256-GCM under a key derived from the session id, which only the visitor's
// cookie holds: the database row alone cannot be opened, and it is cleared at the display.
import crypto from "node:crypto";

function keyFor(sessionId: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", sessionId, Buffer.alloc(0), "propintel key reveal v1", 32));
}

export function seal(sessionId: string, keyId: string, rawKey: string): Buffer {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyFor(sessionId), iv);
  cipher.setAAD(Buffer.from(keyId));
  const body = Buffer.concat([cipher.update(rawKey, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

export function openSealed(sessionId: string, keyId: string, sealed: Buffer): string | undefined {
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", keyFor(sessionId), sealed.subarray(0, 12));
    decipher.setAAD(Buffer.from(keyId));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
