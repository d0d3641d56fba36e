// The import graph of a set of source files, and the two rules the layer test holds it to: no
// import runs up from one area to another it may not import, and no modules import each other in a
// loop. Everything here works on a file map (path -> text), so the rules can be tried on fixtures.
import path from "node:path";

/** Source files by their path relative to src/, with "/" separators ("server/http/problem.ts"). */
export type FileMap = Record<string, string>;

/** What each area (a folder under src/, at any depth) may import, besides itself. */
export type Layers = Record<string, string[]>;

/** Relative module specifiers of a file's static imports and re-exports (type-only ones too). */
export function relativeImports(text: string): string[] {
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gms)].map((m) => m[1]);
  const bare = [...text.matchAll(/^\s*import\s+"(\.{1,2}\/[^"]+)"/gm)].map((m) => m[1]);
  return [...specifiers, ...bare];
}

/**
 * The file an import names: the specifier as written, or with .ts, .tsx or /index.ts added; a
 * non-code file (a .css, a .json) keeps its own path, whose folder still names its area. Null when
 * the import leaves the map's root.
 */
export function resolveImport(files: FileMap, from: string, specifier: string): string | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (base.startsWith("../")) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) if (candidate in files) return candidate;
  return base;
}

/** The area a file belongs to: the deepest of its enclosing folders that `layers` names. */
export function areaOf(layers: Layers, file: string): string {
  const parts = file.split("/").slice(0, -1);
  for (let n = parts.length; n > 0; n--) {
    const area = parts.slice(0, n).join("/");
    if (area in layers) return area;
  }
  throw new Error(`${file} is in no area the layer table knows: add its folder`);
}

/** Each file's imports of other files in the map (code files only), in the order written. */
export function importGraph(files: FileMap): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of Object.entries(files)) {
    const targets = relativeImports(text)
      .map((s) => resolveImport(files, file, s))
      .filter((t): t is string => t !== null && t in files);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every import that runs from one area to another it may not import, as a readable line. */
export function upwardImports(files: FileMap, layers: Layers): string[] {
  const found: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const from = areaOf(layers, file);
    for (const specifier of relativeImports(text)) {
      const target = resolveImport(files, file, specifier);
      if (target === null) continue;
      const to = areaOf(layers, target);
      if (to !== from && !layers[from].includes(to)) found.push(`${file} (${from}) imports ${specifier} (${to})`);
    }
  }
  return found;
}

/**
 * The import loops: each set of modules that reach one another through imports (a strongly
 * connected component of two or more modules, or one that imports itself), its modules sorted,
 * the loops sorted by their first module.
 */
export function importLoops(files: FileMap): string[][] {
  const graph = importGraph(files);
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const loops: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || edges.includes(frame.node)) loops.push(component.sort());
      }
    }
  }
  return loops.sort((a, b) => a[0].localeCompare(b[0]));
}
