/**
 * The main tidy table of heldout (`splits`), plan-power (`mde`) and
 * compare (`comparison`), as CSV and Parquet beside their JSON: every value
 * equal to the JSON's, bit for bit (Object.is), read back by
 * tests/tidy_read.ts (its own CSV parser, parquet-wasm), on the demo.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { quiet, tempDir } from "./fixtures.ts";
import { readCsvColumns, readParquetColumns } from "./tidy_read.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let cached: Promise<string> | null = null;
function outputs(): Promise<string> {
  cached ??= (async () => {
    const root = await Deno.makeTempDir({ prefix: "gatelab-cmd-tables-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));
    const steps = [
      ["analyze", "data/demo/ckpt-a/gate-a", "--out", `${root}/gate-a`, "--bootstrap", "0"],
      [
        "heldout",
        "data/demo/ckpt-a/gate-a",
        "--plan",
        "data/plans/heldout-kfold5.json",
        "--out",
        `${root}/heldout`,
      ],
      ["plan-power", "--from", `${root}/gate-a`, "--sims", "100", "--out", `${root}/power`],
      [
        "compare",
        "--bare",
        "data/demo/gate-b/bare-test",
        "--equipped",
        "data/demo/gate-b/equipped-test",
        "--selection",
        `${root}/gate-a/selection.json`,
        "--bootstrap",
        "100",
        "--out",
        `${root}/gate-b`,
      ],
    ];
    for (const args of steps) deepEqual(await quiet(() => main([...args, "--quiet"])), 0, args[0]);
    return root;
  })();
  return cached;
}

/** Both files of a table as columns; `numeric` columns as numbers in the CSV, lists parsed. */
async function both(
  dir: string,
  name: string,
  numeric: readonly string[],
  lists: readonly string[] = [],
) {
  const csv = await readCsvColumns(join(dir, `${name}.csv`), numeric);
  for (const l of lists) csv[l] = csv[l]!.map((t) => JSON.parse(t as string));
  const { columns: parquet } = await readParquetColumns(join(dir, `${name}.parquet`));
  deepEqual(Object.keys(csv), Object.keys(parquet));
  return [csv, parquet] as const;
}

function sameBits(actual: readonly unknown[], expected: readonly unknown[], what: string): void {
  deepEqual(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    const [a, e] = [actual[i], expected[i]];
    if (Array.isArray(e)) deepEqual(a, e, `${what}[${i}]`);
    else ok(Object.is(a, e), `${what}[${i}]: ${a} !== ${e}`);
  }
}

const json = async (path: string): Promise<Json> => JSON.parse(await Deno.readTextFile(path));

Deno.test("heldout: splits table equals heldout.json's splits", async () => {
  const root = await outputs();
  const doc = await json(join(root, "heldout", "heldout.json"));
  const names = Object.keys(doc.splits[0]);
  const numeric = names.filter((n) =>
    typeof doc.splits[0][n] === "number" || doc.splits.some((s: Json) => typeof s[n] === "number")
  );
  const lists = ["selected_fit", "selected_heldout"];
  const [csv, parquet] = await both(join(root, "heldout"), "splits", numeric, lists);
  deepEqual(Object.keys(parquet), names);
  ok(doc.splits.length >= 50);
  for (const n of names) {
    const expected = doc.splits.map((s: Json) => s[n]);
    sameBits(parquet[n]!, expected, `splits.parquet ${n}`);
    sameBits(n === "ok" ? csv[n]!.map((v) => v === "TRUE") : csv[n]!, expected, `splits.csv ${n}`);
  }
});

Deno.test("plan-power: mde table equals power.json's mde_by_tasks and mde_by_columns", async () => {
  const root = await outputs();
  const doc = await json(join(root, "power", "power.json"));
  const [csv, parquet] = await both(join(root, "power"), "mde", [
    "tasks",
    "columns",
    "se_beta",
    "mde_80",
  ]);
  const rows = [
    ...doc.mde_by_tasks.map((r: Json) => ({ varied: "tasks", ...r, columns: doc.design.columns })),
    ...doc.mde_by_columns.map((r: Json) => ({ varied: "columns", ...r, tasks: doc.design.tasks })),
  ];
  ok(rows.length >= 4);
  for (const n of ["varied", "tasks", "columns", "se_beta", "mde_80"]) {
    sameBits(csv[n]!, rows.map((r) => r[n]), `mde.csv ${n}`);
    sameBits(parquet[n]!, rows.map((r) => r[n]), `mde.parquet ${n}`);
  }
});

Deno.test("compare: comparison table equals comparison.json's metrics and behaviour", async () => {
  const root = await outputs();
  const doc = await json(join(root, "gate-b", "comparison.json"));
  const numeric = [
    "bare",
    "equipped",
    "difference",
    "ci_low",
    "ci_high",
    "bare_ci_low",
    "bare_ci_high",
    "equipped_ci_low",
    "equipped_ci_high",
  ];
  const [csv, parquet] = await both(join(root, "gate-b"), "comparison", numeric);
  const rows = [
    ...Object.entries(doc.metrics).map(([q, v]) => ["metric", q, v] as const),
    ...Object.entries(doc.behaviour).map(([q, v]) => ["behaviour", q, v] as const),
  ].map(([kind, quantity, v]) => {
    const q = v as Json | null;
    return {
      kind,
      quantity,
      bare: q?.bare ?? null,
      equipped: q?.equipped ?? null,
      difference: q?.difference ?? null,
      ci_low: q?.ci?.[0] ?? null,
      ci_high: q?.ci?.[1] ?? null,
      bare_ci_low: q?.bare_ci?.[0] ?? null,
      bare_ci_high: q?.bare_ci?.[1] ?? null,
      equipped_ci_low: q?.equipped_ci?.[0] ?? null,
      equipped_ci_high: q?.equipped_ci?.[1] ?? null,
    } as Json;
  });
  ok(rows.some((r) => r.kind === "behaviour" && r.bare !== null));
  for (const n of ["kind", "quantity", ...numeric]) {
    sameBits(csv[n]!, rows.map((r) => r[n]), `comparison.csv ${n}`);
    sameBits(parquet[n]!, rows.map((r) => r[n]), `comparison.parquet ${n}`);
  }
});

Deno.test("study: comparisons table equals study.json's comparisons", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "study");
  deepEqual(await quiet(() => main(["study", "data/demo/study", "--out", out, "--quiet"])), 0);
  const doc = await json(join(out, "study.json"));
  const numeric = ["estimate", "bounds_low", "bounds_high", "ci_low", "ci_high"];
  const [csv, parquet] = await both(out, "comparisons", numeric);
  const rows = doc.comparisons.map((c: Json) => ({
    a: c.a,
    b: c.b,
    label: c.label,
    complete: c.complete,
    estimate: c.estimate,
    bounds_low: c.bounds[0],
    bounds_high: c.bounds[1],
    ci_low: c.ci?.[0] ?? null,
    ci_high: c.ci?.[1] ?? null,
    resample: c.resample,
  }));
  ok(rows.length >= 2);
  for (const n of Object.keys(rows[0])) {
    const expected = rows.map((r: Json) => r[n]);
    sameBits(parquet[n]!, expected, `comparisons.parquet ${n}`);
    sameBits(n === "complete" ? csv[n]!.map((v) => v === "TRUE") : csv[n]!, expected, n);
  }
});

for (const recipe of ["B", "C"]) {
  Deno.test(`reward ${recipe}: rewards table equals rewards.jsonl, mask reasons as columns`, async () => {
    await using dir = await tempDir();
    const out = join(dir.path, "reward");
    const args = [
      "reward",
      "data/demo/steps/steps.jsonl",
      "--recipe",
      recipe,
      "--out",
      out,
      "--quiet",
    ];
    deepEqual(await quiet(() => main(args)), 0);
    const lines = (await Deno.readTextFile(join(out, "rewards.jsonl"))).trim().split("\n").map((
      l,
    ) => JSON.parse(l) as Json);
    const reasons = Object.keys(lines[0]!.mask_reasons);
    const numeric = ["reward", "n_steps", "n_masked", ...reasons.map((r) => `masked_${r}`)];
    const [csv, parquet] = await both(out, "rewards", numeric);
    ok(lines.some((l) => l.reward === null) || lines.length > 10);
    for (
      const n of [
        "trajectory_id",
        "recipe",
        "reward",
        "n_steps",
        "n_masked",
        "verdict_mode",
        "weights",
      ]
    ) {
      sameBits(csv[n]!, lines.map((l) => l[n] ?? null), `rewards.csv ${n}`);
      sameBits(parquet[n]!, lines.map((l) => l[n] ?? null), `rewards.parquet ${n}`);
    }
    // Outside recipe C, equals_recipe_a has no value: all null (a text column in the Parquet).
    for (const n of ["penalized", "equals_recipe_a"]) {
      sameBits(parquet[n]!, lines.map((l) => l[n] ?? null), `rewards.parquet ${n}`);
    }
    for (const r of reasons) {
      sameBits(parquet[`masked_${r}`]!, lines.map((l) => l.mask_reasons[r]), r);
      sameBits(csv[`masked_${r}`]!, lines.map((l) => l.mask_reasons[r]), r);
    }
  });
}

Deno.test("sequential: prefixes table unrolls sequential.json's per-n series", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "seq");
  const args = ["sequential", "data/demo/ckpt-a/gate-a", "--every", "50", "--no-png", "--out", out];
  deepEqual(await quiet(() => main([...args, "--quiet"])), 0);
  const doc = await json(join(out, "sequential.json"));
  const series = [
    "estimate",
    "se",
    "cs_lower",
    "cs_upper",
    "e_value",
    "running_lower",
    "running_upper",
    "running_max_e",
  ];
  const [csv, parquet] = await both(out, "prefixes", ["n", ...series]);
  const rows: Json[] = [];
  for (const [metric, m] of Object.entries(doc.metrics as Json)) {
    m.n.forEach((n: number, i: number) => {
      for (const [version_id, v] of Object.entries(m.versions as Json)) {
        rows.push({
          metric,
          n,
          version_id,
          ...Object.fromEntries(series.map((s) => [s, v[s][i]])),
        });
      }
    });
  }
  ok(rows.some((r) => r.cs_lower === null) && rows.some((r) => r.cs_lower !== null));
  for (const n of ["metric", "n", "version_id", ...series]) {
    sameBits(csv[n]!, rows.map((r) => r[n]), `prefixes.csv ${n}`);
    sameBits(parquet[n]!, rows.map((r) => r[n]), `prefixes.parquet ${n}`);
  }
});

Deno.test("ladder and history: blocks and lifecycles tables equal their JSON", async () => {
  await using dir = await tempDir();
  const ladder = join(dir.path, "ladder");
  const ladderArgs = [
    "ladder",
    "data/demo/ladder/counting",
    "--prefill",
    "data/demo/ladder/baseline.jsonl",
  ];
  deepEqual(await quiet(() => main([...ladderArgs, "--no-png", "--out", ladder, "--quiet"])), 0);
  const result = await json(join(ladder, "ladder_result.json"));
  const names = ["block", "W", "L", "E", "INFRA", "units", "e_accept", "e_reject"];
  const [lcsv, lparquet] = await both(ladder, "blocks", names);
  for (const n of names) {
    sameBits(lcsv[n]!, result.blocks.map((b: Json) => b[n]), `blocks.csv ${n}`);
    sameBits(lparquet[n]!, result.blocks.map((b: Json) => b[n]), `blocks.parquet ${n}`);
  }

  const history = join(dir.path, "history");
  const gates = ["ckpt-a/gate-a", "ckpt-b/gate-online-r1", "ckpt-c/gate-online-c"].map((g) =>
    `data/demo/${g}`
  );
  const historyArgs = ["history", ...gates, "--allow-lineage-gaps", "--no-png", "--out", history];
  deepEqual(await quiet(() => main([...historyArgs, "--quiet"])), 0);
  const doc = await json(join(history, "history.json"));
  const fields = [
    "step",
    "version_id",
    "role",
    "estimate",
    "se",
    "ci_lower",
    "ci_upper",
    "interval",
    "status",
    "rank",
    "transition",
  ];
  const rows = Object.entries(doc.chunks as Record<string, (Json | null)[]>).flatMap((
    [chunk_id, es],
  ) => es.filter((e): e is Json => e !== null).map((e) => ({ chunk_id, ...e }) as Json));
  ok(rows.length >= 18);
  const [hcsv, hparquet] = await both(history, "lifecycles", [
    "step",
    "estimate",
    "se",
    "ci_lower",
    "ci_upper",
    "rank",
  ]);
  for (const n of ["chunk_id", ...fields]) {
    sameBits(hcsv[n]!, rows.map((r) => r[n]), `lifecycles.csv ${n}`);
    sameBits(hparquet[n]!, rows.map((r) => r[n]), `lifecycles.parquet ${n}`);
  }
});

Deno.test("ledger-audit: ledger table equals the audited ledger, line by line", async () => {
  const root = await outputs();
  const out = join(root, "audit");
  const args = ["ledger-audit", join(root, "gate-a", "ledger.jsonl"), "--out", out, "--quiet"];
  deepEqual(await quiet(() => main(args)), 0);
  const lines = (await Deno.readTextFile(join(root, "gate-a", "ledger.jsonl"))).trim().split("\n")
    .map((l) => JSON.parse(l) as Json);
  const [csv, parquet] = await both(out, "ledger", [
    "line",
    "estimated_effect",
    "contribution_rank",
  ]);
  deepEqual(parquet.line!.length, 14);
  sameBits(parquet.line!, lines.map((_, i) => i + 1), "line");
  for (
    const n of [
      "candidate_id",
      "operation",
      "role",
      "stage",
      "validation_result",
      "estimated_effect",
      "contribution_rank",
    ]
  ) {
    sameBits(parquet[n]!, lines.map((l) => l[n] ?? null), `ledger.parquet ${n}`);
    sameBits(csv[n]!, lines.map((l) => l[n] ?? null), `ledger.csv ${n}`);
  }
});
