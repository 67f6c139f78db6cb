/**
 * The options several `gate` commands take, declared once: flag, what the
 * value is, placeholder, help line, default and reader. A command lists the
 * ones it takes in lib/cli/command_table.ts; where the option means
 * something particular there (what `--out` holds, what `--seed` seeds), it
 * says so by replacing the help line and keeps the rest.
 *
 * @module
 */
import { DEFAULTS } from "../core/defaults.ts";
import { choiceList, COV_TYPES, INTERVAL_NAMES } from "../core/conventions.ts";
import { conventionReader, integerReader } from "./args.ts";
import type { OptionDecl } from "./option_decl.ts";

/**
 * The common options by name.
 *
 * @example
 * ```ts
 * import { COMMON } from "./common_options.ts";
 * import { optionLine } from "./help.ts";
 * import { equal } from "node:assert/strict";
 * equal(optionLine(COMMON.seed, 19), "  --seed <S>         bootstrap seed (default 20260927)");
 * equal(COMMON.seed.read("seed", "7"), 7);
 * ```
 */
export const COMMON = Object.freeze(
  {
    out: {
      name: "out",
      type: "string",
      role: "output",
      placeholder: "<dir>",
      help: "output directory (required)",
    },
    quiet: { name: "quiet", type: "boolean", help: "print only the summary" },
    metric: {
      name: "metric",
      type: "string",
      placeholder: "<name>",
      help: "metric the selection ranks by",
      default: DEFAULTS.metric,
    },
    bootstrap: {
      name: "bootstrap",
      type: "string",
      placeholder: "<B>",
      help: "task-bootstrap draws; 0 skips",
      default: DEFAULTS.draws,
      read: integerReader({ min: 0 }),
    },
    seed: {
      name: "seed",
      type: "string",
      placeholder: "<S>",
      help: "bootstrap seed",
      default: DEFAULTS.seed,
      read: integerReader({ min: 0 }),
    },
    interval: {
      name: "interval",
      type: "string",
      placeholder: "<rule>",
      help: `${choiceList(INTERVAL_NAMES)} for the bootstrap ci`,
      default: DEFAULTS.interval,
      read: conventionReader(INTERVAL_NAMES),
    },
    cov: {
      name: "cov",
      type: "string",
      placeholder: "<type>",
      help: `${choiceList(COV_TYPES)} for se_robust, t, p`,
      default: DEFAULTS.covType,
      read: conventionReader(COV_TYPES),
    },
    // The run cache is read and written but never changes a result: not an input of a step.
    cache: {
      name: "cache",
      type: "string",
      placeholder: "<dir>",
      help: "read runs through the run cache in <dir> (written on a miss)",
    },
    "label-prefix": {
      name: "label-prefix",
      type: "string",
      placeholder: "<name>",
      help: "the run's name in LaTeX labels and captions\n(default: the --out directory's name)",
      width: 19,
    },
    "no-png": { name: "no-png", type: "boolean", help: "skip PNG copies of the figures" },
    // gate import's mapping; gate analyze --sums reads its versions, budget_k and stage.
    map: {
      name: "map",
      type: "string",
      role: "input",
      placeholder: "<file>",
      help: `mapping (gatelab.import-map/v1): column names, arm values,
versions, budget_k, stage, primary metric, constant provenance`,
    },
  } as const satisfies Readonly<Record<string, OptionDecl>>,
);
