/**
 * Scoping a run's tables and figures, so that one paper can `\input` the
 * LaTeX of any number of runs, commands and notebooks with no label
 * defined twice and no two captions alike: every label gets the run's
 * label prefix (`tab:coefficients-reward` becomes
 * `tab:gate-a:coefficients-reward`, `fig:forest` becomes
 * `fig:gate-a:forest`) and every caption starts with the run's name
 * (`Gate A: paired-delta coefficients, reward`).
 *
 * A run is named by its output directory (`--out reports/gate-a` gives
 * label prefix `gate-a` and name `Gate A`) unless the command is given
 * `--label-prefix` (then the prefix, as written, is the name, and its
 * label form replaces every character other than letters, digits, `.`
 * and `-` by `-`).
 *
 * @module
 */
import { basename, resolve } from "node:path";
import { type Table, toLatex, toMarkdown } from "./table.ts";

/** How a run's labels and captions are scoped. */
export interface RunScope {
  /** Label prefix: letters, digits, `.` and `-` (`gate-a`). */
  readonly label: string;
  /** The run's name at the head of every caption (`Gate A`). */
  readonly name: string;
}

/** The label form of a name: every character other than letters, digits, `.` and `-` becomes `-`. */
function labelForm(text: string): string {
  return text.trim().replace(/[^A-Za-z0-9.-]+/g, "-").replace(/^-+|-+$/g, "");
}

/**
 * The scope of a run from its output directory, or from `--label-prefix`.
 *
 * @param outDir The run's output directory (its last component names the run).
 * @param labelPrefix The user's prefix, if given; it must hold a letter or digit.
 * @returns The label prefix and caption name.
 * @throws {RangeError} When the prefix (or the directory's name) has no letter or digit.
 *
 * @example
 * ```ts
 * import { runScope } from "./run_scope.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(runScope("reports/demo/gate-a/"), { label: "gate-a", name: "Gate A" });
 * deepEqual(runScope("out/online_c"), { label: "online-c", name: "Online C" });
 * deepEqual(runScope("x", "Gate A (ckpt 3)"), { label: "Gate-A-ckpt-3", name: "Gate A (ckpt 3)" });
 * ```
 */
export function runScope(outDir: string, labelPrefix?: string): RunScope {
  if (labelPrefix !== undefined) {
    if (!/[A-Za-z0-9]/.test(labelPrefix)) {
      throw new RangeError(
        `Cannot scope labels by "${labelPrefix}": a label prefix needs a letter or digit`,
      );
    }
    return { label: labelForm(labelPrefix), name: labelPrefix.trim() };
  }
  const dir = basename(resolve(outDir));
  if (!/[A-Za-z0-9]/.test(dir)) {
    throw new RangeError(
      `Cannot scope labels by the directory "${dir}": its name has no letter or digit; give --label-prefix`,
    );
  }
  const name = dir.split(/[-_\s]+/).filter((w) => w.length > 0)
    .map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ");
  return { label: labelForm(dir), name };
}

/**
 * A caption under a run's name: `Gate A: paired-delta coefficients`. The
 * caption's first letter is lowered when it starts an ordinary word (not
 * an acronym such as `OLS`).
 *
 * @example
 * ```ts
 * import { scopedCaption } from "./run_scope.ts";
 * import { deepEqual } from "node:assert/strict";
 * const scope = { label: "gate-a", name: "Gate A" };
 * deepEqual(scopedCaption("Paired-delta coefficients, reward", scope), "Gate A: paired-delta coefficients, reward");
 * deepEqual(scopedCaption("OLS coefficient beside AMCE", scope), "Gate A: OLS coefficient beside AMCE");
 * ```
 */
export function scopedCaption(caption: string, scope: RunScope): string {
  const lowered = /^[A-Z][a-z]/.test(caption)
    ? caption[0]!.toLowerCase() + caption.slice(1)
    : caption;
  return `${scope.name}: ${lowered}`;
}

/**
 * A label under a run's prefix: `tab:x` becomes `tab:<prefix>:x`, `fig:x`
 * becomes `fig:<prefix>:x`; a label of another form gets the prefix in front.
 *
 * @example
 * ```ts
 * import { scopedLabel } from "./run_scope.ts";
 * import { deepEqual } from "node:assert/strict";
 * const scope = { label: "gate-a", name: "Gate A" };
 * deepEqual([scopedLabel("tab:heldout", scope), scopedLabel("fig:forest", scope)], ["tab:gate-a:heldout", "fig:gate-a:forest"]);
 * ```
 */
export function scopedLabel(label: string, scope: RunScope): string {
  const match = /^(tab|fig):/.exec(label);
  return match
    ? `${match[0]}${scope.label}:${label.slice(match[0].length)}`
    : `${scope.label}:${label}`;
}

/**
 * Scopes every table of a run: its label (see {@linkcode scopedLabel}) and
 * its caption (see {@linkcode scopedCaption}). A table without a label gets
 * none.
 *
 * @param tables The run's tables.
 * @param scope The run's scope ({@linkcode runScope}).
 * @returns New tables; the inputs are not changed.
 *
 * @example
 * ```ts
 * import { scopeTables } from "./run_scope.ts";
 * import { deepEqual } from "node:assert/strict";
 * const [t] = scopeTables([{ caption: "Power plan", columns: [], rows: [], label: "tab:power" }], { label: "power-a", name: "Power A" });
 * deepEqual([t!.caption, t!.label], ["Power A: power plan", "tab:power-a:power"]);
 * ```
 */
export function scopeTables(tables: readonly Table[], scope: RunScope): Table[] {
  return tables.map((t) => ({
    ...t,
    caption: scopedCaption(t.caption, scope),
    ...(t.label === undefined ? {} : { label: scopedLabel(t.label, scope) }),
  }));
}

/**
 * A run's tables as the two files a command writes of them: `<stem>.md`
 * (Markdown) and `<stem>.tex` (LaTeX), one table after another.
 *
 * @param stem The file name without extension (`heldout`, `study_tables`).
 * @param tables The tables, already scoped ({@linkcode scopeTables}).
 * @returns `<stem>.md` and `<stem>.tex`, in that order.
 *
 * @example
 * ```ts
 * import { tableFiles } from "./run_scope.ts";
 * import { deepEqual } from "node:assert/strict";
 * const files = tableFiles("power", [{ caption: "Plan", columns: [{ label: "n" }], rows: [["1"]] }]);
 * deepEqual(Object.keys(files), ["power.md", "power.tex"]);
 * deepEqual(files["power.md"], "**Plan**\n\n| n |\n| :-- |\n| 1 |\n");
 * ```
 */
export function tableFiles(stem: string, tables: readonly Table[]): Record<string, string> {
  return {
    [`${stem}.md`]: tables.map(toMarkdown).join("\n"),
    [`${stem}.tex`]: tables.map(toLatex).join("\n"),
  };
}
