// Reads a file as UTF-8 text in chunks (so a large capture never has to fit in one string),
// feeding every byte to a hash as it goes: the import's snapshot id is a hash of its files.
import type { Hash } from "node:crypto";
import fs from "node:fs";

const CHUNK = 4 * 1024 * 1024;

export function readTextChunks(file: string, hash: Hash, onText: (text: string) => void): void {
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    const decoder = new TextDecoder("utf-8", { ignoreBOM: false });
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      // stream: true keeps a multi-byte character split across chunks intact.
      const text = decoder.decode(buf.subarray(0, n), { stream: true });
      if (text) onText(text);
    }
    const rest = decoder.decode();
    if (rest) onText(rest);
  } finally {
    fs.closeSync(fd);
  }
}

/** Splits chunked text into lines (LF or CRLF), with 1-based line numbers; blank lines skipped. */
export class LineSplitter {
  private partial = "";
  private line = 0;

  constructor(private readonly onLine: (text: string, line: number) => void) {}

  push(text: string): void {
    let start = 0;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
      this.emit(this.partial + text.slice(start, i));
      this.partial = "";
      start = i + 1;
    }
    this.partial += text.slice(start);
  }

  end(): void {
    if (this.partial) this.emit(this.partial);
    this.partial = "";
  }

  private emit(raw: string): void {
    this.line++;
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (text.trim()) this.onLine(text, this.line);
  }
}
