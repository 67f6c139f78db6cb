/**
 * The dataset builder (lib/validate/paired_dataset.ts) on in-memory runs:
 * design rows, masked, bare and delta values per metric, gates and
 * clusters, against values worked out by hand (exact binary fractions).
 */
import { deepEqual } from "node:assert/strict";
import { buildPairedDataset, type PairedDatasetInput } from "../lib/validate/paired_dataset.ts";
import type { Attempt } from "../lib/core/types.ts";
import { attempt, episode } from "./validate_units.ts";
import { EpisodeMap } from "../lib/validate/episode_map.ts";

/** A run's completed attempts by episode, as validation indexes them. */
const completedOf = (attempts: readonly Attempt[]) =>
  new EpisodeMap(attempts.filter((a) => a.status === "completed").map((a) => [a, a] as const));

const columns = [
  { version_id: "c1", slot_id: "s1", chunk_id: "k1", role: "add" as const },
  { version_id: "o", slot_id: "f", chunk_id: "k2", role: "old" as const },
  { version_id: "n", slot_id: "f", chunk_id: "k2b", role: "new" as const },
];
const scored = (task_id: string, line: number, reward: number, r_type: number): Attempt =>
  attempt(task_id, line, { reward, rewards: { r_strict: reward, r_type } });
const bareManifest = {
  run_id: "bare-1",
  provenance: { reward: { components: ["r_strict", "r_type"] } },
};
const plan = (gate_id: string) => ({
  gate_id,
  stage: "online" as const,
  budget_k: 2,
  mask_seed: 3,
  p_present: 0.5,
});

function input(): PairedDatasetInput {
  const bare = [
    scored("t0", 1, 0.5, 0.5),
    scored("t1", 2, 0.25, 1),
    scored("t2", 3, 1, 1),
    scored("t3", 4, 0, 0.25),
  ];
  const masked = [
    scored("t3", 1, 0.125, 0.5),
    attempt("t2", 2, { status: "failed", reward: null }),
    scored("t0", 3, 0.75, 0.5),
    scored("t1", 4, 0.25, 0.75),
    scored("t2", 5, 0.5, 1),
  ];
  return {
    bare: {
      dir: "runs/bare",
      sha256: "ab".repeat(32),
      manifest: bareManifest,
      completed: new EpisodeMap(bare.map((a) => [episode(a.task_id), a])),
    },
    gates: [{
      dir: "runs/gate",
      plan: plan("hand"),
      masked: { run_id: "masked-1", sha256: "cd".repeat(32), completed: completedOf(masked) },
    }],
    columns,
    rows: [["c1"], ["o"], ["c1", "n"], []].map((mask, i) => ({
      gate: 0,
      episode: episode(`t${i}`),
      mask,
    })),
  };
}

Deno.test("paired dataset: design, values and deltas of every metric, worked out by hand", () => {
  const d = buildPairedDataset(input());
  deepEqual([d.n, d.k, d.metrics], [4, 3, ["reward", "r_strict", "r_type"]]);
  deepEqual([...d.design], [1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0]);
  deepEqual([...d.masked["reward"]!], [0.75, 0.25, 0.5, 0.125]);
  deepEqual([...d.bare["reward"]!], [0.5, 0.25, 1, 0]);
  deepEqual([...d.delta["reward"]!], [0.25, 0, -0.5, 0.125]);
  deepEqual([...d.delta["r_strict"]!], [0.25, 0, -0.5, 0.125]);
  deepEqual([...d.delta["r_type"]!], [0, -0.25, 0, 0.25]);
  deepEqual(d.episodes.map((e) => e.task_id), ["t0", "t1", "t2", "t3"]);
  deepEqual([[...d.gateIndex], [...d.cluster], d.clusterCount], [[0, 0, 0, 0], [0, 1, 2, 3], 4]);
  deepEqual(d.baseline, { run_id: "bare-1", run_dir: "runs/bare", sha256: "ab".repeat(32) });
  deepEqual(d.gates, [{
    gate_id: "hand",
    gate_dir: "runs/gate",
    stage: "online",
    budget_k: 2,
    mask_seed: 3,
    p_present: 0.5,
    masked: { run_id: "masked-1", run_dir: "runs/gate", sha256: "cd".repeat(32) },
  }]);
});

Deno.test("paired dataset: pooled gates number rows by gate; one task in two gates is one cluster", () => {
  const one = input();
  const second = [scored("t0", 1, 1, 1), scored("t1", 2, 0, 0)];
  const d = buildPairedDataset({
    ...one,
    gates: [...one.gates, {
      dir: "runs/gate2",
      plan: plan("second"),
      masked: { run_id: "masked-2", sha256: "ef".repeat(32), completed: completedOf(second) },
    }],
    rows: [
      ...one.rows,
      { gate: 1, episode: episode("t1"), mask: ["o", "c1"] },
      { gate: 1, episode: episode("t0"), mask: [] },
    ],
  });
  deepEqual([d.n, [...d.gateIndex], [...d.cluster], d.clusterCount], [
    6,
    [0, 0, 0, 0, 1, 1],
    [0, 1, 2, 3, 1, 0],
    4,
  ]);
  deepEqual([...d.design.slice(12)], [1, 1, 0, 0, 0, 0]);
  // Gate 2 rows: t1 masked 0 - bare 0.25, t0 masked 1 - bare 0.5.
  deepEqual([...d.delta["reward"]!.slice(4)], [-0.25, 0.5]);
  deepEqual(d.gates.map((g) => g.gate_id), ["hand", "second"]);
});
