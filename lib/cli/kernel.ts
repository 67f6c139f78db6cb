/**
 * `deno task kernel [--sys-prefix]`: install the `gatelab-deno` kernelspec
 * where every Jupyter finds it, so `jupyter nbconvert --execute`,
 * `jupyter execute` and any JupyterLab run the notebooks with no
 * environment variable.
 *
 * Writes the project kernelspec (lib/cli/kernelspec.ts: `argv` is the
 * absolute path of the Deno binary running the task, so it works when Deno
 * came from npx), then hands it to Jupyter's own installer:
 * `python3 -m jupyter kernelspec install --replace --name gatelab-deno`
 * with `--user` (the user's Jupyter data directory, `jupyter --data-dir`)
 * or `--sys-prefix` (the Python environment's, for a venv or conda env).
 * `deno task lab` runs the same install first.
 *
 * Permissions: read, write only `.jupyter/`, run only `python3`. Exit 2
 * with one line when Python or jupyter_client is missing.
 *
 * @module
 */
import { join } from "node:path";
import { KERNEL_NAME, writeProjectKernelSpec } from "./kernelspec.ts";
import { readOptions, UsageError } from "./args.ts";
import { printError, printLine } from "../core/terminal_text.ts";

const HELP = `usage: deno task kernel [--sys-prefix]

Installs the gatelab-deno Jupyter kernelspec (Deno at the path of the Deno
running this task) with jupyter kernelspec install:
  (default)     into your Jupyter data directory (jupyter --data-dir)
  --sys-prefix  into the Python environment's (sys.prefix/share/jupyter)`;

/** Where {@linkcode installKernel} installs: the user's data directory or the environment's. */
export type KernelScope = "user" | "sys-prefix";

/** What to install when jupyter_client is missing: one line. */
export const NEEDS_JUPYTER_CLIENT =
  "usage_error  python3  installing the kernelspec needs Python 3 with jupyter_client " +
  "(jupyter kernelspec): python3 -m pip install jupyter_client, then run it again";

/**
 * The `python3` arguments that install a kernelspec directory.
 *
 * @example
 * ```ts
 * import { kernelInstallArgs } from "./kernel.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(kernelInstallArgs("/p/.jupyter/kernels/gatelab-deno", "sys-prefix"), [
 *   "-m", "jupyter", "kernelspec", "install", "--replace", "--name", "gatelab-deno",
 *   "--sys-prefix", "/p/.jupyter/kernels/gatelab-deno",
 * ]);
 * ```
 */
export function kernelInstallArgs(kernelDir: string, scope: KernelScope): string[] {
  return [
    "-m",
    "jupyter",
    "kernelspec",
    "install",
    "--replace",
    "--name",
    KERNEL_NAME,
    scope === "user" ? "--user" : "--sys-prefix",
    kernelDir,
  ];
}

/**
 * Writes the project kernelspec and installs it with Jupyter's installer.
 *
 * @param scope `user` (default) or `sys-prefix`.
 * @returns The directory Jupyter installed it in, or a one-line refusal.
 */
export async function installKernel(
  scope: KernelScope = "user",
): Promise<{ readonly dir: string } | { readonly error: string }> {
  const jupyterDir = await writeProjectKernelSpec();
  const kernelDir = join(jupyterDir, "kernels", KERNEL_NAME);
  let out;
  try {
    out = await new Deno.Command("python3", {
      args: kernelInstallArgs(kernelDir, scope),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { error: NEEDS_JUPYTER_CLIENT };
    throw error;
  }
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) {
    if (/No module named|is not a Jupyter command/.test(text)) {
      return { error: NEEDS_JUPYTER_CLIENT };
    }
    const last = text.trim().split("\n").at(-1) ?? "";
    return { error: `usage_error  jupyter  jupyter kernelspec install failed: ${last}` };
  }
  // "[InstallKernelSpec] Installed kernelspec gatelab-deno in /home/u/.local/share/jupyter/kernels/gatelab-deno"
  const dir = /Installed kernelspec \S+ in (.+)$/m.exec(text)?.[1]?.trim() ?? "(unknown)";
  return { dir };
}

/**
 * Runs `deno task kernel`.
 *
 * @param args Command-line arguments.
 * @returns The exit code.
 */
export async function run(args: readonly string[]): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = readOptions(args, {
      "sys-prefix": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    }, { name: "kernel", helpCommand: "deno task kernel" }));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    printError(`usage_error  ${error.message}`);
    return 2;
  }
  if (values.help) {
    printLine(HELP);
    return 0;
  }
  if (positionals.length > 0) {
    printError(`usage_error  kernel: takes no positional arguments, got "${positionals[0]}"`);
    return 2;
  }
  const result = await installKernel(values["sys-prefix"] ? "sys-prefix" : "user");
  if ("error" in result) {
    printError(result.error);
    return 2;
  }
  printLine(`kernel: ${KERNEL_NAME} (Deno at ${Deno.execPath()}) installed in ${result.dir}`);
  return 0;
}

if (import.meta.main) Deno.exit(await run(Deno.args));
