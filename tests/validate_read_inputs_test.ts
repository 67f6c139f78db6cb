/** The reading step of a validation (lib/validate/read_inputs.ts) on fixture gates. */
import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import { readValidationInputs } from "../lib/validate/read_inputs.ts";
import { tempDir, writeGateFixture } from "./fixtures.ts";

Deno.test("read inputs: the bare run once, then per gate its plan files and masked run, with progress", async () => {
  await using dir = await tempDir();
  const a = await writeGateFixture(dir.path, { tasks: 5, gateName: "r1", gateId: "r1" });
  const b = await writeGateFixture(dir.path, {
    tasks: 5,
    gateName: "r2",
    gateId: "r2",
    seed: 2,
    existingBareDir: a.bareDir,
  });
  const progress: [number, number][] = [];
  const r = await readValidationInputs([a.gateDir, b.gateDir, a.gateDir + "/"], {
    onProgress: (done, total) => progress.push([done, total]),
  });
  deepEqual(r.inputs.map((i) => [i.kind, i.dir, i.cache ?? null]), [
    ["bare", a.bareDir, "off"],
    ["gate", a.gateDir, null],
    ["masked", a.gateDir, "off"],
    ["gate", b.gateDir, null],
    ["masked", b.gateDir, "off"],
  ]);
  deepEqual(r.gates.map((g) => [g.planFile, g.bareDir]), [
    [join(a.gateDir, "gate.json"), a.bareDir],
    [join(b.gateDir, "gate.json"), a.bareDir],
  ]);
  deepEqual(r.issues.map((i) => [i.code, i.message]), [[
    "usage_error",
    `gate directory ${a.gateDir}/ is given twice; each round counts once`,
  ]]);
  deepEqual(progress, [[2, 7], [4, 7], [7, 7]]);
  deepEqual([r.bare!.dir, r.bare!.attempts.length, r.warnings], [a.bareDir, 5, []]);
});

Deno.test("read inputs: gates over different bare runs name the later gate's bare_run_dir", async () => {
  await using dir = await tempDir();
  const a = await writeGateFixture(join(dir.path, "x"), { tasks: 4 });
  const b = await writeGateFixture(join(dir.path, "y"), { tasks: 4, worldSeed: 99 });
  const r = await readValidationInputs([a.gateDir, b.gateDir]);
  deepEqual(r.issues.map((i) => [i.code, i.file, i.path]), [[
    "usage_error",
    join(b.gateDir, "gate.json"),
    "bare_run_dir",
  ]]);
  // Each gate's own bare run is read and is the one it is paired with.
  deepEqual(r.inputs.filter((i) => i.kind === "bare").map((i) => i.dir), [a.bareDir, b.bareDir]);
  deepEqual(r.gates.map((g) => g.bareIndex), [0, 1]);
});
