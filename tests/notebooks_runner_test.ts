/**
 * The headless runner (`deno task notebooks`, lib/cli/notebooks.ts and
 * scripts/run_notebooks.py) with papermill-style parameters: notebook 01
 * runs unchanged on a gate copied to a temporary directory outside the
 * repository, given only `-p GATES '["<abs path>"]'`, and on the demo's two
 * pooled online rounds given as paths relative to the caller's directory
 * (INIT_CWD under `deno task`, run()'s `cwd` here). Both finish without errors, with the injected values recorded,
 * figures and the selection table in the outputs, and files written 0644.
 * Bad parameters exit 2 with one line each before anything runs.
 *
 * Needs python3 with jupyter_client, nbformat and nbconvert; skipped, with a
 * message, without them, except in CI (`CI=true`), where it runs and fails.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { PROJECT_ROOT } from "../lib/cli/kernelspec.ts";
import { run, runnerArgs, yamlParameters } from "../lib/cli/notebooks.ts";
import { pythonStatus } from "../lib/cli/python.ts";
import { IN_CI, warnSkip } from "./ci_tools.ts";

const canRun = Deno.permissions.querySync({ name: "run", command: "python3" }).state === "granted";
const status = canRun ? await pythonStatus(["jupyter_client", "nbformat", "nbconvert"]) : null;
const available = status !== null && status.python && status.missing.length === 0;
if (!available && !IN_CI) {
  warnSkip(
    "notebooks_runner_test: skipped — needs python3 with jupyter_client, nbformat, nbconvert " +
      "(python3 -m pip install jupyter_client nbformat nbconvert) and --allow-run=python3",
  );
}

interface Output {
  output_type: string;
  data?: Record<string, string | string[]>;
  text?: string | string[];
}
interface Cell {
  cell_type: string;
  source: string | string[];
  metadata: { tags?: string[] };
  outputs?: Output[];
}
const text = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join("") : v ?? "");

/** Copies a directory tree (demo runs are small). */
async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyDir(join(from, entry.name), join(to, entry.name));
    else await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}

/**
 * Runs `deno task notebooks` in-process from `cwd` (what INIT_CWD names under `deno task`; given
 * as an option, since the test process's environment is shared by every file of a --parallel run).
 */
function notebooks(cwd: string, args: string[]): Promise<number> {
  return run(args, { quiet: true, cwd });
}

/** Checks an executed notebook 01 and returns its cells. */
async function checkExecuted(out: string, gates: string[]): Promise<Cell[]> {
  const file = join(out, "01_gate_reanalysis.ipynb");
  for (const f of [file, join(out, "01_gate_reanalysis.html")]) {
    equal((await Deno.stat(f)).mode! & 0o777, 0o644, `${f} is 0644`);
  }
  const nb = JSON.parse(await Deno.readTextFile(file));
  deepEqual(nb.metadata.gatelab.parameters, { GATES: gates });
  const cells: Cell[] = nb.cells;
  const params = cells.findIndex((c) => c.metadata.tags?.includes("parameters"));
  const injected = cells[params + 1]!;
  deepEqual(injected.metadata.tags, ["injected-parameters"]);
  ok(text(injected.source).includes(`GATES = ${JSON.stringify(gates).replaceAll(",", ", ")};`));
  const outputs = cells.flatMap((c) => c.outputs ?? []);
  deepEqual(outputs.filter((o) => o.output_type === "error" || o.output_type === "stream"), []);
  const html = outputs.map((o) => text(o.data?.["text/html"])).join("\n");
  ok((html.match(/<svg/g) ?? []).length >= 3, "forest, delta-by-count and stability figures");
  ok(html.includes("<caption>Selection by reward: positive top-"), "the selection table");
  return cells;
}

Deno.test({
  name: "notebook 01 runs on a gate outside the repository given only -p GATES",
  ignore: !available && !IN_CI, // in CI a missing tool fails instead
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "gatelab-outside-" });
    try {
      ok(!tmp.startsWith(PROJECT_ROOT));
      await copyDir(join(PROJECT_ROOT, "data/demo/ckpt-a/gate-a"), join(tmp, "ckpt-a/gate-a"));
      await copyDir(join(PROJECT_ROOT, "data/demo/ckpt-a/bare-val"), join(tmp, "ckpt-a/bare-val"));
      const gate = join(tmp, "ckpt-a/gate-a");
      const out = join(tmp, "out");
      const code = await notebooks(tmp, [
        "--notebook",
        "01_gate_reanalysis",
        "-p",
        "GATES",
        JSON.stringify([gate]),
        "--out",
        "out",
      ]);
      equal(code, 0);
      const cells = await checkExecuted(out, [gate]);
      const summary = cells.flatMap((c) => c.outputs ?? [])
        .map((o) => text(o.data?.["text/markdown"])).find((t) => t.startsWith("**Validation**"));
      ok(summary?.includes("| gates | gate-a (cold_start, budget_k 10) |"), summary);
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test({
  name: "a gate with issues stops notebook 01 at the dataset cell and exits 2, summary shown",
  ignore: !available && !IN_CI, // in CI a missing tool fails instead
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "gatelab-broken-" });
    try {
      await copyDir(join(PROJECT_ROOT, "data/demo/ckpt-a/gate-a"), join(tmp, "gate-a"));
      await copyDir(join(PROJECT_ROOT, "data/demo/ckpt-a/bare-val"), join(tmp, "bare-val"));
      const traces = join(tmp, "gate-a/traces.jsonl");
      const lines = (await Deno.readTextFile(traces)).split("\n");
      const dropped = JSON.parse(lines[4]!);
      await Deno.writeTextFile(traces, lines.filter((_, i) => i !== 4).join("\n"));
      const code = await notebooks(tmp, [
        "--notebook",
        "01",
        "-p",
        "GATES",
        '["gate-a"]',
        "--out",
        "out",
      ]);
      equal(code, 2);
      const nb = JSON.parse(await Deno.readTextFile(join(tmp, "out/01_gate_reanalysis.ipynb")));
      const outputs: Output[] = (nb.cells as Cell[]).flatMap((c) => c.outputs ?? []);
      const summary = outputs.map((o) => text(o.data?.["text/markdown"]))
        .find((t) => t.startsWith("**Validation**"));
      ok(summary?.includes("| verdict | not ok |"), summary);
      const error = outputs.find((o) => o.output_type === "error") as Output & { evalue?: string };
      ok(
        error?.evalue?.includes(
          `coverage_incomplete  ${traces} [${dropped.split}/${dropped.task_id}/${dropped.sample_id}]`,
        ),
        error?.evalue,
      );
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test({
  name: "notebook 01 pools the two online rounds given relative to the caller's directory",
  ignore: !available && !IN_CI, // in CI a missing tool fails instead
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "gatelab-pooled-" });
    try {
      const code = await notebooks(join(PROJECT_ROOT, "data/demo"), [
        "--notebook",
        "01",
        "-p",
        "GATES",
        '["ckpt-b/gate-online-r1", "ckpt-b/gate-online-r2"]',
        "--out",
        out,
      ]);
      equal(code, 0);
      const gates = ["gate-online-r1", "gate-online-r2"].map((g) =>
        join(PROJECT_ROOT, "data/demo/ckpt-b", g)
      );
      const cells = await checkExecuted(out, gates);
      const markdown = cells.flatMap((c) => c.outputs ?? []).map((o) =>
        text(o.data?.["text/markdown"])
      );
      ok(
        markdown.some((t) => /\| gates \| \S+ \(online, .*\), \S+ \(online, /.test(t)),
        "both rounds",
      );
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});

Deno.test({
  name: "bad notebook names and parameters exit 2 with one line each, before anything runs",
  ignore: !available && !IN_CI, // in CI a missing tool fails instead
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "gatelab-bad-" });
    try {
      const args = runnerArgs(PROJECT_ROOT, [
        "--notebook",
        "99",
        "--notebook",
        "01",
        "-p",
        "NOPE",
        "1",
        "--out",
        out,
      ], { deno: Deno.execPath(), jupyterDir: join(PROJECT_ROOT, ".jupyter"), cwd: PROJECT_ROOT });
      const result = await new Deno.Command("python3", { args, stdout: "piped", stderr: "piped" })
        .output();
      equal(result.code, 2);
      deepEqual(new TextDecoder().decode(result.stderr).trim().split("\n"), [
        "usage_error  --notebook 99  is not a notebook (known: " +
        (await Array.fromAsync(Deno.readDir(join(PROJECT_ROOT, "notebooks"))))
          .map((e) => e.name).filter((n) => n.endsWith(".ipynb")).sort()
          .map((n) => n.slice(0, -6)).join(", ") +
        ")",
        "usage_error  01_gate_reanalysis.ipynb NOPE  not a parameter of this notebook " +
        "(declared: GATES, METRIC, BUDGET_K, DRAWS, SEED, CACHE_DIR, OUT_DIR)",
        "notebooks: 2 usage error(s); nothing ran",
      ]);
      deepEqual(await Array.fromAsync(Deno.readDir(out)), []);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});

Deno.test({
  name: "-p follows papermill's rule: JSON when the value parses, True/False/None, else the string",
  ignore: !available && !IN_CI, // in CI a missing tool fails instead
  async fn() {
    const cases: [string, unknown][] = [
      ["r_success", "r_success"], // papermill users type exactly this
      ["50", 50],
      ["0.25", 0.25],
      ["1e3", 1000],
      ["true", true],
      ["True", true],
      ["False", false],
      ["None", null],
      ["null", null],
      ['["runs/r1", "runs/r2"]', ["runs/r1", "runs/r2"]],
      ['{"a": 1}', { a: 1 }],
      ['"50"', "50"],
      ["[unclosed", "[unclosed"],
      ["", ""],
    ];
    const script = [
      "import json, sys",
      `sys.path.insert(0, ${JSON.stringify(join(PROJECT_ROOT, "scripts"))})`,
      "from run_notebooks import parse_parameter_values",
      "cases = json.loads(sys.argv[1])",
      "values, errors = parse_parameter_values([[str(i), t] for i, t in enumerate(cases)], [['raw', '50']])",
      "print(json.dumps([values, [str(e) for e in errors]]))",
    ].join("\n");
    const result = await new Deno.Command("python3", {
      args: ["-c", script, JSON.stringify(cases.map(([text]) => text))],
      stdout: "piped",
      stderr: "piped",
    }).output();
    equal(result.code, 0, new TextDecoder().decode(result.stderr));
    const [values, errors] = JSON.parse(new TextDecoder().decode(result.stdout));
    deepEqual(errors, []);
    deepEqual(values, {
      ...Object.fromEntries(cases.map(([, value], i) => [String(i), value])),
      raw: "50", // -r: always the string
    });
  },
});

Deno.test("-y YAML and -f FILE become -p pairs before the others; mistakes are one line each", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-yaml-" });
  try {
    await Deno.writeTextFile(join(dir, "params.yaml"), "METRIC: r_success\nGATES:\n  - runs/r1\n");
    deepEqual(yamlParameters(["-f", "params.yaml", "-y", "DRAWS: 50", "-p", "DRAWS", "7"], dir), [
      "-p",
      "METRIC",
      '"r_success"',
      "-p",
      "GATES",
      '["runs/r1"]',
      "-p",
      "DRAWS",
      "50",
      "-p",
      "DRAWS",
      "7",
    ]);
    deepEqual(
      yamlParameters(["-f", "nope.yaml", "-y", "a: [", "--parameters_yaml", "3", "-y"], dir),
      {
        errors: [
          "usage_error  -y  needs a value",
          "usage_error  -f nope.yaml  cannot read the parameters file (NotFound)",
          "usage_error  -y  not YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 5",
          "usage_error  -y  expected a YAML mapping of parameter names to values, got number",
        ],
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
