/** Selection: REWRITE family winners, strictly positive top-K, statuses and the proposal ledger. */
export * from "./select.ts";
export * from "./ledger.ts";
export * from "./selection_rule.ts";
