/**
 * Figures as files: `<name>.svg` always, `<name>.png` too where the
 * `rsvg-convert` tool (Debian librsvg2-bin) exists and may be run.
 *
 * @module
 */
import type { Figure } from "./render.ts";

/**
 * Converts SVG text to PNG bytes with `rsvg-convert` (white background).
 * Returns `null`, without prompting, when running subprocesses is not
 * permitted (e.g. `deno task gate`, which has no `--allow-run`) or the tool
 * is not installed.
 *
 * @param svg Standalone SVG text.
 * @returns PNG bytes, or `null` when the converter is unavailable.
 * @throws {Error} When the converter runs but fails.
 *
 * @example
 * ```ts
 * import { svgToPng } from "./figure_files.ts";
 * import { ok } from "node:assert/strict";
 * const png = await svgToPng('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
 * ok(png === null || (png[1] === 0x50 && png[2] === 0x4e && png[3] === 0x47)); // "PNG"
 * ```
 */
export async function svgToPng(svg: string): Promise<Uint8Array | null> {
  const permission = Deno.permissions.querySync({ name: "run", command: "rsvg-convert" });
  if (permission.state !== "granted") return null;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("rsvg-convert", {
      args: ["--format=png", "--background-color=white"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(svg));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  if (code !== 0) {
    throw new Error(
      `Cannot convert SVG to PNG: rsvg-convert exited with ${code}: ${
        new TextDecoder().decode(stderr).trim()
      }`,
    );
  }
  return stdout;
}

/** Options of {@linkcode figureFiles}. */
export interface FigureFilesOptions {
  /**
   * Whether to add PNG files where `rsvg-convert` is available.
   * @default {true}
   */
  readonly png?: boolean;
}

/**
 * The files of a set of figures, ready for `writeFilesAtomic`: `<name>.svg`
 * for each figure, and `<name>.png` when PNG conversion is available.
 *
 * @param figures Figures with distinct names.
 * @param options Whether to add PNGs.
 * @returns File name to contents.
 * @throws {RangeError} When two figures share a name.
 *
 * @example
 * ```ts
 * import { figureFiles } from "./figure_files.ts";
 * import { deepEqual } from "node:assert/strict";
 * const files = await figureFiles([{ name: "f", title: "F", svg: "<svg/>" }], { png: false });
 * deepEqual(Object.keys(files), ["f.svg"]);
 * ```
 */
export async function figureFiles(
  figures: readonly Figure[],
  options: FigureFilesOptions = {},
): Promise<Record<string, string | Uint8Array>> {
  const files: Record<string, string | Uint8Array> = {};
  for (const figure of figures) {
    if (`${figure.name}.svg` in files) {
      throw new RangeError(`Cannot write figures: two figures are named "${figure.name}"`);
    }
    files[`${figure.name}.svg`] = figure.svg + "\n";
    if (options.png ?? true) {
      const png = await svgToPng(figure.svg);
      if (png) files[`${figure.name}.png`] = png;
    }
  }
  return files;
}
