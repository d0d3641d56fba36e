// How to start a worker thread from a module beside the caller, whether the code runs compiled
// (dist/, plain node) or from TypeScript sources (tsx, ts-jest). Used by the snapshot builder's
// part worker and by the service's WAL checkpoints.
import path from "node:path";

/**
 * The worker file `name` in the directory of `callerFile`, with the caller's extension, and
 * the execArgv it needs. Compiled, none: the worker inherits the parent's options, whereas
 * passing them explicitly makes `new Worker` throw on V8 flags such as `--trace-gc`. From
 * TypeScript sources the worker needs tsx's CommonJS hook. Not its
 * ESM loader: that one waits on the parent's event loop, which a synchronous caller never runs.
 */
export function workerScript(callerFile: string, name: string): { file: string; execArgv?: string[] } {
  const ext = path.extname(callerFile);
  const file = path.join(path.dirname(callerFile), `${name}${ext}`);
  if (ext !== ".ts") return { file };
  const execArgv: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const a = process.execArgv[i];
    if (["-r", "--require", "--import", "--loader", "--experimental-loader"].includes(a) && process.execArgv[i + 1]?.includes("tsx")) i++;
    else if (!a.includes("tsx")) execArgv.push(a);
  }
  return { file, execArgv: [...execArgv, "--require", require.resolve("tsx/cjs")] };
}
