// Imports run down the layers, never up: each area of src/ may import only the areas listed
// for it here (and itself), and no modules import one another in a loop. docs/architecture.md
// draws the same picture. A helper two layers need moves down to the lower one; it is never
// imported from above. The rules themselves are in helpers/import-graph.ts.
import fs from "node:fs";
import path from "node:path";
import { areaOf, importLoops, relativeImports, upwardImports, type FileMap, type Layers } from "./helpers/import-graph";

const SRC = path.resolve(__dirname, "../src");

/** What each area may import, besides itself. */
const MAY_IMPORT: Layers = {
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

/**
 * Import loops src/ is allowed to keep, each as its modules (paths under src/): none. A loop not
 * listed here fails the test, and so does an entry whose loop has gone.
 */
const KNOWN_LOOPS: string[][] = [];

/** Every .ts and .tsx file under `dir` (not .d.ts), by its path relative to `root` with "/" separators. */
function sourceFiles(root: string, dir = root): FileMap {
  const files: FileMap = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) Object.assign(files, sourceFiles(root, full));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
      files[path.relative(root, full).split(path.sep).join("/")] = fs.readFileSync(full, "utf8");
  }
  return files;
}

const SOURCES = sourceFiles(SRC);

/** The loops of `loops` that no allowed loop covers (an allowed loop may since have lost modules). */
function newLoops(loops: string[][], allowed: string[][]): string[][] {
  return loops.filter((loop) => !allowed.some((known) => loop.every((m) => known.includes(m))));
}

/** The allowed loops no current loop lies within: fixed, so their entry goes. */
function goneLoops(loops: string[][], allowed: string[][]): string[][] {
  return allowed.filter((known) => !loops.some((loop) => loop.every((m) => known.includes(m))));
}

test("the check reads every file of src/ at every depth", () => {
  expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
  expect(Object.keys(SOURCES).some((f) => f.split("/").length > 2)).toBe(true);
});

test("every folder of src/ belongs to an area with its imports declared", () => {
  for (const file of Object.keys(SOURCES)) expect(() => areaOf(MAY_IMPORT, file)).not.toThrow();
});

test("no import runs back up a layer, or across from one program to the other", () => {
  expect(upwardImports(SOURCES, MAY_IMPORT)).toEqual([]);
});

test("src/ has no import loop besides the known ones, and every known one still exists", () => {
  const loops = importLoops(SOURCES);
  expect(newLoops(loops, KNOWN_LOOPS)).toEqual([]);
  expect(goneLoops(loops, KNOWN_LOOPS)).toEqual([]);
});

describe("the checks on fixtures", () => {
  const layers: Layers = { low: [], high: ["low"], "high/deep/er": ["low"] };

  test("the parser reads type-only imports, re-exports and bare imports", () => {
    const imports = relativeImports(
      'import type { A } from "../routes/x";\nexport { b } from "./b";\nexport * from "./c";\nimport "./side-effect";',
    );
    expect(imports).toEqual(["../routes/x", "./b", "./c", "./side-effect"]);
  });

  test("an upward import is caught, at any depth", () => {
    const files: FileMap = {
      "low/a.ts": 'import { b } from "../high/b";',
      "high/b.ts": 'import { a } from "../low/a";',
      "high/deep/er/more/c.ts": 'import { b } from "../../../b";\nimport { a } from "../../../../low/a";',
    };
    expect(upwardImports(files, layers)).toEqual([
      "low/a.ts (low) imports ../high/b (high)",
      "high/deep/er/more/c.ts (high/deep/er) imports ../../../b (high)",
    ]);
  });

  test("a file in a folder no area names is refused", () => {
    expect(() => upwardImports({ "elsewhere/x.ts": "" }, layers)).toThrow(/elsewhere\/x.ts is in no area/);
  });

  test("a loop inside one folder is found with each of its modules, and a chain is not a loop", () => {
    const files: FileMap = {
      "high/a.ts": 'import { b } from "./b";',
      "high/b.ts": 'import type { C } from "./sub/c";',
      "high/sub/c.ts": 'export { a } from "../a";',
      "high/d.ts": 'import { a } from "./a";\nimport { e } from "./e";',
      "high/e.ts": "export const e = 1;",
      "low/self.ts": 'import { x } from "./self";',
    };
    expect(importLoops(files)).toEqual([["high/a.ts", "high/b.ts", "high/sub/c.ts"], ["low/self.ts"]]);
  });

  test("a new loop fails the allowance, a shrunken known loop passes, and a fixed known loop is reported", () => {
    const allowed = [
      ["a.ts", "b.ts", "c.ts"],
      ["x.ts", "y.ts"],
    ];
    expect(
      newLoops(
        [
          ["a.ts", "b.ts"],
          ["m.ts", "n.ts"],
        ],
        allowed,
      ),
    ).toEqual([["m.ts", "n.ts"]]);
    expect(goneLoops([["a.ts", "b.ts"]], allowed)).toEqual([["x.ts", "y.ts"]]);
  });
});
