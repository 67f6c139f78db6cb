/**
 * The audits' bundles: `firewallAudit`/`firewallFiles` and
 * `ledgerAudit`/`ledgerAuditFiles` give, without any write, the bytes
 * `gate firewall` and `gate ledger-audit` write into --out, and a refusal
 * carries the validation.json the command writes.
 */
import { deepEqual, equal } from "node:assert/strict";
import { main } from "../lib/cli/main.ts";
import { quiet } from "./fixtures.ts";
import { firewallAudit, firewallFiles } from "../lib/firewall/mod.ts";
import { ledgerAudit, ledgerAuditFiles } from "../lib/ledger_audit/mod.ts";
import { toJsonText } from "../lib/core/atomic_write.ts";
import { fileBytes } from "./file_bytes.ts";

const DEMO = "data/demo/firewall";

async function written(dir: string): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && !e.name.startsWith(".")) {
      files[e.name] = await Deno.readFile(`${dir}/${e.name}`);
    }
  }
  return files;
}

Deno.test("firewallFiles: the two files gate firewall writes for clean texts, byte for byte", async () => {
  const tmp = await Deno.makeTempDir();
  // The demo's chunk lines 1-2 hold no gold (lines 3 and 4 are planted leaks: data/demo/firewall/planted.json).
  const chunks = (await Deno.readTextFile(`${DEMO}/chunks.jsonl`)).split("\n").slice(0, 2);
  await Deno.writeTextFile(`${tmp}/chunks.jsonl`, chunks.join("\n") + "\n");
  const args = ["--texts", `${tmp}/chunks.jsonl`, "--gold", `${DEMO}/gold.jsonl`];
  equal(await quiet(() => main(["firewall", ...args, "--out", `${tmp}/o`])), 0);
  const command = ["gate", "firewall", ...args, "--out", `${tmp}/o`].join(" ");
  const audit = await firewallAudit(`${DEMO}/gold.jsonl`, [`${tmp}/chunks.jsonl`], command);
  if (!audit.ok) throw new Error("clean lines refused");
  deepEqual(audit.document.scanned.lines, 2);
  const files = firewallFiles(audit.document, audit.validation);
  deepEqual(Object.keys(files), ["validation.json", "firewall.json"]);
  const disk = await written(`${tmp}/o`);
  deepEqual(Object.keys(disk).sort(), ["firewall.json", "validation.json"]);
  for (const name of Object.keys(files)) deepEqual(await fileBytes(files[name]), disk[name], name);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("firewallAudit: the demo's planted leaks refuse with every finding, as gate firewall writes them", async () => {
  const tmp = await Deno.makeTempDir();
  const args = [
    "--texts",
    `${DEMO}/chunks.jsonl`,
    "--texts",
    `${DEMO}/cards.jsonl`,
    "--gold",
    `${DEMO}/gold.jsonl`,
  ];
  equal(await quiet(() => main(["firewall", ...args, "--out", tmp])), 2);
  const command = ["gate", "firewall", ...args, "--out", tmp].join(" ");
  const audit = await firewallAudit(`${DEMO}/gold.jsonl`, [
    `${DEMO}/chunks.jsonl`,
    `${DEMO}/cards.jsonl`,
  ], command);
  deepEqual(audit.ok, false);
  const planted = JSON.parse(await Deno.readTextFile(`${DEMO}/planted.json`)).leaks;
  deepEqual(audit.validation.issues.length, planted.length);
  deepEqual(
    await fileBytes(toJsonText(audit.validation)),
    await Deno.readFile(`${tmp}/validation.json`),
  );
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("ledgerAuditFiles: validation.json, ledger_audit.json and the tidy ledger table, byte for byte", async () => {
  const tmp = await Deno.makeTempDir();
  const line = (id: string, rank: number) =>
    JSON.stringify({
      candidate_id: id,
      operation: "ADD",
      target_chunk_id: null,
      proposal_checkpoint: "ckpt-a",
      stage: "online",
      replacement_family_id: null,
      validation_result: "selected",
      estimated_effect: 0.1 * rank,
      contribution_rank: rank,
    });
  await Deno.writeTextFile(`${tmp}/ledger.jsonl`, `${line("a.v1", 1)}\n${line("b.v1", 2)}\n`);
  equal(await quiet(() => main(["ledger-audit", `${tmp}/ledger.jsonl`, "--out", `${tmp}/o`])), 0);
  const command = `gate ledger-audit ${tmp}/ledger.jsonl --out ${tmp}/o`;
  const audit = await ledgerAudit(`${tmp}/ledger.jsonl`, { command });
  if (!audit.ok) throw new Error("a clean ledger refused");
  deepEqual([audit.document.lines, audit.document.proposals], [2, 2]);
  const files = await ledgerAuditFiles(audit);
  deepEqual(Object.keys(files), [
    "validation.json",
    "ledger_audit.json",
    "ledger.csv",
    "ledger.parquet",
  ]);
  const disk = await written(`${tmp}/o`);
  deepEqual(Object.keys(disk).sort(), Object.keys(files).sort());
  for (const name of Object.keys(files)) deepEqual(await fileBytes(files[name]), disk[name], name);
  await Deno.remove(tmp, { recursive: true });
});
