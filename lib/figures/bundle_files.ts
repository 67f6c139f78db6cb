/**
 * The default files of a bundle (docs/architecture.md, "The bundle rule"):
 * validation.json when the command writes one, the bundle's JSON document,
 * the `.md` and `.tex` of its `tables(doc)` scoped by the run, its figures
 * as files when the command writes them, and its tidy tables as CSV and
 * Parquet. The bundles of `heldout`, `power`, `gateb`, `history` and
 * `sequential` write exactly these. On the render floor beside the figure
 * files it writes (lib/table imports no figure).
 *
 * @module
 */
import { type FileContents, toJsonText } from "../core/atomic_write.ts";
import type { Bundle } from "../table/bundle.ts";
import { type RunScope, scopeTables, tableFiles } from "../table/run_scope.ts";
import type { TidyTable } from "../tidy/tidy_table.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { figureFiles, type FigureFilesOptions } from "./figure_files.ts";

/** Options of {@linkcode bundleFiles}. */
export interface BundleFilesOptions {
  /** The run's scope: the tables' labels and captions, each figure's `.tex` float. */
  readonly scope: RunScope;
  /** validation.json's document, written first; absent: the command writes none. */
  readonly validation?: unknown;
  /** The figures' file options (PNG, PDF); absent: the command writes no figure files. */
  readonly figures?: Omit<FigureFilesOptions, "scope">;
  /** The tidy tables, each one the bundle declares in `tidy`, in this order. @default {[]} */
  readonly tidy?: readonly TidyTable[];
  /** The stem of the tables' `.md` and `.tex`. @default {the bundle's file without `.json`} */
  readonly stem?: string;
}

/** What {@linkcode bundleFiles} reads of a bundle. */
export type BundleFilesSource<Doc> = Pick<
  Bundle<Doc, unknown>,
  "stage" | "file" | "tidy" | "tables" | "figures"
>;

/**
 * A bundle's files, by name inside `--out`, in this order:
 * validation.json, its JSON document, `<stem>.md` and `<stem>.tex` of
 * `tables(doc)` (scoped), its figures' files (when `figures` is given and
 * the bundle has figures), then each tidy table's CSV and Parquet. Pure
 * but for the figures' PNG and PDF (`rsvg-convert`).
 *
 * @param bundle The bundle (its file, tables, figures and declared tidy tables).
 * @param doc Its document.
 * @param options The run's scope, validation.json, figure options, tidy tables.
 * @returns File name to contents.
 * @throws Error When a tidy table is not one the bundle declares (our defect).
 *
 * @example
 * ```ts
 * import { bundleFiles } from "./bundle_files.ts";
 * import { deepEqual, rejects } from "node:assert/strict";
 * const bundle = { stage: "s", file: "s.json", tidy: ["t"],
 *   tables: (doc: { n: number }) => [{ caption: "N", label: "tab:n", columns: [{ label: "n" }], rows: [[String(doc.n)]] }] };
 * const t = { name: "t", rows: 1, columns: [{ name: "n", kind: "i32" as const, values: [2] }] };
 * const files = await bundleFiles(bundle, { n: 2 }, { scope: { label: "r", name: "R" }, validation: {}, tidy: [t] });
 * deepEqual(Object.keys(files), ["validation.json", "s.json", "s.md", "s.tex", "t.csv", "t.parquet"]);
 * deepEqual(files["s.json"], '{\n  "n": 2\n}\n');
 * await rejects(bundleFiles({ ...bundle, tidy: [] }, { n: 2 }, { scope: { label: "r", name: "R" }, tidy: [t] }),
 *   /the tidy table t is not one the bundle of lib\/s declares \(tidy: none\)/);
 * ```
 */
export async function bundleFiles<Doc>(
  bundle: BundleFilesSource<Doc>,
  doc: Doc,
  options: BundleFilesOptions,
): Promise<Record<string, FileContents>> {
  const tidy = options.tidy ?? [];
  const undeclared = tidy.find((t) => !bundle.tidy.includes(t.name));
  if (undeclared !== undefined) {
    throw new Error(
      `the tidy table ${undeclared.name} is not one the bundle of lib/${bundle.stage} declares ` +
        `(tidy: ${bundle.tidy.join(", ") || "none"})`,
    );
  }
  const stem = options.stem ?? bundle.file.replace(/\.json$/, "");
  const figures = options.figures !== undefined && bundle.figures !== undefined
    ? await figureFiles(bundle.figures(doc), { ...options.figures, scope: options.scope })
    : {};
  return {
    ...(options.validation === undefined
      ? {}
      : { "validation.json": toJsonText(options.validation) }),
    [bundle.file]: toJsonText(doc),
    ...tableFiles(stem, scopeTables(bundle.tables(doc), options.scope)),
    ...figures,
    ...await tidyFiles(tidy),
  };
}
