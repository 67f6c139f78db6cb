/**
 * The import builds trace and assignment lines from precomputed pieces
 * instead of JSON.stringify per row (lib/import/build.ts); the bytes must
 * be what JSON.stringify writes for the line's object. The reference here
 * is JSON.stringify itself, of objects written out by hand in the order
 * docs/FORMAT.md gives the trace fields, including the cases where the
 * piecewise writer must step aside: an extra column named like an array
 * index (JSON puts such keys first), one named like a contract field (kept
 * as `<name>_column`) beside a real `<name>_column` column, non-finite and
 * negative-zero numbers, non-ASCII and quoted text, nested values.
 */
import { deepEqual } from "node:assert/strict";
import { buildImport } from "../lib/import/build.ts";
import { DEFAULT_MAPPING } from "../lib/import/mapping.ts";
import type { ImportRow } from "../lib/import/rows.ts";

function row(over: Partial<ImportRow> & Pick<ImportRow, "row" | "task_id" | "arm">): ImportRow {
  return {
    file: "t.jsonl",
    split: "val",
    sample_id: 0,
    round: null,
    checkpoint_id: "c1",
    attempt: null,
    status: "completed",
    reward: 0.5,
    rewards: { r_strict: 0.5 },
    job_seed: null,
    injected: null,
    mask: null,
    error: null,
    extra: {},
    ...over,
  };
}

const text = (v: string | readonly string[] | undefined) =>
  v === undefined ? [] : (typeof v === "string" ? v : v.join("")).split("\n").slice(0, -1);

Deno.test("trace and assignment lines are the bytes JSON.stringify writes", () => {
  const extras: Record<string, unknown>[] = [
    { note: 'say "hi" é', score: -0, nested: { a: [1, "x"], b: null } },
    { "7": 1, note: "index key" },
    { reward: 3, reward_column: 4 },
    { note: null, flag: true },
    // No extra column, no job seed, no error, no components on the bare row: the short path.
    {},
  ];
  const rows: ImportRow[] = [];
  extras.forEach((extra, t) => {
    const id = `t${t}\u00e9${t === 1 || t === 4 ? '"\\\u{1F600}' : ""}`;
    const mask = { "a.v1": 0, "b.v1": 0 } as const;
    rows.push(row({
      row: 2 * t + 1,
      task_id: id,
      arm: "bare",
      mask,
      extra,
      ...(t === 4 ? { rewards: {}, status: "failed" as const, reward: null } : {}),
    }));
    rows.push(row({
      row: 2 * t + 2,
      task_id: id,
      arm: "masked",
      mask: { "a.v1": (t & 1) as 0 | 1, "b.v1": ((t >> 1) & 1) as 0 | 1 },
      reward: t === 3 ? 1e21 : 0.1 + t,
      rewards: { r_strict: 0.1 + t, r_x: 1 / 3 },
      job_seed: t === 4 ? null : 7,
      error: t === 2 ? "a\nb" : null,
      extra,
    }));
  });
  const built = buildImport(rows, DEFAULT_MAPPING, {
    components: ["r_strict", "r_x"],
    maskVersions: ["a.v1", "b.v1"],
  });
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  const files = built.value.files;
  const expected = (r: ImportRow, attempt: number, injected: string[]) => {
    const line: Record<string, unknown> = {
      split: r.split,
      task_id: r.task_id,
      sample_id: r.sample_id,
      attempt,
      status: r.status,
      reward: r.reward,
      rewards: r.rewards,
      injected,
      job_seed: r.job_seed,
      error: r.error,
    };
    const contract = new Set(Object.keys(line));
    for (const [k, v] of Object.entries(r.extra)) line[contract.has(k) ? `${k}_column` : k] = v;
    return JSON.stringify(line);
  };
  const present = (r: ImportRow) => ["a.v1", "b.v1"].filter((v) => r.mask![v] === 1);
  deepEqual(
    text(files["c1/bare-val/traces.jsonl"]),
    rows.filter((r) => r.arm === "bare").map((r) => expected(r, 0, [])),
  );
  deepEqual(
    text(files["c1/gate/traces.jsonl"]),
    rows.filter((r) => r.arm === "masked").map((r) => expected(r, 0, present(r))),
  );
  deepEqual(
    text(files["c1/gate/assignments.jsonl"]),
    rows.filter((r) => r.arm === "masked").map((r) =>
      JSON.stringify({
        split: "val",
        task_id: r.task_id,
        sample_id: 0,
        slots: { a: r.mask!["a.v1"] ? "a.v1" : null, b: r.mask!["b.v1"] ? "b.v1" : null },
      })
    ),
  );
});
