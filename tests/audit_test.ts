/**
 * `gate ledger-audit` and `gate firewall` on the demo's ledger
 * (data/demo/ledger/) and firewall inputs (data/demo/firewall/), plus small
 * hand-made ledgers for the codes the demo does not plant.
 */
import { deepEqual, ok } from "node:assert/strict";
import { main } from "../lib/cli/main.ts";
import { quiet } from "./fixtures.ts";
import { FirewallSchema, LedgerAuditSchema } from "../lib/contract/outputs/mod.ts";

const DEMO = "data/demo";
const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("ledger-audit: the demo ledger's one planted re-proposal, and results agree with the history", async () => {
  const tmp = await Deno.makeTempDir();
  const history = `${tmp}/history`;
  deepEqual(
    await quiet(() =>
      main([
        "history",
        `${DEMO}/ckpt-b/gate-online-r1`,
        `${DEMO}/ckpt-b/gate-online-r2`,
        `${DEMO}/ckpt-c/gate-online-c`,
        "--out",
        history,
        "--no-png",
      ])
    ),
    0,
  );
  const out = `${tmp}/audit`;
  const code = await quiet(() =>
    main(["ledger-audit", `${DEMO}/ledger/ledger.jsonl`, "--history", history, "--out", out])
  );
  deepEqual(code, 2);
  const v = await readJson(`${out}/validation.json`);
  deepEqual(v.counts, { reproposed_rejected: 1 });
  deepEqual([v.issues[0].line, v.issues[0].path], [10, "candidate_id"]);
  ok(v.issues[0].message.includes("brand-guard.v2") && v.issues[0].message.includes("line 3"));
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("ledger-audit: gatelab's own ledger is a valid instance", async () => {
  const tmp = await Deno.makeTempDir();
  deepEqual(
    await quiet(() =>
      main(["analyze", `${DEMO}/ckpt-a/gate-a`, "--out", `${tmp}/a`, "--bootstrap", "0"])
    ),
    0,
  );
  deepEqual(
    await quiet(() => main(["ledger-audit", `${tmp}/a/ledger.jsonl`, "--out", `${tmp}/audit`])),
    0,
  );
  const audit = await readJson(`${tmp}/audit/ledger_audit.json`);
  deepEqual([audit.lines, audit.proposals], [14, 14]);
  deepEqual(LedgerAuditSchema.safeParse(audit).success, true);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("ledger-audit: operation, rewrite target, result mismatch and dimension cap", async () => {
  const tmp = await Deno.makeTempDir();
  const line = (o: Record<string, unknown>) =>
    JSON.stringify({
      operation: "ADD",
      target_chunk_id: null,
      proposal_checkpoint: "ck-1",
      stage: "cold_start",
      replacement_family_id: null,
      validation_result: "selected",
      estimated_effect: 0.1,
      contribution_rank: 1,
      ...o,
    });
  const rows = [
    line({ candidate_id: "d", operation: "DELETE" }),
    line({ candidate_id: "m", operation: "MERGE" }),
    line({ candidate_id: "r", operation: "REWRITE" }),
    ...Array.from({ length: 15 }, (_, i) => line({ candidate_id: `c${i}` })),
  ];
  await Deno.writeTextFile(`${tmp}/ledger.jsonl`, rows.join("\n") + "\n");
  deepEqual(
    await quiet(() => main(["ledger-audit", `${tmp}/ledger.jsonl`, "--out", `${tmp}/o`])),
    2,
  );
  const v = await readJson(`${tmp}/o/validation.json`);
  deepEqual(v.counts, { dimension_cap: 1, operation_invalid: 2, rewrite_target_missing: 1 });
  deepEqual(
    v.issues.map((i: { code: string; line: number }) => [i.code, i.line]),
    [["operation_invalid", 1], ["operation_invalid", 2], ["rewrite_target_missing", 3], [
      "dimension_cap",
      1,
    ]],
  );
  // ledger_result_mismatch: the demo's Gate A analysed into a history, a ledger citing it wrongly.
  deepEqual(
    await quiet(() => main(["history", `${DEMO}/ckpt-a/gate-a`, "--out", `${tmp}/h`, "--no-png"])),
    0,
  );
  const h = await readJson(`${tmp}/h/history.json`);
  const checkpoint = h.steps[0].checkpoint_id;
  const qf = h.chunks["query-formulation"][0];
  await Deno.writeTextFile(
    `${tmp}/cited.jsonl`,
    [
      line({
        candidate_id: "query-formulation.v1",
        proposal_checkpoint: checkpoint,
        estimated_effect: Math.round(qf.estimate * 1e4) / 1e4,
      }),
      line({
        candidate_id: "results-pagination.v1",
        proposal_checkpoint: checkpoint,
        estimated_effect: 0.05,
      }),
      line({ candidate_id: "not-in-gate.v1", proposal_checkpoint: checkpoint }),
    ].join("\n") + "\n",
  );
  deepEqual(
    await quiet(() =>
      main(["ledger-audit", `${tmp}/cited.jsonl`, "--history", `${tmp}/h`, "--out", `${tmp}/o2`])
    ),
    2,
  );
  const v2 = await readJson(`${tmp}/o2/validation.json`);
  deepEqual(
    v2.issues.map((i: { code: string; line: number; path: string }) => [i.code, i.line, i.path]),
    [
      ["ledger_result_mismatch", 2, "validation_result"],
      ["ledger_result_mismatch", 2, "estimated_effect"],
      ["ledger_result_mismatch", 3, "candidate_id"],
    ],
  );
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("firewall: every planted leak is found with its place, and nothing else", async () => {
  const tmp = await Deno.makeTempDir();
  const code = await quiet(() =>
    main([
      "firewall",
      "--texts",
      `${DEMO}/firewall/chunks.jsonl`,
      "--texts",
      `${DEMO}/firewall/cards.jsonl`,
      "--gold",
      `${DEMO}/firewall/gold.jsonl`,
      "--out",
      tmp,
    ])
  );
  deepEqual(code, 2);
  const v = await readJson(`${tmp}/validation.json`);
  const planted = (await readJson(`${DEMO}/firewall/planted.json`)).leaks;
  deepEqual(
    v.issues.map((i: { code: string; file: string; line: number; path: string; span: string }) => ({
      file: i.file.replace(`${DEMO}/firewall/`, ""),
      line: i.line,
      field: i.path,
      code: i.code,
      span: i.span,
    })),
    planted,
  );
  deepEqual(await exists(`${tmp}/firewall.json`), false);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("firewall: the clean lines alone pass, privileged audits included", async () => {
  const tmp = await Deno.makeTempDir();
  const planted = (await readJson(`${DEMO}/firewall/planted.json`)).leaks;
  for (const name of ["chunks.jsonl", "cards.jsonl"]) {
    const dirty = new Set(
      planted.filter((p: { file: string }) => p.file === name).map((p: { line: number }) => p.line),
    );
    const lines = (await Deno.readTextFile(`${DEMO}/firewall/${name}`)).trimEnd().split("\n");
    await Deno.writeTextFile(
      `${tmp}/${name}`,
      lines.filter((_, i) => !dirty.has(i + 1)).join("\n") + "\n",
    );
  }
  const code = await quiet(() =>
    main([
      "firewall",
      "--texts",
      `${tmp}/chunks.jsonl`,
      "--texts",
      `${tmp}/cards.jsonl`,
      "--gold",
      `${DEMO}/firewall/gold.jsonl`,
      "--out",
      `${tmp}/o`,
    ])
  );
  deepEqual(code, 0);
  const fw = await readJson(`${tmp}/o/firewall.json`);
  // 3 clean chunks, 1 failure card (its privileged_audit holds gold) and 1 success card.
  deepEqual([fw.scanned.lines, fw.findings], [5, []]);
  deepEqual(FirewallSchema.safeParse(fw).success, true);
  await Deno.remove(tmp, { recursive: true });
});
