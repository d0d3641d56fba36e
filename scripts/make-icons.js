#!/usr/bin/env node
// Draws the add-in's icons (assets/icon-<size>.png) from one vector description, so every size
// is the same mark: a blue rounded square with a white three-building skyline. The PNGs are
// committed source assets; run this only when the mark changes: `node scripts/make-icons.js`.
// Only node:zlib is used (a minimal PNG encoder below), so it runs on a bare Node install.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const zlib = require("node:zlib");

const SIZES = [16, 32, 64, 80, 128];
const OUT_DIR = path.join(__dirname, "..", "assets");

const BLUE = [15, 108, 189]; // Office's communication blue, so the icon sits well on the ribbon.
const WHITE = [255, 255, 255];

// The mark in unit coordinates (0..1, y down). Buildings stand on one baseline.
const CORNER_RADIUS = 0.2;
const BASELINE = 0.8;
const BUILDINGS = [
  { x0: 0.2, x1: 0.37, top: 0.5 },
  { x0: 0.41, x1: 0.59, top: 0.2 },
  { x0: 0.63, x1: 0.8, top: 0.38 },
];
// Window cut-outs on the tall building; only drawn from 64 px up, where they are at least 2 px wide.
const WINDOWS = [0.3, 0.42, 0.54].flatMap((y) => [
  { x0: 0.45, x1: 0.49, y0: y, y1: y + 0.06 },
  { x0: 0.51, x1: 0.55, y0: y, y1: y + 0.06 },
]);

function insideRoundedSquare(x, y) {
  const r = CORNER_RADIUS;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= 0 && x <= 1 && y >= 0 && y <= 1;
}

function colourAt(x, y, size) {
  if (!insideRoundedSquare(x, y)) return null;
  const inBuilding = BUILDINGS.some((b) => x >= b.x0 && x < b.x1 && y >= b.top && y < BASELINE);
  const inWindow = size >= 64 && WINDOWS.some((w) => x >= w.x0 && x < w.x1 && y >= w.y0 && y < w.y1);
  return inBuilding && !inWindow ? WHITE : BLUE;
}

/** Renders one size with 4x4 supersampling, so edges and corners are anti-aliased. */
function render(size) {
  const SS = 4;
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const c = colourAt((px + (sx + 0.5) / SS) / size, (py + (sy + 0.5) / SS) / size, size);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
      const i = (py * size + px) * 4;
      if (a > 0) {
        rgba[i] = Math.round(r / a);
        rgba[i + 1] = Math.round(g / a);
        rgba[i + 2] = Math.round(b / a);
      }
      rgba[i + 3] = Math.round((255 * a) / (SS * SS));
    }
  }
  return rgba;
}

// --- Minimal PNG encoder: 8-bit RGBA, no interlace, filter type 0 on every row. ---

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(width, height, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  header[10] = 0; // compression
  header[11] = 0; // filter method
  header[12] = 0; // no interlace
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0; // filter: none
    rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function main() {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  for (const size of SIZES) {
    const file = path.join(OUT_DIR, `icon-${size}.png`);
    fs.writeFileSync(file, encodePng(size, size, render(size)));
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}

main();
