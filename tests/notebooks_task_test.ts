/**
 * `deno task notebooks` as a user starts it (issue 35, items 9 and 10):
 * `--help` prints gatelab's own usage of the task, with papermill's `-y`
 * and `-f`, never the Python runner's usage or its internal flags; and a
 * notebook run prints no `"deno jupyter" is unstable` warning (the
 * kernelspec starts the kernel with `--quiet`). Needs python3 with the
 * Jupyter client (the run).
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { PROJECT_ROOT } from "../lib/cli/kernelspec.ts";
import { IN_CI, mayRun } from "./ci_tools.ts";

/** `deno task notebooks <args>` from the project root; stdout and stderr. */
async function task(args: readonly string[]) {
  const out = await new Deno.Command("deno", {
    args: ["task", "notebooks", ...args],
    cwd: PROJECT_ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("deno task notebooks --help: gatelab's usage of the task, -y and -f listed, no runner internals", async () => {
  const help = await task(["--help"]);
  equal(help.code, 0, help.stderr);
  match(
    help.stdout,
    /^usage: deno task notebooks \[<notebook\.ipynb>\.\.\.\] \[--notebook <name>\]\.\.\./,
  );
  for (const flag of ["-y <yaml>", "-f <file.yaml>", "-p <name> <value>", "--out <dir>"]) {
    ok(help.stdout.includes(flag), flag);
  }
  for (const internal of ["run_notebooks.py", "--jupyter-path", "--self-test", "--cwd", "--deno"]) {
    ok(!help.stdout.includes(internal), internal);
  }
});

Deno.test({
  name: "deno task notebooks: a run prints no 'deno jupyter is unstable' warning",
  ignore: !mayRun("python3") && !IN_CI,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "gatelab-nb-quiet-" });
    try {
      const ran = await task(["--notebook", "04", "-p", "DRAWS", "50", "--out", out]);
      equal(ran.code, 0, ran.stderr);
      match(ran.stdout + ran.stderr, /04_reward_recipes\.ipynb/);
      ok(!/is unstable/.test(ran.stdout + ran.stderr), ran.stderr);
      ok(Deno.statSync(join(out, "04_reward_recipes.html")).isFile);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
