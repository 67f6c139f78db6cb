/**
 * The dependency graph of a study: what `--only` needs, and the graph as
 * text, Mermaid and DOT for `gate build --graph`.
 *
 * @module
 */
import type { StudyNode } from "./resolve.ts";

/** What the graph needs of a node. */
export type GraphNode = Pick<StudyNode, "id" | "command" | "upstream">;

/**
 * The ids `--only` builds: the ones named and everything they read, in
 * study order.
 *
 * @example
 * ```ts
 * import { withUpstream } from "./graph.ts";
 * import { deepEqual } from "node:assert/strict";
 * const nodes = [
 *   { id: "runs", command: "import table", upstream: [] },
 *   { id: "a", command: "analyze", upstream: ["runs"] },
 *   { id: "b", command: "analyze", upstream: [] },
 *   { id: "p", command: "plan-power", upstream: ["a"] },
 * ];
 * deepEqual(withUpstream(nodes, ["p"]), ["runs", "a", "p"]);
 * ```
 */
export function withUpstream(nodes: readonly GraphNode[], ids: readonly string[]): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const keep = new Set<string>();
  const add = (id: string): void => {
    if (keep.has(id)) return;
    keep.add(id);
    for (const up of byId.get(id)?.upstream ?? []) add(up);
  };
  for (const id of ids) add(id);
  return nodes.filter((n) => keep.has(n.id)).map((n) => n.id);
}

/**
 * The ids that read `id`'s output, directly or through others, in study order.
 *
 * @example
 * ```ts
 * import { downstreamOf } from "./graph.ts";
 * import { deepEqual } from "node:assert/strict";
 * const nodes = [
 *   { id: "a", command: "analyze", upstream: [] },
 *   { id: "p", command: "plan-power", upstream: ["a"] },
 *   { id: "r", command: "report", upstream: ["p"] },
 * ];
 * deepEqual(downstreamOf(nodes, "a"), ["p", "r"]);
 * ```
 */
export function downstreamOf(nodes: readonly GraphNode[], id: string): string[] {
  const reached = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const n of nodes) {
      if (!reached.has(n.id) && n.upstream.some((u) => reached.has(u))) {
        reached.add(n.id);
        grew = true;
      }
    }
  }
  reached.delete(id);
  return nodes.filter((n) => reached.has(n.id)).map((n) => n.id);
}

/**
 * The graph as text: one line per node in study order, with what it reads.
 *
 * @example
 * ```ts
 * import { graphText } from "./graph.ts";
 * import { equal } from "node:assert/strict";
 * const nodes = [
 *   { id: "runs", command: "import table", upstream: [] },
 *   { id: "a", command: "analyze", upstream: ["runs"] },
 * ];
 * equal(graphText(nodes), "import table  runs\nanalyze       a     <- runs\n");
 * ```
 */
export function graphText(nodes: readonly GraphNode[]): string {
  const width = Math.max(...nodes.map((n) => n.command.length));
  const idWidth = Math.max(...nodes.map((n) => n.id.length));
  return nodes.map((n) => {
    const head = `${n.command.padEnd(width)}  ${n.id}`;
    return n.upstream.length === 0
      ? head
      : `${head.padEnd(width + 2 + idWidth)}  <- ${n.upstream.join(", ")}`;
  }).join("\n") + "\n";
}

/**
 * The graph in Mermaid (`flowchart LR`), edges from what is read to what reads it.
 *
 * @example
 * ```ts
 * import { graphMermaid } from "./graph.ts";
 * import { equal } from "node:assert/strict";
 * equal(graphMermaid([{ id: "a", command: "analyze", upstream: [] }, { id: "p", command: "plan-power", upstream: ["a"] }]),
 *   'flowchart LR\n  n0["analyze a"]\n  n1["plan-power p"]\n  n0 --> n1\n');
 * ```
 */
export function graphMermaid(nodes: readonly GraphNode[]): string {
  const key = new Map(nodes.map((n, i) => [n.id, `n${i}`]));
  const lines = ["flowchart LR"];
  for (const n of nodes) lines.push(`  ${key.get(n.id)}["${n.command} ${n.id}"]`);
  for (const n of nodes) {
    for (const u of n.upstream) lines.push(`  ${key.get(u)} --> ${key.get(n.id)}`);
  }
  return lines.join("\n") + "\n";
}

/**
 * The graph in Graphviz DOT.
 *
 * @example
 * ```ts
 * import { graphDot } from "./graph.ts";
 * import { equal } from "node:assert/strict";
 * equal(graphDot("s", [{ id: "a", command: "analyze", upstream: [] }, { id: "p", command: "plan-power", upstream: ["a"] }]),
 *   'digraph "s" {\n  rankdir=LR;\n  "a" [label="analyze a"];\n  "p" [label="plan-power p"];\n  "a" -> "p";\n}\n');
 * ```
 */
export function graphDot(name: string, nodes: readonly GraphNode[]): string {
  const q = (s: string) => JSON.stringify(s);
  const lines = [`digraph ${q(name)} {`, "  rankdir=LR;"];
  for (const n of nodes) lines.push(`  ${q(n.id)} [label=${q(`${n.command} ${n.id}`)}];`);
  for (const n of nodes) for (const u of n.upstream) lines.push(`  ${q(u)} -> ${q(n.id)};`);
  return lines.join("\n") + "\n}\n";
}
