/**
 * Two checkpoints for the pooled-checkpoints tests: `ckA` is the demo's
 * checkpoint A (data/demo/ckpt-a: bare-val and gate-a) copied as it is;
 * `ckB` is the same files under another checkpoint id, run ids and gate id,
 * with its bare run's completed outcomes (reward, rewards, success) rotated
 * by one completed line, so every task's bare reward differs from ckA's
 * while each run stays valid. Each gate's bare run is its own `../bare-val`.
 */
import { join } from "node:path";
import { DEMO } from "./gate_process.ts";

/** The checkpoint id of ckA (the demo's) and the one ckB gets. */
export const CHECKPOINT_A = "qwen3.5-4b-sft@rev-8d2f1c0";
export const CHECKPOINT_B = "qwen3.5-4b-sft@rev-b2b2b2b";

const FILES = {
  "bare-val": ["manifest.json", "summary.json", "traces.jsonl"],
  "gate-a": ["assignments.jsonl", "gate.json", "manifest.json", "summary.json", "traces.jsonl"],
} as const;

/**
 * Writes `<root>/ckA/{bare-val,gate-a}` and `<root>/ckB/{bare-val,gate-a}`.
 *
 * @param root An existing directory.
 * @returns The two gate directories.
 */
export async function writeTwoCheckpoints(root: string): Promise<{ a: string; b: string }> {
  for (const [ck, change] of [["ckA", false], ["ckB", true]] as const) {
    for (const [dir, files] of Object.entries(FILES)) {
      await Deno.mkdir(join(root, ck, dir), { recursive: true });
      for (const file of files) {
        let text = await Deno.readTextFile(join(DEMO, "ckpt-a", dir, file));
        if (change) {
          text = text.replaceAll(CHECKPOINT_A, CHECKPOINT_B)
            .replaceAll("ckpt-a-val-bare", "ckpt-b2-val-bare")
            .replaceAll('"gate-a', '"gate-b2');
          if (dir === "bare-val" && file === "traces.jsonl") text = rotateOutcomes(text);
        }
        await Deno.writeTextFile(join(root, ck, dir, file), text);
      }
    }
  }
  return { a: join(root, "ckA", "gate-a"), b: join(root, "ckB", "gate-a") };
}

/** The completed lines' outcomes moved one completed line on (the last to the first). */
function rotateOutcomes(text: string): string {
  const lines = text.split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l));
  const completed = lines.filter((l) => l.status === "completed");
  const outcomes = completed.map((l) => [l.reward, l.rewards, l.success]);
  completed.forEach((l, i) => {
    [l.reward, l.rewards, l.success] = outcomes[(i + outcomes.length - 1) % outcomes.length]!;
  });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}
