// Every dependency is pinned to one exact version, the one package-lock.json installs, so a fresh
// install cannot pick up a release nobody has tested, and `npm ci` accepts the lock as it is.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface Lock {
  packages: Record<string, Manifest & { version?: string }>;
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8")) as T;

/** An exact semantic version: no range operator, wildcard, tag or URL. */
const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Each (section, name, spec) of a manifest's dependencies and devDependencies. */
function dependencySpecs(manifest: Manifest): Array<[string, string, string]> {
  return (["dependencies", "devDependencies"] as const).flatMap((section) =>
    Object.entries(manifest[section] ?? {}).map(([name, spec]): [string, string, string] => [section, name, spec]),
  );
}

/** The dependencies whose spec is not one exact version, as "section name spec". */
function unpinned(manifest: Manifest): string[] {
  return dependencySpecs(manifest)
    .filter(([, , spec]) => !EXACT.test(spec))
    .map(([section, name, spec]) => `${section} ${name} ${spec}`);
}

const manifest = readJson<Manifest>("package.json");
const lock = readJson<Lock>("package-lock.json");

test("every dependency and devDependency in package.json is one exact version", () => {
  expect(dependencySpecs(manifest).length).toBeGreaterThan(40);
  expect(unpinned(manifest)).toEqual([]);
});

test("each pinned version is the version package-lock.json installs and records for the root package", () => {
  const mismatched = dependencySpecs(manifest).flatMap(([section, name, spec]) => {
    const installed = lock.packages[`node_modules/${name}`]?.version;
    const recorded = lock.packages[""][section as "dependencies" | "devDependencies"]?.[name];
    return installed === spec && recorded === spec
      ? []
      : [`${name}: package.json ${spec}, lock installs ${installed}, lock records ${recorded}`];
  });
  expect(mismatched).toEqual([]);
});

test("the exactness check rejects ranges, wildcards and tags", () => {
  const specs = { a: "1.2.3", b: "^1.2.3", c: "~5.9", d: "*", e: "latest", f: "18.4.0-beta.17", g: ">=1.0.0" };
  expect(unpinned({ dependencies: specs })).toEqual([
    "dependencies b ^1.2.3",
    "dependencies c ~5.9",
    "dependencies d *",
    "dependencies e latest",
    "dependencies g >=1.0.0",
  ]);
});
