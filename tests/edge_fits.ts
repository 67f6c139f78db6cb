/**
 * Gates at the edge of estimation, made from the demo's Gate A
 * (data/demo/ckpt-a) for tests/analyze_estimability_test.ts:
 *
 * - `writeLoneVersion`: review-reading.v1 is present in row 0 only
 *   (ws-val-0000's assignment and injected list gain it, every other row
 *   loses it), so row 0 has leverage 1 and the version's variance is not
 *   estimable (scripts/reference/estimability_lone.py rebuilds the same).
 * - `writeSquareGate`: the gate cut to the first 14 tasks whose rows raise
 *   the design's rank, so n = k = 14 and no residual degree of freedom is left.
 */
import { join } from "node:path";
import { DEMO } from "./gate_process.ts";

const LONE = "review-reading.v1";
const FILES = {
  "bare-val": ["manifest.json", "traces.jsonl"],
  "gate-a": ["assignments.jsonl", "gate.json", "manifest.json", "traces.jsonl"],
} as const;
type Line = Record<string, unknown> & { task_id: string };

async function copyGate(
  root: string,
  edit: (dir: string, file: string, text: string) => string,
): Promise<string> {
  for (const [dir, files] of Object.entries(FILES)) {
    await Deno.mkdir(join(root, dir), { recursive: true });
    for (const file of files) {
      const text = await Deno.readTextFile(join(DEMO, "ckpt-a", dir, file));
      await Deno.writeTextFile(join(root, dir, file), edit(dir, file, text));
    }
  }
  return join(root, "gate-a");
}

const lines = (text: string): Line[] =>
  text.split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l));
const unlines = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** Writes `<root>/{bare-val,gate-a}` with review-reading.v1 in row 0 only; returns the gate. */
export function writeLoneVersion(root: string): Promise<string> {
  return copyGate(root, (dir, file, text) => {
    if (dir !== "gate-a") return text;
    if (file === "assignments.jsonl") {
      return unlines(
        lines(text).map((a, i) => ({
          ...a,
          slots: { ...(a.slots as object), "review-reading": i === 0 ? LONE : null },
        })),
      );
    }
    if (file === "traces.jsonl") {
      return unlines(
        lines(text).map((t) => {
          const injected = (t.injected as string[]).filter((v) => v !== LONE);
          return { ...t, injected: t.task_id === "ws-val-0000" ? [...injected, LONE] : injected };
        }),
      );
    }
    return text;
  });
}

/** Writes `<root>/{bare-val,gate-a}` cut to 14 tasks with a full-rank 14 x 14 design. */
export async function writeSquareGate(root: string): Promise<string> {
  const gate = JSON.parse(await Deno.readTextFile(join(DEMO, "ckpt-a", "gate-a", "gate.json")));
  const versions: string[] = gate.slots.flatMap((s: { versions: { version_id: string }[] }) =>
    s.versions.map((v) => v.version_id)
  );
  const assignments = lines(
    await Deno.readTextFile(join(DEMO, "ckpt-a", "gate-a", "assignments.jsonl")),
  );
  // Greedy Gram-Schmidt: keep a row when it is independent of the rows kept.
  const basis: number[][] = [];
  const keep = new Set<string>();
  for (const a of assignments) {
    if (basis.length === versions.length) break;
    const present = new Set(Object.values(a.slots as Record<string, string | null>));
    let v = versions.map((id) => (present.has(id) ? 1 : 0) as number);
    for (const b of basis) {
      const dot = v.reduce((s, x, i) => s + x * b[i]!, 0);
      v = v.map((x, i) => x - dot * b[i]!);
    }
    const norm = Math.hypot(...v);
    if (norm < 1e-9) continue;
    basis.push(v.map((x) => x / norm));
    keep.add(a.task_id);
  }
  return copyGate(root, (_dir, file, text) => {
    if (file === "manifest.json") {
      const m = JSON.parse(text);
      return JSON.stringify({ ...m, tasks: m.tasks.filter((t: string) => keep.has(t)) }, null, 2);
    }
    if (file.endsWith(".jsonl")) return unlines(lines(text).filter((l) => keep.has(l.task_id)));
    return text;
  });
}
