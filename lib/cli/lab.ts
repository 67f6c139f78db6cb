/**
 * `deno task lab`: open the notebooks in JupyterLab.
 *
 * Installs JupyterLab with pip when it is missing (and says so), installs
 * the gatelab-deno kernelspec for the Deno binary that is running as
 * `deno task kernel` does (the user's Jupyter data directory, or with
 * `--sys-prefix` the Python environment's), then starts
 * `python3 -m jupyterlab` on `notebooks/` with the project's `.jupyter`
 * directory also on `JUPYTER_PATH`. `--no-browser` and `--port N` pass
 * through. As root (every container) it passes `--allow-root` and says so.
 * SIGINT (Ctrl-C) and SIGTERM stop JupyterLab with SIGTERM, which shuts its
 * kernels down before it exits; then the task exits 0.
 *
 * Permissions: read, write only `.jupyter/`, run only `python3`, the
 * environment variable `JUPYTER_PATH`, the user id (`--allow-sys=uid`).
 * Exit 2 with one line when Python or pip is missing, the arguments are
 * wrong or JupyterLab refused to start.
 *
 * @module
 */
import { join } from "node:path";
import { jupyterPath, PROJECT_ROOT, writeProjectKernelSpec } from "./kernelspec.ts";
import { installKernel } from "./kernel.ts";
import { pythonStatus, runPython } from "./python.ts";
import { readOptions, UsageError } from "./args.ts";
import { printError, printLine } from "../core/terminal_text.ts";

const HELP = `usage: deno task lab [--no-browser] [--port N] [--sys-prefix] [-- JUPYTERLAB_ARGS...]

Installs the project's Deno kernel (gatelab-deno, as deno task kernel does)
and starts JupyterLab on notebooks/. Ctrl-C or SIGTERM stops it and its kernels.
  --no-browser   do not open a browser (print the URL only)
  --port N       serve on port N (JupyterLab's default: 8888, or the next free one)
  --sys-prefix   install the kernelspec into the Python environment's Jupyter
                 directory instead of yours (jupyter --data-dir)
  -- ARGS...     passed to JupyterLab as they are (e.g. -- --ServerApp.token=x)`;

const LAB = { name: "lab", helpCommand: "deno task lab" } as const;
const SEE = "; see deno task lab --help";
const LAB_OPTIONS = {
  "no-browser": { type: "boolean" },
  port: { type: "string" },
  "sys-prefix": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The options of `deno task lab`. */
export interface LabOptions {
  readonly noBrowser: boolean;
  readonly port: number | null;
  /** Install the kernelspec into the Python environment's directory (`--sys-prefix`). */
  readonly sysPrefix: boolean;
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
 *   { noBrowser: true, port: 8890, sysPrefix: false, extra: ["--allow-root"] });
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
    sysPrefix: values["sys-prefix"] ?? false,
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
 * @param options `noBrowser`, `port`, `root` (running as root: adds
 *   `--allow-root` unless the extra arguments have it) and `extra`.
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
 * const root = labInvocation("/p", "/p/.jupyter", { noBrowser: false, port: null, root: true }, undefined);
 * deepEqual(root.args, ["-m", "jupyterlab", "--ServerApp.root_dir=/p/notebooks", "--allow-root"]);
 * ```
 */
export function labInvocation(
  root: string,
  jupyterDir: string,
  options: Pick<LabOptions, "noBrowser" | "port"> & {
    readonly extra?: readonly string[];
    readonly root?: boolean;
  },
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
      ...(options.root && !(options.extra ?? []).includes("--allow-root") ? ["--allow-root"] : []),
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
    printLine(HELP);
    return 0;
  }
  if ("error" in options) {
    printError(`usage_error  ${options.error}`);
    return 2;
  }
  const status = await pythonStatus(["jupyterlab", "pip"]);
  if (!status.python) {
    printError(NEEDS_PYTHON);
    return 2;
  }
  if (status.missing.includes("jupyterlab")) {
    if (status.missing.includes("pip")) {
      printError(NEEDS_PYTHON);
      return 2;
    }
    printError(
      "lab: JupyterLab is not installed; installing it: python3 -m pip install jupyterlab",
    );
    const code = await runPython(["-m", "pip", "install", "jupyterlab"]);
    if (code !== 0) {
      printError(
        `usage_error  pip  python3 -m pip install jupyterlab failed (exit ${code}); ` +
          "install JupyterLab yourself (see docs/notebooks.md), then run deno task lab again",
      );
      return 2;
    }
  }
  const kernel = await installKernel(options.sysPrefix ? "sys-prefix" : "user");
  if ("error" in kernel) {
    printError(kernel.error);
    return 2;
  }
  printError(`lab: kernelspec gatelab-deno -> ${Deno.execPath()} (${kernel.dir})`);
  const jupyterDir = await writeProjectKernelSpec();
  const root = Deno.uid() === 0;
  if (root) printError("lab: running as root, so JupyterLab is started with --allow-root");
  const lab = labInvocation(
    PROJECT_ROOT,
    jupyterDir,
    { ...options, root },
    Deno.env.get("JUPYTER_PATH"),
  );
  printError(`lab: starting JupyterLab on notebooks/ (stop it with Ctrl-C)`);
  return await runUntilStopped(lab);
}

/**
 * Starts JupyterLab and waits for it. SIGINT and SIGTERM are passed on as
 * SIGTERM, on which Jupyter shuts its kernels down (they run in sessions of
 * their own, so only Jupyter can stop them) and exits; a stop asked for is
 * exit 0. JupyterLab exiting on its own with a failure (a port in use, an
 * unknown option after `--`) is exit 2, its own message printed above.
 */
async function runUntilStopped(lab: Invocation): Promise<number> {
  const child = new Deno.Command(lab.command, {
    args: [...lab.args],
    env: { ...lab.env },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  let stopped: string | null = null;
  const listeners = (["SIGINT", "SIGTERM"] as const).map((signal) => {
    const listener = () => {
      if (stopped === null) printError(`lab: ${signal}: stopping JupyterLab and its kernels`);
      stopped = signal;
      try {
        child.kill("SIGTERM");
      } catch {
        // It has already exited.
      }
    };
    Deno.addSignalListener(signal, listener);
    return [signal, listener] as const;
  });
  try {
    const status = await child.status;
    if (stopped !== null || status.success) return 0;
    printError(
      `usage_error  jupyterlab  JupyterLab exited with ${
        status.signal ?? status.code
      } (its message is above); see deno task lab --help`,
    );
    return 2;
  } finally {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  }
}

if (import.meta.main) Deno.exit(await run(Deno.args));
