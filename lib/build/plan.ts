/**
 * What a build runs and why: each import's and step's key, the hash of
 * its command, its resolved command line and options, the content of its
 * inputs (files by sha256; an upstream step by its key) and the gatelab
 * code version; and, compared with the build state, the reasons it runs
 * (none: up to date). Pure: the caller reads the files and the outputs.
 *
 * @module
 */
import { sha256Hex } from "../core/sha256.ts";
import type { OutputFingerprint, OutputRecord } from "./state.ts";

/** What the plan needs of an import or step. */
export interface PlanNode {
  /** Its id (its output is `<out>/<id>`). */
  readonly id: string;
  /** The command it runs. */
  readonly command: string;
  /** Its command line, resolved. */
  readonly argv: readonly string[];
  /** Its options (and positionals) as written. */
  readonly options: Readonly<Record<string, string>>;
  /** The ids it reads. */
  readonly upstream: readonly string[];
}

/** What the caller found on disk. */
export interface PlanFacts {
  /** The gatelab code version (lib/core/meta.ts). */
  readonly code: string;
  /** Each node's input files (relative to the study file's directory) to sha256. */
  readonly inputs: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** Each node's output directory now. */
  readonly outputs: ReadonlyMap<string, OutputFingerprint>;
  /** The recorded outputs (the build state). */
  readonly recorded: ReadonlyMap<string, OutputRecord>;
  /** An input file as the user would type it, for reasons. @default the name as recorded */
  readonly shown?: (file: string) => string;
  /** Keys of upstream nodes planned before (not in this call's list). */
  readonly keys?: ReadonlyMap<string, string>;
}

/** One node's plan. */
export interface NodePlan {
  /** sha256 of the record (hex). */
  readonly key: string;
  /** The record to write once it is built (its output filled in then). */
  readonly record: Omit<OutputRecord, "output">;
  /** Why it runs, in a fixed order; empty when it is up to date. */
  readonly reasons: readonly string[];
}

/**
 * Plans every node: its key (upstream keys first, in dependency order) and
 * why it runs: `no output yet`, `output changed` (another command replaced
 * or removed the directory since), `command changed`, `code changed`,
 * `option changed: <names>`, `input changed: <file>`, `upstream rebuilt:
 * <ids>`, `command line changed` (the same options from another
 * directory). A node is up to date when its key is the recorded one and
 * its output is the one recorded.
 *
 * @param nodes The study's nodes; upstream ids name other nodes.
 * @param facts Code version, input hashes, outputs and the build state.
 * @returns Id to plan.
 *
 * @example An input, an option and an upstream change
 * ```ts
 * import { planNodes } from "./plan.ts";
 * import type { OutputRecord } from "./state.ts";
 * import { deepEqual } from "node:assert/strict";
 * const a = { id: "a", command: "analyze", argv: ["analyze", "g", "--out", "o/a"], options: { "<inputs>": "g" }, upstream: [] };
 * const p = { id: "p", command: "plan-power", argv: ["plan-power", "--from", "o/a", "--out", "o/p"], options: { from: "a" }, upstream: ["a"] };
 * const output = { ino: 1, marker_sha256: "m" };
 * const facts = (recorded: Map<string, OutputRecord>, traces = "t1") => ({
 *   code: "v1",
 *   inputs: new Map([["a", { "g/traces.jsonl": traces }], ["p", {}]]),
 *   outputs: new Map([["a", output], ["p", output]]),
 *   recorded,
 * });
 * const first = planNodes([a, p], facts(new Map()));
 * deepEqual(first.get("a")!.reasons, ["not built by gate build yet"]); // an output, no record
 * const recorded = new Map([...first].map(([id, plan]) => [id, { ...plan.record, output }]));
 * deepEqual(planNodes([a, p], facts(recorded)).get("p")!.reasons, []);
 * const p2 = { ...p, argv: [...p.argv, "--sims", "9"], options: { from: "a", sims: "9" } };
 * const again = planNodes([a, p2], facts(recorded, "t2"));
 * deepEqual(again.get("a")!.reasons, ["input changed: g/traces.jsonl"]);
 * deepEqual(again.get("p")!.reasons, ["option changed: sims", "upstream rebuilt: a"]);
 * ```
 */
export function planNodes(
  nodes: readonly PlanNode[],
  facts: PlanFacts,
): Map<string, NodePlan> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const plans = new Map<string, NodePlan>();
  const plan = (id: string): NodePlan => {
    const done = plans.get(id);
    if (done !== undefined) return done;
    const node = byId.get(id)!;
    const upstream = Object.fromEntries(
      node.upstream.map((u) => [u, facts.keys?.get(u) ?? plan(u).key]),
    );
    const record = {
      command: node.command,
      argv: [...node.argv],
      options: sortedRecord(node.options),
      inputs: sortedRecord(facts.inputs.get(id) ?? {}),
      upstream,
      code: facts.code,
    };
    const key = sha256Hex(new TextEncoder().encode(JSON.stringify(record)));
    const result = {
      key,
      record: { key, ...record },
      reasons: reasonsFor(record, key, facts.recorded.get(id), facts.outputs.get(id), facts),
    };
    plans.set(id, result);
    return result;
  };
  for (const n of nodes) plan(n.id);
  return plans;
}

function reasonsFor(
  now: Omit<OutputRecord, "key" | "output">,
  key: string,
  before: OutputRecord | undefined,
  output: OutputFingerprint | undefined,
  facts: PlanFacts,
): string[] {
  if (before === undefined || output === undefined || output.ino === null) {
    return [
      before === undefined && output?.ino != null ? "not built by gate build yet" : "no output yet",
    ];
  }
  const reasons: string[] = [];
  if (output.ino !== before.output.ino || output.marker_sha256 !== before.output.marker_sha256) {
    reasons.push("output changed since the last build");
  }
  if (before.key === key) return reasons;
  if (before.command !== now.command) reasons.push(`command changed: ${before.command}`);
  if (before.code !== now.code) reasons.push("code changed");
  const options = changedKeys(before.options, now.options);
  if (options.length > 0) reasons.push(`option changed: ${options.join(", ")}`);
  const inputs = changedKeys(before.inputs, now.inputs);
  if (inputs.length > 0) {
    const shown = facts.shown ?? ((f: string) => f);
    const more = inputs.length > 1 ? ` and ${inputs.length - 1} more` : "";
    reasons.push(`input changed: ${shown(inputs[0]!)}${more}`);
  }
  const upstream = changedKeys(before.upstream, now.upstream);
  if (upstream.length > 0) reasons.push(`upstream rebuilt: ${upstream.join(", ")}`);
  if (reasons.length === 0) reasons.push("command line changed (run from another directory?)");
  return reasons;
}

/** The names whose values differ (added and removed ones too), sorted. */
function changedKeys(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((n) => a[n] !== b[n]).sort();
}

function sortedRecord(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
  );
}
