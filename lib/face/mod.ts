/**
 * The face's per-stage namespaces (`gl.heldout`, `gl.study`, ...): each
 * stage's bundle and the functions of its tables, figures and section that
 * no notebook calls by name, so that lib/mod.ts keeps the notebooks' names
 * at its top level and stays small.
 *
 * @module
 */
export * as analyze from "./analyze.ts";
export * as heldout from "./heldout.ts";
export * as power from "./power.ts";
export * as gateb from "./gateb.ts";
export * as study from "./study.ts";
export * as reward from "./reward.ts";
export * as sequential from "./sequential.ts";
export * as ladder from "./ladder.ts";
export * as history from "./history.ts";
