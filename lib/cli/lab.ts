/**
 * `deno task lab`: open the notebooks in JupyterLab.
 *
 * Writes the project kernelspec (lib/cli/kernelspec.ts) for the Deno binary
 * that is running, installs JupyterLab with pip when it is missing (and says
 * so), then starts `python3 -m jupyterlab` on `notebooks/` with the
 * project's `.jupyter` directory on `JUPYTER_PATH`. `--no-browser` and
 * `--port N` pass through; `--install-kernel-globally` also installs the
 * kernelspec into the user's Jupyter directory
 * (`jupyter kernelspec install --user`).
 *
 * Permissions: read, write only `.jupyter/`, run only `python3`, the
 * environment variable `JUPYTER_PATH`. Exit 2 with one line when Python or
 * pip is missing or the arguments are wrong.
 *
 * @module
 */
import { join } from "node:path";
import { jupyterPath, KERNEL_NAME, PROJECT_ROOT, writeProjectKernelSpec } from "./kernelspec.ts";
import { pythonStatus, runPython } from "./python.ts";
import { readOptions, UsageError } from "./args.ts";

const HELP =
  `usage: deno task lab [--no-browser] [--port N] [--install-kernel-globally] [-- JUPYTERLAB_ARGS...]

Starts JupyterLab on notebooks/ with the project's Deno kernel (gatelab-deno).
  --no-browser               do not open a browser (print the URL only)
  --port N                   serve on port N (JupyterLab's default: 8888, or the next free one)
  --install-kernel-globally  also install the kernelspec for your user
                             (jupyter kernelspec install --user); by default it
                             lives in .jupyter/ and only this command uses it
  -- ARGS...                 passed to JupyterLab as they are (e.g. -- --allow-root)`;

const LAB = { name: "lab", helpCommand: "deno task lab" } as const;
const SEE = "; see deno task lab --help";
const LAB_OPTIONS = {
  "no-browser": { type: "boolean" },
  port: { type: "string" },
  "install-kernel-globally": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The options of `deno task lab`. */
export interface LabOptions {
  readonly noBrowser: boolean;
  readonly port: number | null;
  readonly installKernelGlobally: boolean;
  /** Arguments after `--`, passed to JupyterLab unchanged. */
  readonly extra: readonly string[];
}

/**
 * Parses the arguments of `deno task lab`.
 *
 * @param args Command-line arguments.
 * @returns The options, `"help"`, or a usage error message.
 *
 * @example
 * ```ts
 * import { parseLabArgs } from "./lab.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(parseLabArgs(["--no-browser", "--port", "8890", "--", "--allow-root"]),
 *   { noBrowser: true, port: 8890, installKernelGlobally: false, extra: ["--allow-root"] });
 * deepEqual(parseLabArgs(["--port", "x"]),
 *   { error: "lab: --port needs an integer from 1 to 65535, got x; see deno task lab --help" });
 * deepEqual(parseLabArgs(["--no-browse"]),
 *   { error: "lab: unknown option --no-browse; did you mean --no-browser?; see deno task lab --help" });
 * ```
 */
export function parseLabArgs(args: readonly string[]): LabOptions | "help" | { error: string } {
  const split = args.indexOf("--");
  const own = split === -1 ? args : args.slice(0, split);
  const extra = split === -1 ? [] : args.slice(split + 1);
  let values, positionals;
  try {
    ({ values, positionals } = readOptions(own, LAB_OPTIONS, LAB));
  } catch (error) {
    if (error instanceof UsageError) return { error: error.message };
    throw error;
  }
  if (positionals.length > 0) {
    return { error: `lab: takes no positional arguments, got "${positionals[0]}"${SEE}` };
  }
  if (values.help) return "help";
  let port: number | null = null;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port < 1 || port > 65535) {
      return { error: `lab: --port needs an integer from 1 to 65535, got ${values.port}${SEE}` };
    }
  }
  return {
    noBrowser: values["no-browser"] ?? false,
    port,
    installKernelGlobally: values["install-kernel-globally"] ?? false,
    extra,
  };
}

/** A process to start: program, arguments and extra environment. */
export interface Invocation {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The JupyterLab server `deno task lab` starts: `python3 -m jupyterlab`
 * rooted at `<root>/notebooks`, with the project kernelspec directory first
 * on `JUPYTER_PATH`.
 *
 * @param root Project root.
 * @param jupyterDir The directory holding `kernels/gatelab-deno`.
 * @param options `noBrowser` and `port`.
 * @param existingJupyterPath The user's `JUPYTER_PATH`, kept after ours.
 * @returns The invocation.
 *
 * @example
 * ```ts
 * import { labInvocation } from "./lab.ts";
 * import { deepEqual } from "node:assert/strict";
 * const lab = labInvocation("/p", "/p/.jupyter", { noBrowser: true, port: 8890 }, undefined);
 * deepEqual(lab.args, ["-m", "jupyterlab", "--ServerApp.root_dir=/p/notebooks", "--no-browser", "--port=8890"]);
 * deepEqual(lab.env, { JUPYTER_PATH: "/p/.jupyter" });
 * ```
 */
export function labInvocation(
  root: string,
  jupyterDir: string,
  options: Pick<LabOptions, "noBrowser" | "port"> & { readonly extra?: readonly string[] },
  existingJupyterPath: string | undefined,
): Invocation {
  return {
    command: "python3",
    args: [
      "-m",
      "jupyterlab",
      `--ServerApp.root_dir=${join(root, "notebooks")}`,
      ...(options.noBrowser ? ["--no-browser"] : []),
      ...(options.port !== null ? [`--port=${options.port}`] : []),
      ...(options.extra ?? []),
    ],
    env: { JUPYTER_PATH: jupyterPath(jupyterDir, existingJupyterPath) },
  };
}

/** What to install when Python or pip is missing: one line. */
export const NEEDS_PYTHON =
  "usage_error  python3  deno task lab needs Python 3 with pip to install and run JupyterLab: " +
  "install python3 and python3-pip (e.g. apt-get install python3-pip, or python.org), then run it again";

/**
 * Runs `deno task lab`.
 *
 * @param args Command-line arguments.
 * @returns The exit code (JupyterLab's own when it ran).
 */
export async function run(args: readonly string[]): Promise<number> {
  const options = parseLabArgs(args);
  if (options === "help") {
    console.log(HELP);
    return 0;
  }
  if ("error" in options) {
    console.error(`usage_error  ${options.error}`);
    return 2;
  }
  const jupyterDir = await writeProjectKernelSpec();
  const kernelDir = join(jupyterDir, "kernels", KERNEL_NAME);
  console.error(`lab: kernelspec ${KERNEL_NAME} -> ${Deno.execPath()} (${kernelDir})`);

  const status = await pythonStatus(["jupyterlab", "pip"]);
  if (!status.python) {
    console.error(NEEDS_PYTHON);
    return 2;
  }
  if (status.missing.includes("jupyterlab")) {
    if (status.missing.includes("pip")) {
      console.error(NEEDS_PYTHON);
      return 2;
    }
    console.error(
      "lab: JupyterLab is not installed; installing it: python3 -m pip install jupyterlab",
    );
    const code = await runPython(["-m", "pip", "install", "jupyterlab"]);
    if (code !== 0) {
      console.error(
        `usage_error  pip  python3 -m pip install jupyterlab failed (exit ${code}); ` +
          "install JupyterLab yourself (see docs/notebooks.md), then run deno task lab again",
      );
      return 2;
    }
  }
  if (options.installKernelGlobally) {
    console.error(
      `lab: installing kernelspec ${KERNEL_NAME} for your user (jupyter kernelspec install --user)`,
    );
    const code = await runPython([
      "-m",
      "jupyter",
      "kernelspec",
      "install",
      "--user",
      "--replace",
      "--name",
      KERNEL_NAME,
      kernelDir,
    ]);
    if (code !== 0) return 1;
  }
  const lab = labInvocation(
    PROJECT_ROOT,
    jupyterDir,
    options,
    Deno.env.get("JUPYTER_PATH"),
  );
  console.error(`lab: starting JupyterLab on notebooks/ (stop it with Ctrl-C twice)`);
  // Ctrl-C reaches JupyterLab too (same process group); wait for it to stop.
  const ignore = () => {};
  Deno.addSignalListener("SIGINT", ignore);
  try {
    return await runPython(lab.args, lab.env);
  } finally {
    Deno.removeSignalListener("SIGINT", ignore);
  }
}

if (import.meta.main) Deno.exit(await run(Deno.args));
