/**
 * The one table of gatelab's conventions: the covariance types behind the
 * standard errors and the rules of the bootstrap interval, each with its
 * canonical name, the label tables and diagnostics.json print, its one-line
 * help text and where it can be chosen. The CLI's options and help texts,
 * the library's option normalisation, the output schemas and the docs read
 * it (tests/conventions_test.ts checks the docs and every command against it).
 *
 * Case rule: the command line and the library accept a name in any case
 * (`HC3`, `Bca`); outputs record the canonical lowercase `name`
 * (`conventions.cov_type`, `bootstrap.interval`), and tables and
 * diagnostics.json print the `label` (`HC3`, `CR1`).
 *
 * The unions of names (`CovType`, `CovarianceName`, `IntervalType`) are
 * read from the tables' rows, so a new row is a new name.
 * deno doc cannot show a type read from a value off lib/mod.ts, so they are
 * left out of the API docs (`@ignore`); the tables and docs/analysis.md
 * document the names.
 *
 * @module
 */

/** One row of a convention table. */
export interface Convention {
  /** Canonical name: what the CLI takes (any case) and outputs record. */
  readonly name: string;
  /** Spelling in tables, notes and diagnostics.json. */
  readonly label: string;
  /** One-line help text (the CLI's help and the docs' table). */
  readonly help: string;
}

/** Covariance types of the standard errors. */
export const COVARIANCE_TYPES = Object.freeze(
  [
    {
      name: "hc0",
      label: "HC0",
      help: "White's sandwich, residuals squared",
      covOption: true,
    },
    {
      name: "hc1",
      label: "HC1",
      help: "HC0 x n/(n-k)",
      covOption: true,
    },
    {
      name: "hc2",
      label: "HC2",
      help: "squared residuals weighted 1/(1-h_i)",
      covOption: true,
    },
    {
      name: "hc3",
      label: "HC3",
      help: "squared residuals weighted 1/(1-h_i)^2; always reported as se_hc3",
      covOption: true,
    },
    {
      name: "cr1",
      label: "CR1",
      help: "clustered by task, G/(G-1) x (N-1)/(N-k); always reported as se_cluster",
      covOption: false,
    },
  ] as const satisfies readonly (Convention & { readonly covOption: boolean })[],
);

/** Rules of the bootstrap interval `ci`. */
export const INTERVAL_TYPES = Object.freeze(
  [
    {
      name: "percentile",
      label: "percentile",
      help: "lower empirical quantiles of the draws",
    },
    {
      name: "bca",
      label: "BCa",
      help: "bias-corrected and accelerated (jackknife over tasks); ci_percentile is kept",
    },
  ] as const satisfies readonly Convention[],
);

/**
 * Every covariance type's canonical name: the names of `COVARIANCE_TYPES`'s
 * rows (`"hc0" | "hc1" | "hc2" | "hc3" | "cr1"`), so a new row is a new name.
 *
 * @ignore
 */
export type CovarianceName = (typeof COVARIANCE_TYPES)[number]["name"];

/**
 * The covariance types `--cov` (and `covType`) choose for se_robust, t and p:
 * the rows with `covOption` (`"hc0" | "hc1" | "hc2" | "hc3"`).
 *
 * @ignore
 */
export type CovType = Extract<
  (typeof COVARIANCE_TYPES)[number],
  { readonly covOption: true }
>["name"];

/**
 * Rule of the bootstrap interval: the names of `INTERVAL_TYPES`'s rows (`"percentile" | "bca"`).
 *
 * @ignore
 */
export type IntervalType = (typeof INTERVAL_TYPES)[number]["name"];

/** The names `--cov` takes, in order. */
export const COV_TYPES: readonly CovType[] = Object.freeze(
  COVARIANCE_TYPES.filter((c) => c.covOption).map((c) => c.name as CovType),
);

/** The names `--interval` takes, in order. */
export const INTERVAL_NAMES: readonly IntervalType[] = Object.freeze(
  INTERVAL_TYPES.map((c) => c.name),
);

/**
 * Reads a convention name in any case.
 *
 * @param names The table's allowed names (canonical, lowercase).
 * @param text What the user wrote.
 * @returns The canonical name, or `undefined` when `text` is none of them.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { COV_TYPES, INTERVAL_NAMES, conventionName } from "./conventions.ts";
 * equal(conventionName(COV_TYPES, "HC3"), "hc3");
 * equal(conventionName(INTERVAL_NAMES, "BcA"), "bca");
 * equal(conventionName(COV_TYPES, "cr1"), undefined);
 * ```
 */
export function conventionName<N extends string>(
  names: readonly N[],
  text: string,
): N | undefined {
  const lower = text.toLowerCase();
  return names.find((n) => n === lower);
}

/**
 * The label tables print for a convention name (as an output records it:
 * the canonical name, any case).
 *
 * @param name A covariance type or interval rule.
 * @returns Its label: `"HC3"`, `"CR1"`, `"BCa"`.
 * @throws {RangeError} When the name is in neither table.
 *
 * @example
 * ```ts
 * import { equal, throws } from "node:assert/strict";
 * import { conventionLabel } from "./conventions.ts";
 * equal(conventionLabel("hc1"), "HC1");
 * equal(conventionLabel("cr1"), "CR1");
 * equal(conventionLabel("bca"), "BCa");
 * throws(() => conventionLabel("hc9"), { message: `Unknown convention "hc9"` });
 * ```
 */
export function conventionLabel(name: string): string {
  const lower = name.toLowerCase();
  const row = [...COVARIANCE_TYPES, ...INTERVAL_TYPES].find((c) => c.name === lower);
  if (!row) throw new RangeError(`Unknown convention "${name}"`);
  return row.label;
}

/**
 * The choices of an option as help text shows them: `hc0 | hc1 | hc2 | hc3`.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { COV_TYPES, INTERVAL_NAMES, choiceList } from "./conventions.ts";
 * equal(choiceList(COV_TYPES), "hc0 | hc1 | hc2 | hc3");
 * equal(choiceList(INTERVAL_NAMES), "percentile | bca");
 * ```
 */
export function choiceList(names: readonly string[]): string {
  return names.join(" | ");
}

/**
 * The library's reading of a convention option: absent gives the default,
 * any case gives the canonical name (a notebook may write `"HC3"`).
 *
 * @param option The option's field name, for the message.
 * @param names The table's names.
 * @param value As the caller gave it.
 * @param fallback The default.
 * @returns The canonical name.
 * @throws {RangeError} When `value` is none of `names` in any case.
 *
 * @example
 * ```ts
 * import { equal, throws } from "node:assert/strict";
 * import { INTERVAL_NAMES, resolveConvention } from "./conventions.ts";
 * equal(resolveConvention("interval", INTERVAL_NAMES, "BCa", "percentile"), "bca");
 * equal(resolveConvention("interval", INTERVAL_NAMES, undefined, "percentile"), "percentile");
 * throws(() => resolveConvention("interval", INTERVAL_NAMES, "basic", "percentile"),
 *   { message: `interval must be percentile | bca, got "basic"` });
 * ```
 */
export function resolveConvention<N extends string>(
  option: string,
  names: readonly N[],
  value: string | undefined,
  fallback: N,
): N {
  if (value === undefined) return fallback;
  const found = conventionName(names, value);
  if (found === undefined) {
    throw new RangeError(`${option} must be ${choiceList(names)}, got "${value}"`);
  }
  return found;
}
