/**
 * `deno task notebooks`: execute notebooks headlessly.
 *
 * Writes the project kernelspec for the running Deno binary, then runs
 * `python3 scripts/run_notebooks.py` (the runner that keeps late kernel
 * messages and names syntax errors) with `--deno`, `--jupyter-path` and
 * `--cwd` (the caller's directory, `INIT_CWD` under `deno task`) added; all
 * other arguments pass through: `[--notebook NAME]... [-p NAME JSON]...
 * [--out DIR]` (docs/notebooks.md).
 *
 * Permissions: read, write only `.jupyter/`, run only `python3`, the
 * environment variable `INIT_CWD`.
 *
 * @module
 */
import { join } from "node:path";
import { PROJECT_ROOT, writeProjectKernelSpec } from "./kernelspec.ts";
import { runPython } from "./python.ts";

/**
 * The runner's arguments: the user's, then the Deno binary, the kernelspec
 * directory and the directory relative paths resolve against.
 *
 * @example
 * ```ts
 * import { runnerArgs } from "./notebooks.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(runnerArgs("/p", ["--notebook", "01"], { deno: "/d", jupyterDir: "/p/.jupyter", cwd: "/home/u" }),
 *   ["/p/scripts/run_notebooks.py", "--notebook", "01", "--deno", "/d", "--jupyter-path", "/p/.jupyter", "--cwd", "/home/u"]);
 * ```
 */
export function runnerArgs(
  root: string,
  args: readonly string[],
  context: { readonly deno: string; readonly jupyterDir: string; readonly cwd: string },
): string[] {
  return [
    join(root, "scripts", "run_notebooks.py"),
    ...args,
    "--deno",
    context.deno,
    "--jupyter-path",
    context.jupyterDir,
    "--cwd",
    context.cwd,
  ];
}

/**
 * Runs `deno task notebooks`.
 *
 * @param args Command-line arguments (passed to the runner).
 * @param options `quiet`: discard the runner's output (tests read the written notebooks).
 * @returns The runner's exit code; 2 when `python3` is missing.
 */
export async function run(
  args: readonly string[],
  options: { readonly quiet?: boolean } = {},
): Promise<number> {
  const jupyterDir = await writeProjectKernelSpec();
  const cwd = Deno.env.get("INIT_CWD") ?? Deno.cwd();
  try {
    return await runPython(
      runnerArgs(PROJECT_ROOT, args, { deno: Deno.execPath(), jupyterDir, cwd }),
      {},
      options.quiet ? "null" : "inherit",
    );
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    console.error(
      "usage_error  python3  deno task notebooks needs Python 3 with jupyter_client, nbformat and " +
        "nbconvert: install python3, then python3 -m pip install jupyter_client nbformat nbconvert",
    );
    return 2;
  }
}

if (import.meta.main) Deno.exit(await run(Deno.args));
