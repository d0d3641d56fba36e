// Imports run down the layers, never up: each area of src/ may import only the areas listed
// for it here (and itself). docs/architecture.md draws the same picture. A helper two layers
// need moves down to the lower one; it is never imported from above.
import fs from "node:fs";
import path from "node:path";

const SRC = path.resolve(__dirname, "../src");

/** What each area may import, besides itself. */
const MAY_IMPORT: Record<string, string[]> = {
  // Both programs agree through the contract, which imports nothing of theirs.
  contract: [],
  // The snapshot builder and reader, beneath the service.
  snapshot: ["contract"],
  // The add-in: its plumbing, the functions, the pane. It never imports the service.
  shared: ["contract"],
  functions: ["shared", "contract"],
  taskpane: ["functions", "shared", "contract"],
  // The service, lowest layer first.
  "server/http": ["contract"],
  "server/db": ["snapshot"],
  "server/auth": ["server/db", "server/http", "contract"],
  "server/data": ["server/http", "snapshot", "contract"],
  "server/credits": ["server/auth", "server/db", "server/http", "contract"],
  "server/routes": ["server/data", "server/http", "snapshot", "contract"],
  "server/openapi": ["server/routes", "server/credits", "server/auth", "server/http", "contract"],
  "server/plugins": ["server/openapi", "server/routes", "server/credits", "server/auth", "server/data", "server/http", "contract"],
  // The adapters of the auth and credits ports: SQLite (one process) and PostgreSQL (several).
  "server/stores": ["server/credits", "server/auth", "server/db", "server/http", "contract"],
  "server/web": ["server/openapi", "server/credits", "server/auth", "server/db", "server/http", "contract"],
  // The entry points and the app that assembles the areas.
  server: [
    "server/web",
    "server/plugins",
    "server/stores",
    "server/openapi",
    "server/routes",
    "server/credits",
    "server/auth",
    "server/data",
    "server/db",
    "server/http",
    "snapshot",
    "contract",
  ],
};

/** The area a file belongs to: its folder under src/, down to the areas MAY_IMPORT names. */
function areaOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep).slice(0, -1);
  for (let n = Math.min(parts.length, 2); n > 0; n--) {
    const area = parts.slice(0, n).join("/");
    if (area in MAY_IMPORT) return area;
  }
  throw new Error(`${path.relative(SRC, file)} is in no area this test knows: add its folder to MAY_IMPORT`);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Relative module specifiers of a file's static imports and re-exports (type-only ones too). */
function relativeImports(text: string): string[] {
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gms)].map((m) => m[1]);
  const bare = [...text.matchAll(/^\s*import\s+"(\.{1,2}\/[^"]+)"/gm)].map((m) => m[1]);
  return [...specifiers, ...bare];
}

function resolveImport(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return base; // a non-code file (a .css, a .json): its folder still names its area
}

test("every folder of src/ belongs to an area with its imports declared", () => {
  for (const file of sourceFiles(SRC)) expect(() => areaOf(file)).not.toThrow();
});

test("no import runs back up a layer, or across from one program to the other", () => {
  const upward: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = areaOf(file);
    for (const specifier of relativeImports(fs.readFileSync(file, "utf8"))) {
      const target = resolveImport(file, specifier);
      if (!target.startsWith(SRC + path.sep)) continue;
      const to = areaOf(target);
      if (to !== from && !MAY_IMPORT[from].includes(to)) upward.push(`${path.relative(SRC, file)} (${from}) imports ${specifier} (${to})`);
    }
  }
  expect(upward).toEqual([]);
});

test("the check sees imports: a file that imports upward is caught", () => {
  // The parser and the table, on a known case, so the test above cannot pass by seeing nothing.
  const imports = relativeImports('import type { A } from "../routes/x";\nexport { b } from "./b";\nimport "./side-effect";');
  expect(imports).toEqual(["../routes/x", "./b", "./side-effect"]);
  expect(MAY_IMPORT["server/data"]).not.toContain("server/routes");
  expect(sourceFiles(SRC).length).toBeGreaterThan(100);
});
