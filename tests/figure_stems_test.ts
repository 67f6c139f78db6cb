/**
 * Every reward component name the contract accepts renders (issue 31, item
 * 13): `gate sequential` on a gate whose component is `r_a b` crashed with
 * `RangeError: Cannot render figure`. Through the real CLI; the figure
 * stems are safe, stable and distinct (lib/figures/render.ts figureStem).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { gate } from "./gate_process.ts";
import { tempDir, writeGateFixture } from "./fixtures.ts";
import { figureStem } from "../lib/figures/render.ts";

Deno.test("gate sequential renders a component named 'r_a b' beside 'r_a_b'", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(join(dir.path, "g"), {
    tasks: 12,
    components: ["r_strict", "r_a b", "r_a_b"],
  });
  const out = join(dir.path, "out");
  const r = await gate(dir.path, ["sequential", fx.gateDir, "--out", out]);
  equal(r.code, 0, r.stdout + r.stderr);
  const files = [...Deno.readDirSync(out)].map((e) => e.name).filter((n) => n.endsWith(".svg"));
  const spaced = figureStem("sequential_funnel_", "r_a b");
  ok(/^sequential_funnel_r_a_b-[0-9a-f]{8}$/.test(spaced), spaced);
  for (const stem of [spaced, "sequential_funnel_r_a_b", "sequential_funnel_r_strict"]) {
    ok(files.includes(`${stem}.svg`), `${stem}.svg in ${files}`);
  }
  // Stable: the same name gives the same stem on every run.
  deepEqual(figureStem("sequential_funnel_", "r_a b"), spaced);
});
