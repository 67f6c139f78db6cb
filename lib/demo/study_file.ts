/**
 * The demo's study file, data/demo/gatelab.yaml: every step of `deno task
 * demo` (docs/demo.md), built by `gate build` into reports/demo/.
 *
 * @module
 */

/** The text of data/demo/gatelab.yaml. */
export const DEMO_STUDY_FILE = `# The demo as a study: deno task demo builds it into reports/demo/
# (deno task gate build data/demo/gatelab.yaml --out reports/demo).
# Paths are relative to this file; an input named by a step's id (gate-a,
# gate-a/selection.json) is that step's output. docs/demo.md walks through it.
study: demo
out: ../../reports/demo
# The demo's own report step (the last one) chooses which outputs it shows.
report: false
steps:
  - validate: ckpt-a/gate-a
    id: validate-gate-a
    title: Validate the cold-start gate
  - analyze: ckpt-a/gate-a
    id: gate-a
    title: "Gate A: refit, bootstrap and select (cold start)"
  - analyze: [ckpt-b/gate-online-r1, ckpt-b/gate-online-r2]
    id: online
    title: "Online gate: two rounds pooled, clustered by task"
  - heldout: ckpt-a/gate-a
    plan: ../plans/heldout-kfold5.json
    id: heldout-a
    title: Held-out ranking checks on Gate A (5-fold x 20 over tasks)
  - plan-power:
    from: gate-a
    id: power-a
    title: Power planning from Gate A
  - compare:
    # ./ : this directory's gate-b/, not the output of the step gate-b
    bare: ./gate-b/bare-test
    equipped: ./gate-b/equipped-test
    selection: gate-a/selection.json
    id: gate-b
    title: "Gate B: frozen selection against bare on held-out tasks"
  - analyze: ckpt-c/gate-online-c
    id: online-c
    title: "Checkpoint C: online gate on the pooled ckpt-b selection"
  - history: [gate-a, online, online-c]
    id: history-strict
    expect: refused
    title: "History, strict lineage (expected exit 2: the ckpt-b rounds do not start from Gate A's selection)"
  - history: [gate-a, online, online-c]
    allow-lineage-gaps: true
    id: history
    title: History over three checkpoints (lineage gaps of the ckpt-b rounds recorded as warnings)
  - report: history
    id: report-history
    title: HTML report of the history (lifecycles, trends, figures)
  - analyze: ckpt-c/gate-online-c-xsvc
    exploratory: provenance_mismatch
    estimator: legacy_intercept
    id: exploratory-xsvc
    title: Exploratory re-analysis of a cross-service gate, legacy intercept side by side
  - ledger-audit: ledger/ledger.jsonl
    history: history
    id: ledger-audit
    expect: refused
    title: "Proposal ledger audit against the history (expected exit 2: one re-proposed rejected candidate)"
  - firewall:
    texts: [./firewall/chunks.jsonl, ./firewall/cards.jsonl]
    gold: ./firewall/gold.jsonl
    id: firewall
    expect: refused
    title: "Gold firewall over chunks and cards (expected exit 2: six planted leaks)"
  - sequential: ckpt-a/gate-a
    id: sequential-a
    title: "Gate A re-analysed sequentially: anytime-valid confidence sequences over the tasks"
  - ladder: ladder/counting
    prefill: ladder/baseline.jsonl
    id: ladder-counting
    title: "Ladder gate counting: e-processes, four exits, baseline-cache prefill"
  - ladder: ladder/temporal-order
    prefill: ladder/baseline.jsonl
    id: ladder-temporal-order
    title: "Ladder gate temporal-order: e-processes, four exits, baseline-cache prefill"
  - ladder: ladder/spatial-relation
    prefill: ladder/baseline.jsonl
    id: ladder-spatial-relation
    title: "Ladder gate spatial-relation: e-processes, four exits, baseline-cache prefill"
  - study: ./study
    id: study
    title: Study outcomes (paper tables)
  - reward: steps/steps.jsonl
    recipe: B
    groups: steps/groups.jsonl
    id: reward
    title: Reward recipes
  - report: [gate-a, online, sequential-a, history, heldout-a, power-a, gate-b, ladder-counting,
      ladder-temporal-order, ladder-spatial-relation, study, reward, ledger-audit, firewall]
    id: report
    title: One HTML report of the whole study (every kind of output, self-contained)
`;
