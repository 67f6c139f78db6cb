/**
 * The paper-appendix and raw-trace SQL notebooks, run headlessly through
 * `deno task notebooks` (lib/cli/notebooks.ts).
 *
 * - 03: one run writes `appendix.tex` with the sections in appendix order
 *   (Gate A, online rounds, held-out, power, Gate B, study, rewards), every
 *   table and figure it includes exists (`.tex`, `.svg`), and it compiles
 *   with pdflatex in a plain article without an Overfull box (needs
 *   pdflatex and rsvg-convert for the PNGs; always in CI).
 * - 05: the worked query "attempts and failure rate per arm" agrees with
 *   counts taken directly from the demo's traces.jsonl files (JSON.parse
 *   per line here, DuckDB there), `sqlTables` lists all seven tables, and the
 *   per-task delta's mean equals the validated dataset's (TypeScript pairing).
 *
 * Needs python3 with jupyter_client, nbformat and nbconvert; skipped, with a
 * message, without them, except in CI (`CI=true`), where it runs and fails.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { PROJECT_ROOT } from "../lib/cli/kernelspec.ts";
import { run } from "../lib/cli/notebooks.ts";
import { pythonStatus } from "../lib/cli/python.ts";
import { IN_CI, warnSkip } from "./ci_tools.ts";
import { pdflatexAvailable } from "./latex_compile.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";

const canRun = Deno.permissions.querySync({ name: "run", command: "python3" }).state === "granted";
const status = canRun ? await pythonStatus(["jupyter_client", "nbformat", "nbconvert"]) : null;
const available = status !== null && status.python && status.missing.length === 0;
if (!available && !IN_CI) {
  warnSkip(
    "notebooks_paper_sql_test: skipped — needs python3 with jupyter_client, nbformat, nbconvert",
  );
}

interface Output {
  data?: Record<string, string | string[]>;
}
const text = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join("") : v ?? "");

async function markdownOutputs(file: string): Promise<string[]> {
  const nb = JSON.parse(await Deno.readTextFile(file));
  return (nb.cells as { outputs?: Output[] }[]).flatMap((c) => c.outputs ?? [])
    .map((o) => text(o.data?.["text/markdown"]));
}

Deno.test({
  name: "notebook 03 writes the appendix: sections in order, every included file present",
  ignore: !available && !IN_CI, // in CI a missing tool fails instead
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "gatelab-paper-" });
    try {
      const code = await run([
        "--notebook",
        "03",
        "-p",
        "OUT_DIR",
        JSON.stringify(join(tmp, "appendix")),
        "-p",
        "DRAWS",
        "200",
        "-p",
        "POWER_SIMS",
        "50",
        "--out",
        join(tmp, "nb"),
      ], { quiet: true });
      equal(code, 0);
      const tex = await Deno.readTextFile(join(tmp, "appendix", "appendix.tex"));
      deepEqual([...tex.matchAll(/^\\section\{(.*)\}$/gm)].map((m) => m[1]), [
        "Gate A: cold-start refit and selection",
        "Online rounds (pooled)",
        "Held-out ranking checks",
        "Power for the next gate",
        "Gate B: frozen skill vs bare",
        "Study outcomes",
        "Reward recipes",
      ]);
      const inputs = [...tex.matchAll(/\\input\{\\gatelabappendix (.*)\}/g)].map((m) => m[1]!);
      const tables = inputs.filter((f) => f.startsWith("tables/"));
      const figures = inputs.filter((f) => f.startsWith("figures/"));
      ok(
        tables.length >= 15 && figures.length >= 10,
        `${tables.length} tables, ${figures.length} figures`,
      );
      for (const t of tables) {
        ok((await Deno.readTextFile(join(tmp, "appendix", t))).includes("\\toprule"), t);
      }
      for (const f of figures) {
        const stem = f.replace(/\.tex$/, "");
        ok((await Deno.readTextFile(join(tmp, "appendix", `${stem}.svg`))).startsWith("<svg"), f);
        ok(
          (await Deno.readTextFile(join(tmp, "appendix", f))).includes("\\label{fig:appendix-"),
          f,
        );
      }
      // Labels are unique within the appendix (its sections repeat table kinds).
      const labels = [...tex.matchAll(/\\ref\{([^}]*)\}/g)].map((m) => m[1]!);
      deepEqual(new Set(labels).size, labels.length);
      // appendix.tex compiles from another directory (its files are found from its own), in a
      // plain article, without a warning about boxes or an undefined reference.
      if (pdflatexAvailable() || IN_CI) {
        await Deno.writeTextFile(
          join(tmp, "main.tex"),
          "\\documentclass[10pt]{article}\n\\usepackage{booktabs,graphicx}\n" +
            "\\begin{document}\n\\appendix\n\\input{appendix/appendix}\n\\end{document}\n",
        );
        for (let pass = 0; pass < 2; pass++) {
          const { code } = await new Deno.Command("pdflatex", {
            args: ["-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "main.tex"],
            cwd: tmp,
            stdout: "null",
            stderr: "null",
          }).output();
          const log = await Deno.readTextFile(join(tmp, "main.log"));
          equal(code, 0, log.slice(-2000));
          if (pass === 1) {
            deepEqual(
              log.split("\n").filter((l) =>
                /^Overfull|^! |LaTeX Error|not found|undefined|multiply/.test(l)
              ),
              [],
            );
          }
        }
      }
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test({
  name: "notebook 05: attempts and failures per arm agree with the traces read directly",
  ignore: !available && !IN_CI, // in CI a missing tool fails instead
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "gatelab-sql-" });
    try {
      equal(await run(["--notebook", "05", "--out", tmp], { quiet: true }), 0);
      const markdown = await markdownOutputs(join(tmp, "05_raw_traces_sql.ipynb"));
      const listing = markdown.find((t) => t.startsWith("**Tables in DuckDB**"))!;
      for (
        const name of [
          "assignments",
          "attempts",
          "gates",
          "injected",
          "rewards",
          "runs",
          "versions",
        ]
      ) {
        ok(listing.includes(`| ${name} |`), name);
      }
      const perArm = markdown.find((t) => t.startsWith("**Attempts and failure rate per arm**"))!;
      for (const [arm, dir] of [["bare", "ckpt-a/bare-val"], ["masked", "ckpt-a/gate-a"]]) {
        const lines =
          (await Deno.readTextFile(join(PROJECT_ROOT, "data/demo", dir!, "traces.jsonl")))
            .split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
        const failed = lines.filter((l) => l.status === "failed").length;
        ok(
          perArm.includes(
            `| ${arm} | ${lines.length} | ${failed} | ${(failed / lines.length).toFixed(4)} |`,
          ),
          `${arm}: ${lines.length} attempts, ${failed} failed\n${perArm}`,
        );
      }
      // The SQL pairing (masked minus bare per episode) gives the validated dataset's deltas.
      const dataset = (await validateGates([join(PROJECT_ROOT, "data/demo/ckpt-a/gate-a")]))
        .dataset!;
      const delta = dataset.delta["reward"]!;
      const mean = delta.reduce((a, b) => a + b, 0) / delta.length;
      const distribution = markdown.find((t) =>
        t.startsWith("**Paired delta per task: distribution")
      )!;
      ok(
        distribution.includes(
          `| ${dataset.gates[0]!.masked.run_id} | ${dataset.n} | ${mean.toFixed(4)} |`,
        ),
        distribution,
      );
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});
