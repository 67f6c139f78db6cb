/**
 * gatelab: re-analysis of randomized skill-validation gates.
 *
 * The one public entry point for notebooks and the CLI. Each stage lives
 * in its own folder under lib/ and is re-exported here, in pipeline order.
 *
 * @module
 */
export * from "./core/mod.ts"; // issues, hashing, atomic writes, PRNG, quantile rule, shared types
export * from "./contract/mod.ts"; // zod schemas of the data contract
export * from "./load/mod.ts"; // streaming JSONL, run and gate readers
export * from "./cache/mod.ts"; // content-addressed run cache (Arrow IPC)
export * from "./validate/mod.ts"; // strict pairing checks -> PairedDataset
export * from "./sql/mod.ts"; // DuckDB (started only when called)
export * from "./fit/mod.ts"; // no-intercept OLS, HC0-HC3, CR1
export * from "./select/mod.ts"; // family winners, positive top-K, ledger
export * from "./analyze/mod.ts"; // the gate analysis pipeline
export * from "./infer/mod.ts"; // bootstrap, stability, held-out, diagnostics, power
export * from "./explore/mod.ts"; // exploratory re-analysis: waivable codes, legacy intercept
export * from "./sequential/mod.ts"; // anytime-valid confidence sequences over a gate's prefixes
export * from "./ladder/mod.ts"; // e-process ladder gates: W/L/E/INFRA, four exits, baseline prefill
export * from "./history/mod.ts"; // histories across checkpoints: lineage, lifecycles, trends
export * from "./ledger_audit/mod.ts"; // proposal ledger schema and audit
export * from "./firewall/mod.ts"; // gold firewall over deployable texts
export * from "./gateb/mod.ts"; // Gate B comparison
export * from "./study/mod.ts"; // paper statistics of a study
export * from "./reward/mod.ts"; // level-to-reward recipes
export * from "./report/mod.ts"; // Markdown and LaTeX tables
export * from "./figures/mod.ts"; // Observable Plot figures
export * from "./html/mod.ts"; // HTML report and notebook display
export * from "./paper/mod.ts"; // a paper appendix as LaTeX and SVG files
export * from "./demo/mod.ts"; // the seeded demo simulator
