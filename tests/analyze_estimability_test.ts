/**
 * Estimability at the edge, through the real CLI (issue 31, item 12): a
 * version present in one row (leverage 1) has no standard error, p or
 * interval of any kind and is never selected, while every other
 * coefficient keeps its CR1 and HC3 errors as statsmodels computes them
 * (tests/data/reference/estimability_lone.json: python3
 * scripts/reference/estimability_lone.py, which rebuilds the fixture from the
 * demo's files); a fit with no residual degree of freedom is refused for
 * selection with one line. Fixtures: tests/edge_fits.ts.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { gate } from "./gate_process.ts";
import { tempDir } from "./fixtures.ts";
import { writeLoneVersion, writeSquareGate } from "./edge_fits.ts";

const REF: {
  lone: { version_id: string; estimate: number };
  versions: Record<string, { estimate: number; se_cluster: number; se_hc3: number }>;
} = JSON.parse(
  await Deno.readTextFile(new URL("./data/reference/estimability_lone.json", import.meta.url)),
);

const close = (a: number | null | undefined, b: number, what: string) =>
  ok(
    typeof a === "number" && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)),
    `${what}: ${a} vs ${b}`,
  );

Deno.test("a version in one row: no error, p or interval, never selected; the others as statsmodels", async () => {
  await using dir = await tempDir();
  const g = await writeLoneVersion(dir.path);
  for (const cov of ["HC3", "HC1"]) {
    const out = join(dir.path, `out-${cov}`);
    const r = await gate(dir.path, [
      "analyze",
      g,
      "--out",
      out,
      "--bootstrap",
      "50",
      "--cov",
      cov,
      "--quiet",
    ]);
    equal(r.code, 0, r.stdout + r.stderr);
    const c = JSON.parse(await Deno.readTextFile(join(out, "contributions.json")));
    const lone = c.metrics.reward.coefficients[REF.lone.version_id];
    close(lone.estimate, REF.lone.estimate, "lone estimate");
    deepEqual(
      [
        lone.se_hc3,
        lone.se_robust,
        lone.t,
        lone.p,
        lone.se_cluster,
        lone.t_cluster,
        lone.p_cluster,
      ],
      [null, null, null, null, null, null, null],
    );
    deepEqual([lone.se_bootstrap, lone.ci], [null, null]);
    for (const [v, ref] of Object.entries(REF.versions)) {
      const k = c.metrics.reward.coefficients[v];
      close(k.estimate, ref.estimate, `${v} estimate`);
      close(k.se_cluster, ref.se_cluster, `${v} se_cluster`);
      close(k.se_hc3, ref.se_hc3, `${v} se_hc3`);
    }
    const s = JSON.parse(await Deno.readTextFile(join(out, "selection.json")));
    const d = s.decisions.find((x: { version_id: string }) => x.version_id === REF.lone.version_id);
    deepEqual([d.status, d.rank], ["not_estimable", null]);
    ok(!s.selected.includes(REF.lone.version_id));
    // The bootstrap's stability applies the same rule: never ranked, never selected, no loser.
    const st = c.bootstrap.stability;
    deepEqual(st.point_selection, s.selected);
    const sv = st.versions.find((x: { version_id: string }) =>
      x.version_id === REF.lone.version_id
    );
    deepEqual(
      [sv.selected_frequency, sv.rewrite_loser_frequency, sv.rank_point, sv.selected_point],
      [0, 0, null, false],
    );
  }
});

Deno.test("no residual degree of freedom: refused for selection with one line", async () => {
  await using dir = await tempDir();
  const g = await writeSquareGate(dir.path);
  const out = join(dir.path, "out");
  const r = await gate(dir.path, ["analyze", g, "--out", out, "--bootstrap", "0"]);
  equal(r.code, 2, r.stdout + r.stderr);
  const lines = (r.stdout + r.stderr).split("\n").filter((l) => l.startsWith("not_identifiable"));
  equal(lines.length, 1, r.stdout + r.stderr);
  ok(lines[0]!.includes("no residual degrees of freedom (14 rows, 14 versions)"), lines[0]);
  ok(![...Deno.readDirSync(out)].some((e) => e.name === "selection.json"));
});
