/**
 * Every validation code of docs/FORMAT.md section 5, each triggered by a
 * minimal change to a valid fixture gate (tests/fixtures.ts), and the
 * clean gate passing.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { validateGates } from "../lib/validate/validate_gates.ts";
import {
  addSlots,
  appendLines,
  type FixtureOptions,
  mutateJson,
  mutateJsonl,
  tempDir,
  writeGateFixture,
} from "./fixtures.ts";
import type { Issue } from "../lib/core/issue.ts";

type Fx = Awaited<ReturnType<typeof writeGateFixture>>;

async function check(
  options: FixtureOptions,
  mutate: (fx: Fx) => Promise<void>,
): Promise<{ counts: Record<string, number>; issues: readonly Issue[] }> {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, options);
  await mutate(fx);
  const v = await validateGates([fx.gateDir]);
  deepEqual(v.dataset === null, !v.ok);
  return { counts: v.counts, issues: v.issues };
}

const masked = (fx: Fx) => join(fx.gateDir, "traces.jsonl");
const bare = (fx: Fx) => join(fx.bareDir, "traces.jsonl");

Deno.test("a clean gate passes, failed-then-completed attempts included", async () => {
  const r = await check({ failedFirst: [0, 3] }, async () => {});
  deepEqual(r.counts, {});
});

Deno.test("parse_error names file and line; the lost episode is also uncovered", async () => {
  const r = await check(
    {},
    (fx) => mutateJsonl(masked(fx), (o, line) => (line === 3 ? "{not json" : o)),
  );
  deepEqual(r.counts, { coverage_incomplete: 1, parse_error: 1 });
  const issue = r.issues.find((i) => i.code === "parse_error")!;
  deepEqual([issue.file, issue.line], [
    masked({ gateDir: "" } as Fx).replace(/^/, "") && issue.file,
    3,
  ]);
  ok(issue.file!.endsWith("gate/traces.jsonl"));
});

Deno.test("schema_error carries file, line and field path", async () => {
  const r = await check(
    {},
    (fx) => mutateJsonl(masked(fx), (o, line) => (line === 2 ? { ...o, sample_id: "zero" } : o)),
  );
  deepEqual(r.counts, { coverage_incomplete: 1, schema_error: 1 });
  const issue = r.issues.find((i) => i.code === "schema_error")!;
  deepEqual([issue.line, issue.path], [2, "sample_id"]);
  ok(issue.file!.endsWith("traces.jsonl"));
});

Deno.test("schema_error in manifest.json names the nested field", async () => {
  const r = await check({}, (fx) =>
    mutateJson(join(fx.gateDir, "manifest.json"), (m) => {
      delete m.provenance.environment.version;
      m.provenance.checkpoint_id = "";
    }));
  deepEqual(r.counts, { schema_error: 2 });
  deepEqual(r.issues.map((i) => i.path).sort(), [
    "provenance.checkpoint_id",
    "provenance.environment.version",
  ]);
});

Deno.test("unknown extra fields are accepted everywhere", async () => {
  const r = await check({}, async (fx) => {
    await mutateJson(join(fx.gateDir, "gate.json"), (g) => {
      g.notes = "x";
      g.slots[0].extra = 1;
    });
    await mutateJson(join(fx.bareDir, "manifest.json"), (m) => {
      m.host = "n1";
    });
    await mutateJsonl(masked(fx), (o) => ({ ...o, latency_ms: 12 }));
    await mutateJsonl(join(fx.gateDir, "assignments.jsonl"), (o) => ({ ...o, note: "x" }));
  });
  deepEqual(r.counts, {});
});

Deno.test("bare_not_skill_free: a skill bank in the bare run", async () => {
  const r = await check({}, (fx) =>
    mutateJson(join(fx.bareDir, "manifest.json"), (m) => {
      m.skill.bank = "bank-v1";
      m.skill.selected_skills = ["c1"];
    }));
  deepEqual(r.counts, { bare_not_skill_free: 2 });
  deepEqual(r.issues.map((i) => i.path), ["skill.bank", "skill.selected_skills"]);
});

Deno.test("bare_not_skill_free: a masked run that happened to draw no chunk is not bare", async () => {
  // pPresent 0: every mask is all-zero; a copy of the gate's own masked run serves as the
  // "bare" run (naming the gate directory itself is refused earlier, as provenance_mismatch).
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { pPresent: 0 });
  const copy = join(dir.path, "masked-as-bare");
  await Deno.mkdir(copy);
  for await (const entry of Deno.readDir(fx.gateDir)) {
    if (entry.isFile) await Deno.copyFile(join(fx.gateDir, entry.name), join(copy, entry.name));
  }
  await mutateJson(join(fx.gateDir, "gate.json"), (g) => {
    g.bare_run_dir = "../masked-as-bare";
  });
  const v = await validateGates([fx.gateDir]);
  ok((v.counts["bare_not_skill_free"] ?? 0) >= 2);
  ok(v.issues.some((i) => i.code === "bare_not_skill_free" && i.path === "arm"));
});

Deno.test("bare_not_skill_free: a bare attempt that injected something", async () => {
  const r = await check(
    {},
    (fx) => mutateJsonl(bare(fx), (o, line) => (line === 4 ? { ...o, injected: ["c1"] } : o)),
  );
  deepEqual(r.counts, { bare_not_skill_free: 1 });
  deepEqual(r.issues[0]!.line, 4);
});

Deno.test("coverage_incomplete: a planned episode without completed attempt, in either arm", async () => {
  const r = await check({}, async (fx) => {
    await mutateJsonl(masked(fx), (o, line) => (line === 5 ? null : o));
    await mutateJsonl(
      bare(fx),
      (o, line) => (line === 6 ? { ...o, status: "failed", reward: null, rewards: {} } : o),
    );
  });
  deepEqual(r.counts, { coverage_incomplete: 2 });
  deepEqual(r.issues.map((i) => i.episode), ["val/t005/0", "val/t004/0"]);
  ok(r.issues[0]!.message.includes("1 failed attempt only"));
  ok(r.issues[1]!.message.includes("no attempt at all"));
});

Deno.test("unplanned_episode: a trace outside tasks x sample ids", async () => {
  const r = await check({}, async (fx) => {
    const line = JSON.parse((await Deno.readTextFile(masked(fx))).split("\n")[0]!);
    await appendLines(masked(fx), { ...line, task_id: "t999" }, { ...line, sample_id: 1 });
  });
  deepEqual(r.counts, { unplanned_episode: 2 });
  deepEqual(r.issues.map((i) => [i.line, i.episode]), [[21, "val/t999/0"], [22, "val/t000/1"]]);
});

Deno.test("duplicate_completed: two completed attempts for one episode", async () => {
  const r = await check({}, async (fx) => {
    const line = JSON.parse((await Deno.readTextFile(bare(fx))).split("\n")[2]!);
    await appendLines(bare(fx), "", { ...line, attempt: 1 });
  });
  deepEqual(r.counts, { duplicate_completed: 1 });
  deepEqual([r.issues[0]!.line, r.issues[0]!.episode], [22, "val/t002/0"]);
  ok(r.issues[0]!.message.includes("first at line 3"));
});

Deno.test("provenance_mismatch names the field and both values", async () => {
  const r = await check({}, (fx) =>
    mutateJson(join(fx.gateDir, "manifest.json"), (m) => {
      m.provenance.sampling.temperature = 1.0;
      m.provenance.checkpoint_id = "ckpt-other";
      m.provenance.environment.version = "1.0.1";
      m.provenance.reward.components = ["r_strict"];
    }));
  deepEqual(r.counts, { provenance_mismatch: 4 });
  deepEqual(r.issues.map((i) => i.message), [
    'provenance.checkpoint_id differs: bare "ckpt-fixture", masked "ckpt-other"',
    "provenance.sampling.temperature differs: bare 0.7, masked 1",
    'provenance.environment.version differs: bare "1.0.0", masked "1.0.1"',
    'provenance.reward.components differs: bare ["r_strict","r_success"], masked ["r_strict"]',
  ]);
});

Deno.test("provenance_mismatch: per-attempt provenance disagreeing with its manifest", async () => {
  const r = await check(
    {},
    (fx) =>
      mutateJsonl(
        masked(fx),
        (o, line) =>
          line === 7
            ? { ...o, provenance: { environment: { version: "2.0.0" }, host: "node-3" } }
            : { ...o, provenance: { environment: { version: "1.0.0" } } },
      ),
  );
  deepEqual(r.counts, { provenance_mismatch: 1 });
  deepEqual([r.issues[0]!.line, r.issues[0]!.path], [7, "provenance.environment.version"]);
  deepEqual(
    r.issues[0]!.message,
    'provenance.environment.version differs: attempt "2.0.0", manifest "1.0.0"',
  );
});

Deno.test("provenance_mismatch: different task plans", async () => {
  const r = await check({}, async (fx) => {
    await mutateJson(join(fx.gateDir, "manifest.json"), (m) => {
      m.tasks = m.tasks.slice(1);
    });
    await mutateJsonl(masked(fx), (o) => (o.task_id === "t000" ? null : o));
    await mutateJsonl(
      join(fx.gateDir, "assignments.jsonl"),
      (o) => (o.task_id === "t000" ? null : o),
    );
  });
  deepEqual(r.counts, { provenance_mismatch: 1 });
  deepEqual(
    r.issues[0]!.message,
    "tasks differ: bare plans 20 tasks, masked 19; 1 only in bare (t000)",
  );
});

Deno.test("seed_mismatch only when send_seed is on", async () => {
  const edit = (fx: Fx) =>
    mutateJsonl(masked(fx), (o, line) => (line === 1 ? { ...o, job_seed: 5 } : o));
  const on = await check({ sendSeed: true }, edit);
  deepEqual(on.counts, { seed_mismatch: 1 });
  ok(on.issues[0]!.message.includes("bare 1000 (line 1), masked 5"));
  const off = await check({ sendSeed: false }, edit);
  deepEqual(off.counts, {});
});

Deno.test("injection_mismatch: injected versions differ from the assignment", async () => {
  const r = await check(
    {},
    (fx) =>
      mutateJsonl(
        masked(fx),
        (o, line) => (line === 1 ? { ...o, injected: ["c1", "c2", "c3", "c4"] } : o),
      ),
  );
  deepEqual(r.counts, { injection_mismatch: 1 });
  deepEqual([r.issues[0]!.line, r.issues[0]!.path], [1, "injected"]);
});

Deno.test("reward_incomplete: missing component, null reward, non-finite value", async () => {
  const r = await check({}, async (fx) => {
    await mutateJsonl(masked(fx), (o, line) => {
      if (line === 1) return { ...o, rewards: { r_strict: o.reward } };
      if (line === 2) return { ...o, reward: null };
      if (line === 3) return JSON.stringify(o).replace(/"r_success":[^,}]+/, '"r_success":1e999');
      return o;
    });
  });
  deepEqual(r.counts, { reward_incomplete: 3 });
  deepEqual(r.issues.map((i) => [i.line, i.path]), [[1, "rewards.r_success"], [2, "reward"], [
    3,
    "rewards.r_success",
  ]]);
});

Deno.test("reward_not_strict: reward differs from rewards.r_strict", async () => {
  const r = await check(
    {},
    (fx) => mutateJsonl(bare(fx), (o, line) => (line === 2 ? { ...o, reward: o.reward + 0.1 } : o)),
  );
  deepEqual(r.counts, { reward_not_strict: 1 });
});

Deno.test("assignment_invalid: unknown slot, foreign version, unassigned slot, missing and duplicate lines", async () => {
  const r = await check({}, async (fx) => {
    const file = join(fx.gateDir, "assignments.jsonl");
    await mutateJsonl(file, (o, line) => {
      if (line === 1) return { ...o, slots: { ...o.slots, s9: null } };
      if (line === 2) return { ...o, slots: { ...o.slots, s1: "c2" } };
      if (line === 3) {
        const slots = { ...o.slots };
        delete slots.s4;
        return { ...o, slots };
      }
      if (line === 4) return null;
      return o;
    });
    const first = JSON.parse((await Deno.readTextFile(file)).split("\n")[5]!);
    await appendLines(file, first);
  });
  // Injections are compared only with valid assignments, so none follows here.
  deepEqual(r.counts, { assignment_invalid: 5 });
  deepEqual(r.issues.map((i) => [i.line ?? null, i.path ?? null]), [
    [1, "slots.s9"],
    [2, "slots.s1"],
    [3, "slots.s4"],
    [20, null],
    [null, null],
  ]);
});

Deno.test("family_invalid: two olds; several adds in one slot; a lone new", async () => {
  const slots = [
    {
      slot_id: "f",
      versions: [{ version_id: "o1", role: "old" as const }, {
        version_id: "o2",
        role: "old" as const,
      }],
    },
    {
      slot_id: "g",
      versions: [{ version_id: "a1", role: "add" as const }, {
        version_id: "a2",
        role: "add" as const,
      }],
    },
    { slot_id: "h", versions: [{ version_id: "n1", role: "new" as const }] },
    {
      slot_id: "k",
      versions: [{ version_id: "o3", role: "old" as const }, {
        version_id: "n3",
        role: "new" as const,
      }],
    },
  ];
  const r = await check({ slots, tasks: 40 }, async () => {});
  deepEqual(r.counts, { family_invalid: 3 });
  deepEqual(r.issues.map((i) => i.path), ["slots.0", "slots.1", "slots.2"]);
});

Deno.test("dimension_cap: more than 16 columns in a cold-start gate, not online", async () => {
  const cold = await check({ slots: addSlots(17), tasks: 80 }, async () => {});
  deepEqual(cold.counts, { dimension_cap: 1 });
  const online = await check({ slots: addSlots(17), tasks: 80, stage: "online" }, async () => {});
  deepEqual(online.counts, {});
});

Deno.test("budget_invalid: budget_k outside 1..columns", async () => {
  deepEqual((await check({ budgetK: 0 }, async () => {})).counts, { budget_invalid: 1 });
  deepEqual((await check({ budgetK: 5 }, async () => {})).counts, { budget_invalid: 1 });
  deepEqual((await check({ budgetK: 4 }, async () => {})).counts, {});
});

Deno.test("not_identifiable: a column never present", async () => {
  const r = await check({}, async (fx) => {
    await mutateJsonl(
      join(fx.gateDir, "assignments.jsonl"),
      (o) => ({ ...o, slots: { ...o.slots, s2: null } }),
    );
    await mutateJsonl(
      masked(fx),
      (o) => ({ ...o, injected: o.injected.filter((v: string) => v !== "c2") }),
    );
  });
  deepEqual(r.counts, { not_identifiable: 2 });
  deepEqual(r.issues.map((i) => i.message), [
    "version c2 is never present in 20 rows; its coefficient cannot be estimated",
    "design matrix has rank 3 of 4 columns (20 rows): c2 is never present",
  ]);
});

Deno.test("not_identifiable: an always-present family collinear with an always-present chunk", async () => {
  const slots = [
    {
      slot_id: "f",
      versions: [{ version_id: "o", role: "old" as const }, {
        version_id: "n",
        role: "new" as const,
      }],
    },
    { slot_id: "s", versions: [{ version_id: "c", role: "current" as const }] },
  ];
  const r = await check({ slots, pPresent: 1, budgetK: 1 }, async () => {});
  deepEqual(r.counts, { not_identifiable: 1 });
  // o and n are never both present and one of them always is: o + n = c in every row.
  deepEqual(
    r.issues[0]!.message,
    "design matrix has rank 2 of 3 columns (20 rows): o + n = c in every row; their effects " +
      "cannot be told apart",
  );
});

Deno.test("io_error: a missing gate directory", async () => {
  const v = await validateGates(["/nonexistent/gate-dir"]);
  deepEqual(v.counts, { io_error: 4 });
});

Deno.test("issues are capped per code with a count of the rest", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 30 });
  await mutateJsonl(masked(fx), (o) => ({ ...o, reward: o.reward + 1 }));
  const v = await validateGates([fx.gateDir], { capPerCode: 10 });
  deepEqual(v.counts, { reward_not_strict: 30 });
  deepEqual(v.issues.length, 11);
  deepEqual(v.issues[10]!.message, "20 more reward_not_strict issues not listed");
});
