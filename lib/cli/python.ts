/**
 * Small helpers for the tasks that need Python (`deno task lab`,
 * `deno task notebooks`): is `python3` there, can it import a module.
 * Permissions: `--allow-run=python3`.
 *
 * @module
 */

/** What {@linkcode pythonStatus} found. */
export interface PythonStatus {
  /** `python3` could be started. */
  readonly python: boolean;
  /** Modules that `python3` could not import (empty when all import). */
  readonly missing: readonly string[];
}

/**
 * Checks that `python3` starts and imports every module in `modules`.
 *
 * @param modules Python module names, e.g. `["jupyterlab"]`.
 * @returns Whether Python runs, and the modules it could not import.
 */
export async function pythonStatus(modules: readonly string[]): Promise<PythonStatus> {
  const script = [
    "import importlib.util, sys",
    `names = ${JSON.stringify(modules)}`,
    "print(' '.join(n for n in names if importlib.util.find_spec(n) is None))",
  ].join("\n");
  try {
    const out = await new Deno.Command("python3", { args: ["-c", script], stderr: "null" })
      .output();
    if (!out.success) return { python: false, missing: [...modules] };
    const text = new TextDecoder().decode(out.stdout).trim();
    return { python: true, missing: text ? text.split(/\s+/) : [] };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { python: false, missing: [...modules] };
    throw error;
  }
}

/**
 * Runs `python3 <args>` with the terminal attached and returns its exit code.
 *
 * @param args Arguments after `python3`.
 * @param env Extra environment variables.
 * @param output `"inherit"` (the terminal) or `"null"` (discard stdout and stderr; tests).
 * @returns The exit code.
 */
export async function runPython(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  output: "inherit" | "null" = "inherit",
): Promise<number> {
  const child = new Deno.Command("python3", {
    args: [...args],
    env: { ...env },
    stdin: output === "null" ? "null" : "inherit",
    stdout: output,
    stderr: output,
  }).spawn();
  return (await child.status).code;
}
