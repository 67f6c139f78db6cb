/**
 * The columnar readers (lib/load/attempt_table.ts, lib/load/assignment_table.ts) against the
 * objects the readers built per line before them: the builders below are those readers' code as it
 * was (lib/load/read_run.ts and read_gate.ts before the columns), and fast-check lines with every
 * optional field, unusual tokens, provenance, errors, non-finite and `__proto__` rewards and slots.
 * Also the plan-position map against an EpisodeMap, the validation's progress, and the manifest's
 * fast task-list check against the schema.
 */
import { deepEqual } from "node:assert/strict";
import fc from "fast-check";
import { AttemptTable } from "../lib/load/attempt_table.ts";
import { AssignmentTable } from "../lib/load/assignment_table.ts";
import { StringIds } from "../lib/load/columns.ts";
import type { Attempt } from "../lib/core/types.ts";
import type { TraceLine } from "../lib/contract/trace.ts";
import { isTraceLineFast } from "../lib/contract/trace_fast.ts";
import type { AssignmentLine } from "../lib/contract/assignment.ts";
import { plannedEpisodes, PlannedMap } from "../lib/validate/plan.ts";
import { EpisodeMap } from "../lib/validate/episode_map.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { tempDir, writeGateFixture } from "./fixtures.ts";
import { parseRunManifest } from "../lib/load/read_run.ts";
import { parseWithSchema } from "../lib/contract/schema_issues.ts";
import { RunManifestSchema } from "../lib/contract/manifest.ts";

/** The reader's attempt of a trace line before the columns (read_run.ts at c1eaef6). */
function attemptBefore(t: TraceLine, line: number): Attempt {
  const rewards: Record<string, number> = {};
  for (const k in t.rewards ?? {}) {
    const v = t.rewards![k];
    if (typeof v === "number" && Number.isFinite(v)) rewards[k] = v;
  }
  return {
    split: t.split,
    task_id: t.task_id,
    sample_id: t.sample_id,
    attempt: t.attempt,
    status: t.status,
    reward: t.reward ?? null,
    rewards,
    success: t.success ?? null,
    injected: t.injected === undefined ? [] : t.injected,
    job_seed: t.job_seed ?? null,
    steps: t.steps ?? null,
    tokens: t.tokens ?? null,
    error: t.error ?? null,
    provenance: t.provenance ?? null,
    line,
  };
}

const word = fc.constantFrom("val", "a", "b", "v1", "v2", "r_strict", "r_x", "__proto__", "0", "1");
const number = fc.oneof(fc.double(), fc.integer(), fc.constant(1e308));
const traceLine: fc.Arbitrary<TraceLine> = fc.record({
  split: word,
  task_id: word,
  sample_id: fc.nat(),
  attempt: fc.nat(),
  status: fc.constantFrom("completed" as const, "failed" as const),
  reward: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: undefined }),
  rewards: fc.option(fc.dictionary(word, fc.oneof(number, fc.string(), fc.constant(null))), {
    nil: undefined,
  }),
  success: fc.option(fc.option(fc.boolean()), { nil: undefined }),
  injected: fc.array(word, { maxLength: 4 }),
  job_seed: fc.option(fc.option(fc.integer()), { nil: undefined }),
  steps: fc.option(fc.option(fc.integer()), { nil: undefined }),
  tokens: fc.option(
    fc.option(fc.oneof(
      fc.record({ prompt: fc.integer(), completion: fc.integer() }),
      fc.record({ completion: fc.integer(), prompt: fc.integer() }),
      fc.record({ prompt: fc.integer(), completion: fc.integer(), cached: fc.integer() }),
    )),
    { nil: undefined },
  ),
  error: fc.option(fc.option(fc.string()), { nil: undefined }),
  provenance: fc.option(fc.option(fc.dictionary(word, fc.integer())), { nil: undefined }),
}, { requiredKeys: ["split", "task_id", "sample_id", "attempt", "status", "injected"] }) as never;

Deno.test("AttemptTable: each attempt equals the object the reader built per line, and its columns agree", () => {
  fc.assert(
    fc.property(fc.array(traceLine, { maxLength: 12 }), (lines) => {
      // Through JSON, as the reader sees them (a __proto__ key becomes an own key).
      const parsed = lines.map((l) => JSON.parse(JSON.stringify(l)) as TraceLine);
      const table = new AttemptTable(new StringIds());
      parsed.forEach((t, i) => table.pushLine(t, i + 1));
      table.trim();
      const before = parsed.map((t, i) => attemptBefore(t, i + 1));
      deepEqual(table.toArray(), before);
      before.forEach((a, i) => {
        deepEqual(
          [table.rewardOf(i), table.jobSeedOf(i), table.failed(i), table.injectedOf(i)],
          [a.reward, a.job_seed, a.status === "failed", a.injected],
        );
        for (const c of ["r_strict", "r_x", "0", "__proto__"]) {
          deepEqual(
            table.componentOf(i, c),
            Object.hasOwn(a.rewards, c) ? a.rewards[c] : undefined,
          );
        }
        deepEqual(table.hasProvenance(i), a.provenance !== null);
      });
      // Attempts given as objects are kept as given.
      const again = AttemptTable.from(before);
      deepEqual(before.every((a, i) => again.get(i) === a), true);
    }),
    { numRuns: 300 },
  );
  // The generator makes lines the fast structural check accepts, as the reader's fast path does.
  deepEqual(
    isTraceLineFast({ split: "v", task_id: "t", sample_id: 0, attempt: 0, status: "failed" }),
    true,
  );
});

Deno.test("AttemptTable: a table posted by a worker and rebuilt is the same table, its strings held with the caller's", () => {
  fc.assert(
    fc.property(fc.array(traceLine, { maxLength: 12 }), fc.array(word), (lines, seen) => {
      const parsed = lines.map((l) => JSON.parse(JSON.stringify(l)) as TraceLine);
      const table = new AttemptTable(new StringIds());
      parsed.forEach((t, i) => table.pushLine(t, i + 1));
      const before = table.toArray();
      const shapes = before.map((_, i) => table.shapeOf(i));
      // What postMessage gives the other thread: a structured clone, the buffers transferred.
      const { transfer, ...posted } = table.posted();
      const received = structuredClone(posted, { transfer: [...transfer] });
      const ids = new StringIds();
      for (const s of seen) ids.id(s);
      const copy = AttemptTable.fromPosted(received, ids);
      deepEqual(copy.toArray(), before);
      deepEqual(before.map((_, i) => copy.shapeOf(i)), shapes);
      before.forEach((a, i) => {
        deepEqual(copy.hasProvenance(i), a.provenance !== null);
        // The caller's own string objects: each one is held once.
        const held = (s: string) => ids.strings[ids.find(s)];
        deepEqual(
          [copy.taskOf(i) === held(a.task_id), copy.get(i).split === held(a.split)],
          [true, true],
        );
        deepEqual(copy.get(i).injected.every((v) => v === held(v)), true);
      });
      // The caller's earlier strings keep their ids; the posted ones come after, in their order.
      deepEqual(ids.strings.slice(0, new Set(seen).size), [...new Set(seen)]);
    }),
    { numRuns: 300 },
  );
});

const assignmentLine: fc.Arbitrary<AssignmentLine> = fc.record({
  split: word,
  task_id: word,
  sample_id: fc.nat(),
  slots: fc.dictionary(word, fc.option(word, { nil: null })),
});

Deno.test("AssignmentTable: each line equals the reader's object, extra keys and __proto__ slots kept whole", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(assignmentLine, fc.boolean(), fc.boolean()), { maxLength: 12 }),
      (lines) => {
        const table = new AssignmentTable();
        const before: unknown[] = [];
        lines.forEach(([line, extra, plain], i) => {
          const value = JSON.parse(JSON.stringify(extra ? { ...line, note: "x" } : line));
          // The reader before the columns: the line spread, its split and task id, then its line.
          before.push({ ...value, split: value.split, task_id: value.task_id, line: i + 1 });
          table.pushLine(value, i + 1, plain);
        });
        table.trim();
        deepEqual(table.toArray(), before);
        lines.forEach(([line], i) => {
          const names = Object.keys(JSON.parse(JSON.stringify(line.slots)));
          deepEqual(table.slotNames(i), names);
          names.forEach((n, p) => {
            deepEqual(table.versionAt(i, p), JSON.parse(JSON.stringify(line.slots))[n]);
          });
        });
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("PlannedMap: the values and entries an EpisodeMap holds, in the order first set", () => {
  const planned = plannedEpisodes({ split: "val", tasks: ["a", "b", "c"], repeats: 2 });
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(5), fc.integer()), { maxLength: 20 }), (sets) => {
      const m = new PlannedMap<number>(planned), e = new EpisodeMap<number>();
      for (const [p, v] of sets) m.setAt(p, v), e.set(planned[p]!, v);
      deepEqual([m.size, [...m.values()], [...m.entries()]], [e.size, [...e.values()], [
        ...e.entries(),
      ]]);
      for (const ep of planned) deepEqual(m.get(ep), e.get(ep));
    }),
  );
});

Deno.test("validateGates: onValidate counts the checks' lines and rows up to their total, once per phase", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 20 });
  const calls: [number, number][] = [];
  const v = await validateGates([fx.gateDir], { onValidate: (d, t) => calls.push([d, t]) });
  deepEqual(v.ok, true);
  // bare attempts 20, masked attempts 20, assignment lines 20, episodes 20, design rows 20, dataset 20.
  deepEqual(calls, [[20, 120], [40, 120], [60, 120], [80, 120], [100, 120], [120, 120]]);
});

Deno.test("parseRunManifest: the value and issues the schema gives, for any task list", () => {
  const base = {
    format: "gatelab.run/v1",
    run_id: "b",
    arm: "bare",
    split: "val",
    repeats: 1,
    provenance: {
      checkpoint_id: "c",
      model: "m",
      endpoint: "e",
      sampling: { temperature: 0, top_p: 1, max_tokens: 9 },
      send_seed: false,
      base_prompt_sha256: "b".repeat(64),
      environment: { name: "n", version: "1", config_sha256: "e".repeat(64) },
      runtime: { protocol: "p", max_steps: 1 },
      reward: { version: "r", components: ["r_strict"] },
    },
    skill: { bank: "NoSkills", selected_skills: [], max_skills: null },
  };
  const task = fc.oneof(word, fc.constant(""), fc.integer(), fc.constant(null));
  fc.assert(
    fc.property(
      fc.oneof(fc.array(task, { maxLength: 6 }), fc.uniqueArray(word), fc.constant("t")),
      fc.boolean(),
      (tasks, broken) => {
        const value = { ...base, ...(broken ? { repeats: 0 } : {}), tasks };
        const copy = () => JSON.parse(JSON.stringify(value));
        deepEqual(
          parseRunManifest(copy(), "m.json"),
          parseWithSchema(RunManifestSchema, copy(), { file: "m.json" }),
        );
      },
    ),
    { numRuns: 300 },
  );
});
