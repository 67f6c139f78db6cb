/**
 * `deno task notebooks`: execute notebooks headlessly.
 *
 * Writes the project kernelspec for the running Deno binary, then runs
 * `python3 scripts/run_notebooks.py` (the runner that keeps late kernel
 * messages and names syntax errors) with `--deno`, `--jupyter-path` and
 * `--cwd` (the caller's directory, `INIT_CWD` under `deno task`) added; all
 * other arguments pass through: `[--notebook NAME]... [-p NAME VALUE]...
 * [-r NAME VALUE]... [--out DIR]` (docs/notebooks.md). papermill's
 * `-y YAML` and `-f FILE.yaml` are read here (YAML 1.2, the `yaml` package)
 * and handed to the runner as `-p NAME JSON` pairs placed before the
 * others, so `-p` and `-r` override them, as in papermill.
 *
 * Permissions: read, write only `.jupyter/`, run only `python3`, the
 * environment variable `INIT_CWD`.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { parse as parseYaml } from "npm:yaml@2.9.1";
import { PROJECT_ROOT, writeProjectKernelSpec } from "./kernelspec.ts";
import { runPython } from "./python.ts";
import { printError, printLine } from "../core/terminal_text.ts";

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
 * papermill's `-y YAML` / `--parameters_yaml YAML` and `-f FILE` /
 * `--parameters_file FILE` (a YAML mapping of parameter names to values)
 * as `-p NAME JSON` pairs, files first, then the YAML strings, then every
 * other argument in its order (later values win, so `-p` overrides them).
 *
 * @param args The task's arguments.
 * @param cwd The directory a relative FILE is read from.
 * @returns The runner's arguments, or one usage error line per mistake.
 *
 * @example
 * ```ts
 * import { yamlParameters } from "./notebooks.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(yamlParameters(["-y", "METRIC: r_success\nGATES: [a, b]", "-p", "DRAWS", "50"], "/"),
 *   ["-p", "METRIC", '"r_success"', "-p", "GATES", '["a","b"]', "-p", "DRAWS", "50"]);
 * deepEqual(yamlParameters(["-y", "[1, 2]"], "/"),
 *   { errors: ["usage_error  -y  expected a YAML mapping of parameter names to values, got an array"] });
 * ```
 */
export function yamlParameters(
  args: readonly string[],
  cwd: string,
): string[] | { readonly errors: readonly string[] } {
  const files: string[] = [], texts: string[] = [], rest: string[] = [], errors: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const file = arg === "-f" || arg === "--parameters_file";
    if (file || arg === "-y" || arg === "--parameters_yaml") {
      const value = args[i + 1];
      if (value === undefined) errors.push(`usage_error  ${arg}  needs a value`);
      else (file ? files : texts).push(value);
      i++;
    } else rest.push(arg);
  }
  const pairs: string[] = [];
  const add = (where: string, text: string) => {
    let value: unknown;
    try {
      value = parseYaml(text);
    } catch (error) {
      errors.push(
        `usage_error  ${where}  not YAML: ${
          (error as Error).message.split("\n")[0]!.replace(/:$/, "")
        }`,
      );
      return;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      const got = Array.isArray(value) ? "an array" : value === null ? "nothing" : typeof value;
      errors.push(
        `usage_error  ${where}  expected a YAML mapping of parameter names to values, got ${got}`,
      );
      return;
    }
    for (const [name, v] of Object.entries(value)) pairs.push("-p", name, JSON.stringify(v));
  };
  for (const f of files) {
    let text;
    try {
      text = Deno.readTextFileSync(resolve(cwd, f));
    } catch (error) {
      errors.push(
        `usage_error  -f ${f}  cannot read the parameters file (${(error as Error).name})`,
      );
      continue;
    }
    add(`-f ${f}`, text);
  }
  for (const t of texts) add("-y", t);
  return errors.length > 0 ? { errors } : [...pairs, ...rest];
}

/** `deno task notebooks --help`: the task's own usage (the runner's internal flags left out). */
export const NOTEBOOKS_USAGE =
  `usage: deno task notebooks [<notebook.ipynb>...] [--notebook <name>]...
                            [-p <name> <value>]... [-r <name> <value>]...
                            [-y <yaml>] [-f <file.yaml>] [--out <dir>]
                            [--timeout <seconds>] [--settle <seconds>]

Runs notebooks headlessly with the Deno kernel, each top to bottom in a fresh
kernel, and writes each as an executed .ipynb and an offline .html into --out
(default reports/notebooks). Without a notebook, runs every notebooks/*.ipynb.

  <notebook.ipynb>        a notebook file of yours (gate notebook new writes one),
                          relative to the directory you run from
  --notebook <name>       a project notebook by name or unique prefix: 01,
                          05_raw_traces_sql (repeatable)
  -p <name> <value>       set a parameter of the notebook's parameters cell: JSON
                          when <value> parses as JSON, else the text (repeatable)
  -r <name> <value>       set a parameter to the text <value> as it is (repeatable)
  -y <yaml>               parameters as a YAML mapping (papermill's -y)
  -f <file.yaml>          parameters from a YAML file (papermill's -f); -p and -r
                          given after override -y and -f
  --out <dir>             where the executed notebooks go
  --timeout <seconds>     seconds a cell may run (default 600)
  --settle <seconds>      quiet seconds after the last cell (default 2)

Relative paths in path parameters are relative to the directory you run from.
Exit 0 when every notebook ran, 2 when one stopped on issues in its inputs or a
usage mistake, 1 otherwise. docs/notebooks.md, "Running them headlessly".`;

/**
 * Runs `deno task notebooks`.
 *
 * @param args Command-line arguments (passed to the runner).
 * @param options `quiet`: discard the runner's output (tests read the written notebooks);
 *   `cwd`: the directory relative paths resolve against (default `INIT_CWD`, else the
 *   current directory).
 * @returns The runner's exit code; 2 when `python3` is missing.
 */
export async function run(
  args: readonly string[],
  options: { readonly quiet?: boolean; readonly cwd?: string } = {},
): Promise<number> {
  if (args.some((a) => a === "--help" || a === "-h")) {
    printLine(NOTEBOOKS_USAGE);
    return 0;
  }
  const cwd = options.cwd ?? Deno.env.get("INIT_CWD") ?? Deno.cwd();
  const expanded = yamlParameters(args, cwd);
  if (!Array.isArray(expanded)) {
    for (const line of (expanded as { errors: string[] }).errors) printError(line);
    return 2;
  }
  const jupyterDir = await writeProjectKernelSpec();
  try {
    return await runPython(
      runnerArgs(PROJECT_ROOT, expanded, { deno: Deno.execPath(), jupyterDir, cwd }),
      {},
      options.quiet ? "null" : "inherit",
    );
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    printError(
      "usage_error  python3  deno task notebooks needs Python 3 with jupyter_client, nbformat and " +
        "nbconvert: install python3, then python3 -m pip install jupyter_client nbformat nbconvert",
    );
    return 2;
  }
}

if (import.meta.main) Deno.exit(await run(Deno.args));
