/**
 * Masked runs read in a worker (lib/load/run_reader.ts) against the same runs read on the calling
 * thread: validateGates with `readWorker` true and false on pooled rounds, a directory given twice
 * and faulty masked runs gives the same result field by field (issues in their order, inputs,
 * dataset); a worker that cannot start leaves its runs to the calling thread with one line each;
 * the worker's progress reaches the caller's callback; and the default route takes the worker only
 * from RUN_READER_MIN_BYTES of masked traces.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { readInWorker } from "../lib/validate/read_inputs.ts";
import { RUN_READER_MIN_BYTES, startRunReader } from "../lib/load/run_reader.ts";
import { loadRunParts } from "../lib/load/read_run.ts";
import { StringIds } from "../lib/load/columns.ts";
import {
  appendLines,
  mutateJsonl,
  tempDir,
  writeGateFixture,
  writePooledRounds,
} from "./fixtures.ts";

/** validateGates both ways; the results must be equal. */
async function bothWays(dirs: readonly string[]) {
  const here = await validateGates(dirs, { readWorker: false });
  const worker = await validateGates(dirs, { readWorker: true });
  deepEqual(worker, here);
  return here;
}

Deno.test("run reader: pooled rounds and a directory given twice validate as on one thread", async () => {
  await using dir = await tempDir();
  const [a, b] = await writePooledRounds(dir.path, { tasks: 30 });
  const v = await bothWays([a!.gateDir, b!.gateDir]);
  deepEqual([v.ok, v.dataset?.n, v.dataset?.k], [true, 60, 4]);
  const again = await bothWays([a!.gateDir, b!.gateDir, a!.gateDir + "/"]);
  deepEqual(again.issues.map((i) => i.code), ["usage_error"]);
});

Deno.test("run reader: faulty masked runs give the same issues in the same order", async () => {
  await using dir = await tempDir();
  const a = await writeGateFixture(join(dir.path, "a"), { tasks: 12, gateName: "g1" });
  const b = await writeGateFixture(join(dir.path, "a"), {
    tasks: 12,
    gateName: "g2",
    seed: 2,
    existingBareDir: a.bareDir,
  });
  const c = await writeGateFixture(join(dir.path, "a"), {
    tasks: 12,
    gateName: "g3",
    seed: 3,
    existingBareDir: a.bareDir,
  });
  // g1: broken JSON, a line the schema refuses, a line kept whole (provenance), a bad byte.
  await mutateJsonl(
    join(a.gateDir, "traces.jsonl"),
    (t, line) =>
      line === 2
        ? "{not json"
        : line === 3
        ? { ...t, status: "maybe" }
        : line === 4
        ? { ...t, provenance: { host: "h1" }, error: "late" }
        : t,
  );
  await Deno.writeFile(join(a.gateDir, "traces.jsonl"), new Uint8Array([0xff, 0x0a]), {
    append: true,
  });
  // g2: no traces at all; g3: a trace line for an episode outside the plan.
  await Deno.remove(join(b.gateDir, "traces.jsonl"));
  await appendLines(join(c.gateDir, "traces.jsonl"), {
    split: "val",
    task_id: "t999",
    sample_id: 0,
    attempt: 0,
    status: "completed",
    reward: 0.5,
    rewards: { r_strict: 0.5, r_success: 0 },
    injected: [],
  });
  const v = await bothWays([a.gateDir, b.gateDir, c.gateDir]);
  // The faults planted are reported, first in g1's file, then g2's missing file, then g3's.
  const files = v.issues.map((i) => i.file ?? "");
  deepEqual(
    [
      files.some((f) => f === join(a.gateDir, "traces.jsonl")),
      files.some((f) => f === join(b.gateDir, "traces.jsonl")),
      files.some((f) => f === join(c.gateDir, "traces.jsonl")),
      v.dataset,
    ],
    [true, true, true, null],
  );
  const first = (gate: string) => files.findIndex((f) => f.startsWith(gate + "/"));
  deepEqual(first(a.gateDir) < first(b.gateDir) && first(b.gateDir) < first(c.gateDir), true);
});

Deno.test("run reader: the same parts as loadRunParts, and progress from the worker", async () => {
  const dirs = ["data/demo/ckpt-a/gate-a", "data/demo/ckpt-a/bare-val"];
  const seen: [string, number, number][] = [];
  const reader = startRunReader(dirs, {
    onRead: (file) => (done, total) => seen.push([file, done, total]),
  });
  try {
    for (const [i, d] of dirs.entries()) {
      const parts = await (await reader.runs[i]!).take(new StringIds());
      const here = await loadRunParts(d);
      deepEqual(
        [parts.dir, parts.manifest, parts.sha256, parts.issues, parts.attempts],
        [here.dir, here.manifest, here.sha256, here.issues, here.attempts],
      );
    }
  } finally {
    reader.close();
  }
  // Each file's progress ends at its size.
  for (const d of dirs) {
    const file = join(d, "traces.jsonl"), size = (await Deno.stat(file)).size;
    deepEqual(seen.filter((s) => s[0] === file).at(-1), [file, size, size]);
  }
});

Deno.test("run reader: a worker that cannot start leaves each run to this thread, with one line", async () => {
  await using dir = await tempDir();
  const module = join(dir.path, "broken_worker.ts");
  await Deno.writeTextFile(module, 'throw new Error("planted");\n');
  const dirs = ["data/demo/ckpt-a/gate-a", "data/demo/ckpt-b/gate-b"];
  const told: string[] = [];
  const reader = startRunReader(dirs, {
    workerUrl: new URL(`file://${module}`),
    onFallback: (m) => told.push(m),
  });
  try {
    for (const [i, d] of dirs.entries()) {
      const parts = await (await reader.runs[i]!).take(new StringIds());
      deepEqual(parts.attempts, (await loadRunParts(d)).attempts);
    }
  } finally {
    reader.close();
  }
  deepEqual(told.length, 2);
  deepEqual(
    told.map((
      m,
    ) => [/planted/.test(m), m.endsWith(`reading ${dirs[told.indexOf(m)]} on this thread`)]),
    [
      [true, true],
      [true, true],
    ],
  );
});

Deno.test("run reader: by default only from RUN_READER_MIN_BYTES of masked traces", async () => {
  await using dir = await tempDir();
  const small = join(dir.path, "small"), large = join(dir.path, "large");
  for (
    const [d, bytes] of [[small, RUN_READER_MIN_BYTES - 1], [large, RUN_READER_MIN_BYTES]] as const
  ) {
    await Deno.mkdir(d);
    await Deno.writeFile(join(d, "traces.jsonl"), new Uint8Array());
    await Deno.truncate(join(d, "traces.jsonl"), bytes); // a sparse file of that size
  }
  const twoCores = (navigator.hardwareConcurrency ?? 1) >= 2;
  deepEqual(
    [readInWorker([small], undefined), readInWorker([large], undefined)],
    [false, twoCores],
  );
  // Sizes add up over the gates; a directory given again (null) is not counted.
  equal(readInWorker([small, small], undefined), twoCores);
  equal(readInWorker([small, null], undefined), false);
  deepEqual([readInWorker([large], false), readInWorker([], new URL("file:///x.ts"))], [
    false,
    true,
  ]);
});
