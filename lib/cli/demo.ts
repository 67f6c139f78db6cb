/**
 * `deno task demo`: the main job on the embedded demo data. Runs the same
 * commands a user would, in-process, and writes everything under
 * `reports/demo/`. Exits non-zero if any step fails.
 *
 * @module
 */
import { main } from "./main.ts";
import { parseCommand, UsageError } from "./args.ts";
import { printError } from "../core/terminal_text.ts";

const DATA = "data/demo";
const OUT = "reports/demo";

/**
 * The demo's steps: a title, the `gate` command line it runs and, for the
 * steps that show a check finding planted problems, the exit code expected
 * (default 0).
 */
export const DEMO_STEPS: readonly (readonly [string, readonly string[], number?])[] = [
  ["Validate the cold-start gate", [
    "validate",
    `${DATA}/ckpt-a/gate-a`,
    "--out",
    `${OUT}/validate-gate-a`,
  ]],
  ["Gate A: refit, bootstrap and select (cold start)", [
    "analyze",
    `${DATA}/ckpt-a/gate-a`,
    "--out",
    `${OUT}/gate-a`,
  ]],
  ["Online gate: two rounds pooled, clustered by task", [
    "analyze",
    `${DATA}/ckpt-b/gate-online-r1`,
    `${DATA}/ckpt-b/gate-online-r2`,
    "--out",
    `${OUT}/online`,
  ]],
  ["Held-out ranking checks on Gate A (5-fold x 20 over tasks)", [
    "heldout",
    `${DATA}/ckpt-a/gate-a`,
    "--plan",
    "data/plans/heldout-kfold5.json",
    "--out",
    `${OUT}/heldout-a`,
  ]],
  ["Power planning from Gate A", [
    "plan-power",
    "--from",
    `${OUT}/gate-a`,
    "--out",
    `${OUT}/power-a`,
  ]],
  ["Gate B: frozen selection against bare on held-out tasks", [
    "compare",
    "--bare",
    `${DATA}/gate-b/bare-test`,
    "--equipped",
    `${DATA}/gate-b/equipped-test`,
    "--selection",
    `${OUT}/gate-a/selection.json`,
    "--out",
    `${OUT}/gate-b`,
  ]],
  ["Checkpoint C: online gate on the pooled ckpt-b selection", [
    "analyze",
    `${DATA}/ckpt-c/gate-online-c`,
    "--out",
    `${OUT}/online-c`,
  ]],
  [
    "History, strict lineage (expected exit 2: the ckpt-b rounds do not start from Gate A's selection)",
    [
      "history",
      `${OUT}/gate-a`,
      `${OUT}/online`,
      `${OUT}/online-c`,
      "--out",
      `${OUT}/history-strict`,
    ],
    2,
  ],
  ["History over three checkpoints (lineage gaps of the ckpt-b rounds recorded as warnings)", [
    "history",
    `${OUT}/gate-a`,
    `${OUT}/online`,
    `${OUT}/online-c`,
    "--allow-lineage-gaps",
    "--out",
    `${OUT}/history`,
  ]],
  ["HTML report of the history (lifecycles, trends, figures)", [
    "report",
    `${OUT}/history`,
    "--out",
    `${OUT}/report-history`,
  ]],
  ["Exploratory re-analysis of a cross-service gate, legacy intercept side by side", [
    "analyze",
    `${DATA}/ckpt-c/gate-online-c-xsvc`,
    "--exploratory",
    "provenance_mismatch",
    "--estimator",
    "legacy_intercept",
    "--out",
    `${OUT}/exploratory-xsvc`,
  ]],
  [
    "Proposal ledger audit against the history (expected exit 2: one re-proposed rejected candidate)",
    [
      "ledger-audit",
      `${DATA}/ledger/ledger.jsonl`,
      "--history",
      `${OUT}/history`,
      "--out",
      `${OUT}/ledger-audit`,
    ],
    2,
  ],
  ["Gold firewall over chunks and cards (expected exit 2: six planted leaks)", [
    "firewall",
    "--texts",
    `${DATA}/firewall/chunks.jsonl`,
    "--texts",
    `${DATA}/firewall/cards.jsonl`,
    "--gold",
    `${DATA}/firewall/gold.jsonl`,
    "--out",
    `${OUT}/firewall`,
  ], 2],
  ["Gate A re-analysed sequentially: anytime-valid confidence sequences over the tasks", [
    "sequential",
    `${DATA}/ckpt-a/gate-a`,
    "--out",
    `${OUT}/sequential-a`,
  ]],
  ...["counting", "temporal-order", "spatial-relation"].map((type) =>
    [`Ladder gate ${type}: e-processes, four exits, baseline-cache prefill`, [
      "ladder",
      `${DATA}/ladder/${type}`,
      "--prefill",
      `${DATA}/ladder/baseline.jsonl`,
      "--out",
      `${OUT}/ladder-${type}`,
    ]] as const
  ),
  ["Study outcomes (paper tables)", ["study", `${DATA}/study`, "--out", `${OUT}/study`]],
  ["Reward recipes", [
    "reward",
    `${DATA}/steps/steps.jsonl`,
    "--recipe",
    "B",
    "--groups",
    `${DATA}/steps/groups.jsonl`,
    "--out",
    `${OUT}/reward`,
  ]],
  ["One HTML report of the whole study (every kind of output, self-contained)", [
    "report",
    `${OUT}/gate-a`,
    `${OUT}/online`,
    `${OUT}/sequential-a`,
    `${OUT}/history`,
    `${OUT}/heldout-a`,
    `${OUT}/power-a`,
    `${OUT}/gate-b`,
    `${OUT}/ladder-counting`,
    `${OUT}/ladder-temporal-order`,
    `${OUT}/ladder-spatial-relation`,
    `${OUT}/study`,
    `${OUT}/reward`,
    `${OUT}/ledger-audit`,
    `${OUT}/firewall`,
    "--out",
    `${OUT}/report`,
  ]],
];

const HELP = `usage: deno task demo

Runs every step of the demo (validate, analyze, held-out, power, compare,
study, reward, report...) on ${DATA}/ with the commands a user would type,
and writes the outputs under ${OUT}/. Takes no arguments.`;

if (import.meta.main) {
  try {
    const cli = parseCommand(Deno.args, {
      name: "demo",
      helpCommand: "deno task demo",
      help: HELP,
      options: {},
      positionals: { max: 0 },
    });
    if (cli === null) Deno.exit(0);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    printError(`usage_error  ${error.message}`);
    Deno.exit(2);
  }
  let failed = 0;
  for (const [title, args, expected = 0] of DEMO_STEPS) {
    printError(`\n== ${title}\n$ deno task gate ${args.join(" ")}`);
    const code = await main([...args]);
    if (code !== expected) {
      printError(`step failed with exit code ${code} (expected ${expected}): ${title}`);
      failed++;
    }
  }
  printError(
    failed === 0 ? `\ndemo done: outputs in ${OUT}/` : `\ndemo: ${failed} step(s) failed`,
  );
  Deno.exit(failed === 0 ? 0 : 1);
}
