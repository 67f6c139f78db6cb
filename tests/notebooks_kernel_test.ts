/**
 * `deno task kernel` installs the gatelab-deno kernelspec where Jupyter
 * itself looks (the user's data directory, `jupyter --data-dir`, here a
 * temporary JUPYTER_DATA_DIR), so stock `jupyter nbconvert --execute` runs
 * notebook 01 with no JUPYTER_PATH: before the install the same command
 * fails with NoSuchKernel, after it succeeds with no error output. (Stock
 * nbconvert can drop a cell's late outputs, docs/notebooks.md: this test
 * asks only for success; the runner's tests check outputs.)
 *
 * Needs python3 with jupyter_client and nbconvert; skipped, with a message,
 * without them, except in CI (`CI=true`), where it runs and fails.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { pythonStatus } from "../lib/cli/python.ts";
import { IN_CI, mayRun, warnSkip } from "./ci_tools.ts";
import { tempDir } from "./fixtures.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const status = mayRun("python3") ? await pythonStatus(["jupyter_client", "nbconvert"]) : null;
const available = status !== null && status.python && status.missing.length === 0;
if (!available && !IN_CI) {
  warnSkip(
    "notebooks_kernel_test: skipped, needs python3 with jupyter_client and nbconvert " +
      "(python3 -m pip install jupyter_client nbconvert)",
  );
}

/** A clean environment: no JUPYTER_PATH, Jupyter's data directory in `dataDir`. */
function cleanEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = { JUPYTER_DATA_DIR: dataDir, NO_COLOR: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

async function run(command: string, args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(command, { args, env, clearEnv: true, stdin: "null" })
    .output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test({
  name: "deno task kernel: stock jupyter nbconvert --execute runs notebook 01 with no JUPYTER_PATH",
  ignore: !available && !IN_CI,
  async fn() {
    await using data = await tempDir();
    await using out = await tempDir();
    const env = cleanEnv(data.path);
    const nbconvert = [
      "-m",
      "jupyter",
      "nbconvert",
      "--to",
      "notebook",
      "--execute",
      join(ROOT, "notebooks", "01_gate_reanalysis.ipynb"),
      "--output-dir",
      out.path,
      "--ExecutePreprocessor.timeout=600",
    ];
    const before = await run("python3", nbconvert, env);
    equal(before.code === 0, false, "without the kernelspec nbconvert fails");
    match(before.stderr, /NoSuchKernel|No such kernel named gatelab-deno/);

    const installed = await run("deno", [
      "task",
      "-q",
      "--config",
      join(ROOT, "deno.json"),
      "kernel",
    ], env);
    equal(installed.code, 0, installed.stderr);
    const dir = join(data.path, "kernels", "gatelab-deno");
    equal(installed.stdout.trim().endsWith(`installed in ${dir}`), true, installed.stdout);
    const spec = JSON.parse(await Deno.readTextFile(join(dir, "kernel.json")));
    ok(isAbsolute(spec.argv[0]), "argv names Deno by its absolute path");
    ok((await Deno.stat(spec.argv[0])).isFile);
    deepEqual(spec.argv.slice(1), [
      "jupyter",
      "--kernel",
      "--quiet",
      "--conn",
      "{connection_file}",
    ]);

    const after = await run("python3", nbconvert, env);
    equal(after.code, 0, after.stderr);
    const nb = JSON.parse(await Deno.readTextFile(join(out.path, "01_gate_reanalysis.ipynb")));
    const outputs = nb.cells.flatMap((c: { outputs?: { output_type: string }[] }) =>
      c.outputs ?? []
    );
    deepEqual(outputs.filter((o: { output_type: string }) => o.output_type === "error"), []);
    ok(outputs.length > 0, "the executed notebook has outputs");
  },
});
