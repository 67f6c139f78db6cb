/**
 * The demo's third checkpoint and the files around the history commands:
 * ckpt-c's bare val run and online gate (skill = the pooled ckpt-b
 * selection), a cross-service copy of that gate that fails strict pairing
 * on provenance, a proposal ledger with a re-proposed rejected candidate,
 * and chunks, cards and gold items with planted leaks for the gold
 * firewall. New files only: everything else in data/demo/ stays as it was.
 *
 * @module
 */
import { analyzeDataset } from "../analyze/analyze.ts";
import type { PairedDataset } from "../core/types.ts";
import { type GateSlotSpec, type SimulatedGate, simulateGate } from "./gate.ts";
import type { LatentModel } from "./latent.ts";
import { CHECKPOINTS, GATE_SETTINGS, ONLINE_SLOTS } from "./params.ts";
import { refitDataset, type RefitGate, type RefitRun } from "./refit.ts";
import { type SimulatedRun, simulateRun } from "./run.ts";
import { firewallDemoFiles } from "./firewall_demo.ts";
import {
  CROSS_SERVICE_ENDPOINT,
  GATE_C_BUDGET,
  GATE_C_SLOTS,
  HISTORY_SEEDS,
} from "./history_params.ts";
import type { DemoTask } from "./webshop.ts";

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** What the ckpt-c generator takes from the ckpt-b part of the demo. */
export interface HistoryDemoInput {
  readonly valTasks: readonly DemoTask[];
  readonly bareB: SimulatedRun;
  /** The online rounds at ckpt-b with their gate ids and mask seeds, in order. */
  readonly onlineGates: readonly {
    readonly gateId: string;
    readonly maskSeed: number;
    readonly gate: SimulatedGate;
  }[];
}

function refitGate(
  gateId: string,
  gateDir: string,
  maskSeed: number,
  budgetK: number,
  slots: RefitGate["slots"],
  gate: SimulatedGate,
  tasks: readonly DemoTask[],
): RefitGate {
  return {
    gateId,
    gateDir,
    stage: "online",
    budgetK,
    maskSeed,
    pPresent: GATE_SETTINGS.pPresent,
    slots,
    assignments: gate.rows.map((r) => r.slots),
    taskIds: tasks.map((t) => t.task_id),
    split: "val",
    masked: { runId: `${gateId}-masked`, runDir: gateDir, run: gate.run },
  };
}

/** Rounds over one bare run stacked into one dataset, clustered by task (as `gate analyze` pools). */
function pooled(datasets: readonly PairedDataset[]): PairedDataset {
  const first = datasets[0]!;
  const n = datasets.reduce((s, d) => s + d.n, 0);
  const k = first.k;
  const design = new Uint8Array(n * k);
  const cat = (pick: (d: PairedDataset) => Float64Array) => {
    const out = new Float64Array(n);
    let o = 0;
    for (const d of datasets) out.set(pick(d), (o += d.n) - d.n);
    return out;
  };
  let o = 0;
  for (const d of datasets) {
    design.set(d.design, o * k);
    o += d.n;
  }
  const of = (field: "masked" | "bare" | "delta") =>
    Object.fromEntries(first.metrics.map((m) => [m, cat((d) => d[field][m]!)]));
  return {
    ...first,
    gates: datasets.flatMap((d) => d.gates),
    n,
    design,
    masked: of("masked"),
    bare: of("bare"),
    delta: of("delta"),
    episodes: datasets.flatMap((d) => d.episodes),
    gateIndex: Uint16Array.from(datasets.flatMap((d, g) => Array(d.n).fill(g))),
    cluster: Int32Array.from(datasets.flatMap((d) => [...d.cluster])),
  };
}

/** A gate plan's slots as the refit reads them (no texts). */
function refitSlots(slots: readonly GateSlotSpec[]): RefitGate["slots"] {
  return slots.map((s) => ({
    slot_id: s.slot_id,
    versions: s.versions.map((v) => ({
      version_id: v.version_id,
      chunk_id: v.chunk_id,
      role: v.role,
    })),
  }));
}

/** The product's analysis of ckpt-b's online rounds pooled (its selection is ckpt-c's skill). */
function analyzeCheckpointB(input: HistoryDemoInput): Analysis {
  const bare: RefitRun = { runId: "ckpt-b-val-bare", runDir: "ckpt-b/bare-val", run: input.bareB };
  const slots = refitSlots(ONLINE_SLOTS);
  const datasets = input.onlineGates.map((g) =>
    refitDataset(
      refitGate(
        g.gateId,
        `ckpt-b/${g.gateId}`,
        g.maskSeed,
        GATE_SETTINGS.onlineBudget,
        slots,
        g.gate,
        input.valTasks,
      ),
      bare,
    )
  );
  return analyzeDataset(pooled(datasets), { command: "deno task gen-demo" });
}

/** Checkpoint C's simulated runs, with the files they write. */
interface CheckpointC {
  readonly files: Record<string, string>;
  readonly bare: SimulatedRun;
  readonly gate: SimulatedGate;
}

/**
 * Checkpoint C: the bare val run, the online gate and its cross-service copy
 * (the copy's manifest names another endpoint), in that order of failure seeds.
 */
function simulateCheckpointC(valTasks: readonly DemoTask[]): CheckpointC {
  const files: Record<string, string> = {};
  const texts = new Map<string, string>();
  for (const s of GATE_C_SLOTS) for (const v of s.versions) texts.set(v.version_id, v.text);
  const model: LatentModel = {
    checkpoint: "ckpt-c",
    effects: new Map(GATE_C_SLOTS.flatMap((s) => s.versions.map((v) => [v.version_id, v.effect]))),
    interactions: [],
  };
  let failureSeed: number = HISTORY_SEEDS.failures;
  const bare = simulateRun({
    runId: "ckpt-c-val-bare",
    arm: "bare",
    split: "val",
    checkpoint: "ckpt-c",
    tasks: valTasks,
    skill: { bank: "NoSkills", selected_skills: [], max_skills: null },
    injected: () => [],
    model,
    noiseSeed: HISTORY_SEEDS.bareC,
    failureSeed: failureSeed++,
    textLength: (id) => texts.get(id)?.length ?? 0,
  });
  files["ckpt-c/bare-val/manifest.json"] = bare.manifest;
  files["ckpt-c/bare-val/traces.jsonl"] = bare.traces;
  files["ckpt-c/bare-val/summary.json"] = bare.summary;
  const slots = GATE_C_SLOTS.map((s) => ({ slot_id: s.slot_id, versions: s.versions }));
  const simulate = (gateId: string, maskSeed: number, noiseSeed: number) =>
    simulateGate({
      gateId,
      stage: "online",
      bareRunDir: "../bare-val",
      maskSeed,
      pPresent: GATE_SETTINGS.pPresent,
      budgetK: GATE_C_BUDGET,
      slots,
      split: "val",
      checkpoint: "ckpt-c",
      tasks: valTasks,
      model,
      noiseSeed,
      failureSeed: failureSeed++,
    });
  const gate = simulate("gate-online-c", HISTORY_SEEDS.maskGateC, HISTORY_SEEDS.gateC);
  for (const [name, text] of Object.entries(gate.files)) {
    files[`ckpt-c/gate-online-c/${name}`] = text;
  }
  const cross = simulate(
    "gate-online-c-xsvc",
    HISTORY_SEEDS.maskCrossService,
    HISTORY_SEEDS.crossService,
  );
  for (const [name, text] of Object.entries(cross.files)) {
    let out = text;
    if (name === "manifest.json") {
      const manifest = JSON.parse(text);
      manifest.provenance.endpoint = CROSS_SERVICE_ENDPOINT;
      out = JSON.stringify(manifest, null, 2) + "\n";
    }
    files[`ckpt-c/gate-online-c-xsvc/${name}`] = out;
  }
  return { files, bare, gate };
}

/** The product's analysis of ckpt-c's online gate. */
function analyzeCheckpointC(c: CheckpointC, valTasks: readonly DemoTask[]): Analysis {
  return analyzeDataset(
    refitDataset(
      refitGate(
        "gate-online-c",
        "ckpt-c/gate-online-c",
        HISTORY_SEEDS.maskGateC,
        GATE_C_BUDGET,
        refitSlots(GATE_C_SLOTS),
        c.gate,
        valTasks,
      ),
      { runId: "ckpt-c-val-bare", runDir: "ckpt-c/bare-val", run: c.bare },
    ),
    { command: "deno task gen-demo" },
  );
}

/** The document of ckpt-c/truth.json (format `gatelab.demo-history-truth/v1`). */
function historyTruth(
  input: HistoryDemoInput,
  bSelected: readonly string[],
  cAnalysis: Analysis,
): Record<string, unknown> {
  const skillC = GATE_C_SLOTS.flatMap((s) =>
    s.versions.filter((v) => v.role === "current" || v.role === "old").map((v) => v.version_id)
  );
  return {
    format: "gatelab.demo-history-truth/v1",
    generator: { tool: "gatelab", command: "deno task gen-demo" },
    checkpoint_id: CHECKPOINTS["ckpt-c"],
    seeds: { ...HISTORY_SEEDS },
    steps: [
      { step: 1, gate_dirs: ["ckpt-a/gate-a"] },
      { step: 2, gate_dirs: input.onlineGates.map((g) => `ckpt-b/${g.gateId}`) },
      { step: 3, gate_dirs: ["ckpt-c/gate-online-c"] },
    ],
    lineage: {
      note:
        "ckpt-b's rounds start from 4 current chunks and 2 REWRITE families that are not Gate A's selection S_0 (they carry candidate-comparison.v1 and persona-preference-reasoning.v1, which Gate A did not select, and lack six of S_0), so step 1 -> 2 has lineage gaps; ckpt-c starts from exactly the pooled ckpt-b selection, so step 2 -> 3 is clean",
      ckpt_b_pooled_selection: bSelected,
      ckpt_c_skill: skillC,
    },
    planted: {
      internalizing: "query-formulation",
      retired: "candidate-comparison",
      rewrite_winner: "attribute-matching.v2",
      rewrite_loser: "purchase-termination.v4",
      reproposed: { rejected: "brand-guard.v1", reproposal: "brand-guard.v2" },
      cross_service: {
        gate_dir: "ckpt-c/gate-online-c-xsvc",
        endpoint: CROSS_SERVICE_ENDPOINT,
        issue: "provenance_mismatch on provenance.endpoint",
      },
    },
    latent_effects: Object.fromEntries(
      GATE_C_SLOTS.flatMap((s) => s.versions.map((v) => [v.version_id, [...v.effect]])),
    ),
    refit_selection: {
      selected: [...cAnalysis.selection.selected],
      reward_coefficients: Object.fromEntries(
        cAnalysis.selection.decisions.map((d) => [d.version_id, Math.round(d.alpha * 1e6) / 1e6]),
      ),
    },
  };
}

/**
 * Generates the new history files, keyed by path relative to data/demo/.
 *
 * @param input The ckpt-b bare run and rounds (from the main generator).
 * @returns Path to text.
 */
export function generateHistoryDemo(input: HistoryDemoInput): Record<string, string> {
  const bAnalysis = analyzeCheckpointB(input);
  const c = simulateCheckpointC(input.valTasks);
  const cAnalysis = analyzeCheckpointC(c, input.valTasks);
  const files: Record<string, string> = { ...c.files };
  // The proposal ledger of the online candidates (the fields of docs/analysis.md, "Proposal ledger").
  const ledger = ledgerLines(bAnalysis, cAnalysis);
  files["ledger/ledger.jsonl"] = ledger.map((l) => JSON.stringify(l)).join("\n") + "\n";
  const truth = historyTruth(input, [...bAnalysis.selection.selected], cAnalysis);
  files["ckpt-c/truth.json"] = JSON.stringify(truth, null, 2) + "\n";
  Object.assign(files, firewallDemoFiles());
  return files;
}

type Analysis = ReturnType<typeof analyzeDataset>;

/** Failure mechanism, consolidation cluster and evidence cards of every demo candidate. */
const MECHANISMS: Record<string, { mechanism: string; cluster: string; cards: string[] }> = {
  "size-chart-check.v1": {
    mechanism: "size requested but size chart not mapped",
    cluster: "cl-size",
    cards: ["fc-0112", "fc-0140"],
  },
  "pack-quantity-check.v1": {
    mechanism: "pack count ignored for multi-pack requests",
    cluster: "cl-pack",
    cards: ["fc-0121"],
  },
  "brand-guard.v1": {
    mechanism: "unrequested brand added to the search query",
    cluster: "cl-brand",
    cards: ["fc-0133", "sc-0041"],
  },
  "variant-price-check.v2": {
    mechanism: "default variant price checked instead of the target variant",
    cluster: "cl-variant-price",
    cards: ["fc-0108", "fc-0150"],
  },
  "purchase-termination.v2": {
    mechanism: "browsing continues after every constraint is met",
    cluster: "cl-termination-late",
    cards: ["fc-0117"],
  },
  "purchase-termination.v3": {
    mechanism: "purchase before every constraint is verified",
    cluster: "cl-termination-early",
    cards: ["fc-0118", "fc-0126"],
  },
  "attribute-matching.v2": {
    mechanism: "attribute matched on the title only",
    cluster: "cl-attribute",
    cards: ["fc-0203", "fc-0219"],
  },
  "purchase-termination.v4": {
    mechanism: "step budget spent re-opening the chosen item",
    cluster: "cl-termination-steps",
    cards: ["fc-0224"],
  },
  "unit-price-normalisation.v1": {
    mechanism: "price ceiling compared per pack instead of per unit",
    cluster: "cl-unit-price",
    cards: ["fc-0207"],
  },
  // The planted re-proposal: the rejected brand-guard mechanism comes back at ckpt-c.
  "brand-guard.v2": {
    mechanism: "unrequested brand added to the search query",
    cluster: "cl-brand",
    cards: ["fc-0231"],
  },
};

/** Ledger lines of the ADD and REWRITE candidates at ckpt-b and ckpt-c. */
function ledgerLines(b: Analysis, c: Analysis): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  const add = (analysis: Analysis, checkpoint: string) => {
    const columns = analysis.contributions.columns;
    for (const d of analysis.selection.decisions) {
      if (d.role !== "add" && d.role !== "new") continue;
      const col = columns.find((x) => x.version_id === d.version_id)!;
      const family = d.role === "new" ? d.slot_id : null;
      const m = MECHANISMS[d.version_id]!;
      lines.push({
        candidate_id: d.version_id,
        operation: d.role === "add" ? "ADD" : "REWRITE",
        target_chunk_id: d.role === "new" ? col.chunk_id : null,
        source_card_ids: m.cards,
        failure_mechanism: m.mechanism,
        proposal_checkpoint: checkpoint,
        stage: "online",
        consolidation_cluster_id: m.cluster,
        replacement_family_id: family,
        validation_result: d.status,
        estimated_effect: round4(d.alpha),
        contribution_rank: d.rank,
        notes: null,
      });
    }
  };
  add(b, CHECKPOINTS["ckpt-b"]);
  add(c, CHECKPOINTS["ckpt-c"]);
  return lines;
}
