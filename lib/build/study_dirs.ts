/**
 * The output directories of a built study, for readers that take
 * directories (`gate sql gatelab.yaml`): every import's and step's
 * `<out>/<id>/` that holds a gatelab output, in study order, then the
 * study-wide tables (`<out>/tables/`) when they were built.
 *
 * @module
 */
import { join } from "node:path";
import type { Issue } from "../core/issue.ts";
import { OUTPUT_MARKER } from "../core/atomic_write.ts";
import { parseStudyFile } from "./study_file.ts";
import { resolveStudy, shownPath } from "./resolve.ts";

/**
 * Whether a path given where directories are expected is a study file: a
 * file ending in `.yaml`, `.yml` or `.json`.
 */
export function isStudyFile(path: string): boolean {
  if (!/\.(ya?ml|json)$/i.test(path)) return false;
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The study's built output directories, as paths a user in `cwd` types.
 *
 * @param file The study file as given.
 * @param cwd The directory relative paths resolve against.
 * @returns The directories, or the study file's issues.
 *
 * @example
 * ```ts
 * import { studyOutputDirs } from "./study_dirs.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/gatelab.yaml`, "study: s\nsteps:\n  - analyze: g\n  - analyze: h\n");
 * await Deno.mkdir(`${dir}/g`);
 * await Deno.mkdir(`${dir}/h`);
 * await Deno.mkdir(`${dir}/out/g`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/out/g/.gatelab-output.json`, "{}");
 * deepEqual(studyOutputDirs(`${dir}/gatelab.yaml`, dir), { dirs: ["out/g"] });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function studyOutputDirs(
  file: string,
  cwd: string,
): { readonly dirs: string[] } | { readonly issues: Issue[] } {
  const parsed = parseStudyFile(Deno.readTextFileSync(file), file);
  if (!parsed.ok) return { issues: parsed.issues };
  const study = resolveStudy(parsed.study, { cwd });
  if (!("nodes" in study)) return { issues: study.issues };
  const built = (dir: string) => {
    try {
      return Deno.statSync(join(dir, OUTPUT_MARKER)).isFile;
    } catch {
      return false;
    }
  };
  const dirs = [...study.nodes.map((n) => n.out), join(study.out, "tables")].filter(built);
  return { dirs: dirs.map((d) => shownPath(cwd, d)) };
}
