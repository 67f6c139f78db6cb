/**
 * The project's Jupyter kernelspec: `gatelab-deno`, written under the
 * project (`.jupyter/kernels/gatelab-deno/kernel.json`, git-ignored) and
 * found by Jupyter through `JUPYTER_PATH`, so nothing is installed into the
 * user's own Jupyter directories. Its `argv` names the Deno binary that is
 * running (`Deno.execPath()`): a kernel started by JupyterLab then works
 * when Deno came from `npx` and is not on `PATH`.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { delimiter, join } from "node:path";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";

/** Name of the kernel the notebooks ask for (their `metadata.kernelspec.name`). */
export const KERNEL_NAME = "gatelab-deno";

/** The repository root (the directory holding deno.json). */
export const PROJECT_ROOT: string = fileURLToPath(new URL("../../", import.meta.url));

/** A Jupyter kernelspec (`kernel.json`). */
export interface KernelSpec {
  readonly argv: readonly string[];
  readonly display_name: string;
  readonly language: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The kernelspec that starts Deno's Jupyter kernel with `deno`, plain-text
 * results without ANSI colours (`NO_COLOR=1`).
 *
 * @param deno Absolute path of the Deno executable.
 * @returns The `kernel.json` contents.
 *
 * @example
 * ```ts
 * import { kernelSpec } from "./kernelspec.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(kernelSpec("/opt/deno").argv, ["/opt/deno", "jupyter", "--kernel", "--quiet", "--conn", "{connection_file}"]);
 * deepEqual(kernelSpec("/opt/deno").env, { NO_COLOR: "1" });
 * ```
 */
export function kernelSpec(deno: string): KernelSpec {
  return {
    // --quiet: no "deno jupyter is unstable" warning on every kernel start (Deno prints it to
    // stderr, outside any cell); cell output and errors reach the notebook as before.
    argv: [deno, "jupyter", "--kernel", "--quiet", "--conn", "{connection_file}"],
    display_name: "Deno (gatelab)",
    language: "typescript",
    env: { NO_COLOR: "1" },
  };
}

/**
 * Writes `<root>/.jupyter/kernels/gatelab-deno/kernel.json` for the running
 * Deno binary, unless it already holds exactly that (checked every time:
 * the binary may have moved since). An unchanged kernelspec is left in
 * place, so a notebook run or JupyterLab starting at the same moment never
 * finds the directory between the two renames of a replacement.
 *
 * @param root Project root.
 * @param deno Absolute path of the Deno executable.
 * @returns The directory to put on `JUPYTER_PATH` (`<root>/.jupyter`).
 *
 * @example Written once, then left as it is for the same binary
 * ```ts
 * import { writeProjectKernelSpec } from "./kernelspec.ts";
 * import { equal } from "node:assert/strict";
 * const root = await Deno.makeTempDir();
 * const dir = await writeProjectKernelSpec(root, "/opt/deno");
 * const file = `${dir}/kernels/gatelab-deno/kernel.json`;
 * const first = (await Deno.stat(file)).ino;
 * await writeProjectKernelSpec(root, "/opt/deno");
 * equal((await Deno.stat(file)).ino, first);
 * await writeProjectKernelSpec(root, "/usr/bin/deno");
 * equal(JSON.parse(await Deno.readTextFile(file)).argv[0], "/usr/bin/deno");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function writeProjectKernelSpec(
  root: string = PROJECT_ROOT,
  deno: string = Deno.execPath(),
): Promise<string> {
  const jupyterDir = join(root, ".jupyter");
  const dir = join(jupyterDir, "kernels", KERNEL_NAME);
  const text = toJsonText(kernelSpec(deno));
  const current = await Deno.readTextFile(join(dir, "kernel.json")).catch(() => null);
  if (current !== text) await writeFilesAtomic(dir, { "kernel.json": text });
  return jupyterDir;
}

/**
 * `JUPYTER_PATH` with the project's directory first and the user's own
 * entries (if any) after it.
 *
 * @param projectDir The directory from {@linkcode writeProjectKernelSpec}.
 * @param existing The current `JUPYTER_PATH`, if set.
 * @returns The new value.
 *
 * @example
 * ```ts
 * import { jupyterPath } from "./kernelspec.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(jupyterPath("/p/.jupyter", undefined), "/p/.jupyter");
 * deepEqual(jupyterPath("/p/.jupyter", "/usr/x"), "/p/.jupyter:/usr/x");
 * ```
 */
export function jupyterPath(projectDir: string, existing: string | undefined): string {
  return existing ? `${projectDir}${delimiter}${existing}` : projectDir;
}
