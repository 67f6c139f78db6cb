/**
 * A gate whose version, chunk and metric ids hold LaTeX specials and
 * control sequences (`\input{...}`, braces, `~ ^ # % & $ _`, a hyphen before
 * a digit), analysed by `gate analyze` like any other: every `.tex` table it
 * writes compiles in one- and two-column article pages with no Overfull box
 * and no error, so the layout's width estimate of the escaped ids is never
 * optimistic where it matters. Needs pdflatex (skipped outside CI without
 * it).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { run } from "../lib/cli/analyze.ts";
import { writeGateFixture } from "./fixtures.ts";
import { compileTables } from "./latex_compile.ts";
import { filesUnder } from "./demo_outputs.ts";
import { IN_CI, mayRun } from "./ci_tools.ts";

const ignore = !mayRun("pdflatex") && !IN_CI;
if (ignore) console.warn("paper_hostile_ids_test: skipped, pdflatex may not run");

Deno.test({
  name:
    "analyze on ids of LaTeX specials: every table fits its layout in one- and two-column pages",
  ignore,
  async fn() {
    const piece = fc.constantFrom(
      ..."{}~^#%&$_".split(""),
      "\\input{x}",
      "\\relax",
      "-1",
      " -2",
      "W",
      "m",
      "q",
    );
    const id = fc.array(piece, { minLength: 3, maxLength: 14 }).map((p) => p.join(""));
    const ids = fc.sample(fc.uniqueArray(id, { minLength: 10, maxLength: 10 }), {
      numRuns: 1,
      seed: 20261201,
    })[0]!;
    const dir = await Deno.makeTempDir({ prefix: "gatelab-hostile-" });
    try {
      const slots = ids.slice(0, 6).map((v, i) => ({
        slot_id: `s${i}`,
        versions: [{
          version_id: `${i === 0 ? "\\input{x}" : ""}${v}.v1`,
          role: "add" as const,
          chunk_id: ids[(i + 6) % 10]! + i,
        }],
      }));
      const fx = await writeGateFixture(dir, {
        tasks: 40,
        slots,
        components: ["r_strict", `r_${ids[9]}`],
        budgetK: 3,
      });
      const out = join(dir, "out");
      const { log, error } = console;
      console.log = console.error = () => {};
      let code: number;
      try {
        code = await run([fx.gateDir, "--out", out, "--bootstrap", "200", "--seed", "3"]);
      } finally {
        console.log = log;
        console.error = error;
      }
      equal(code, 0);
      const files = await filesUnder(out, ".tex");
      ok(files.length >= 3, `${files.length} .tex files`);
      const tex = files.map((f) => Deno.readTextFileSync(f)).join("\n");
      ok(tex.includes("\\textbackslash{}input\\{x\\}"), "an id holding \\input{x} prints as text");
      for (const layout of ["article", "twocolumn"] as const) {
        const { perFile, exitCode, log } = await compileTables(files, layout);
        deepEqual(exitCode, 0, log.slice(-2000));
        deepEqual(
          perFile.filter((f) => f.problems.length > 0).map((f) =>
            `${layout} ${f.file}: ${f.problems}`
          ),
          [],
        );
        ok(!log.includes("GATELAB-EXECUTED"), "a control sequence from the data ran");
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
