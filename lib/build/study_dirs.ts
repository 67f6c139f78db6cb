/**
 * The output directories of a built study, for readers that take
 * directories (`gate sql gatelab.yaml`): every import's and step's
 * `<out>/<id>/` that holds a gatelab output, in study order, then the
 * study-wide tables (`<out>/tables/`) when they were built.
 *
 * @module
 */
import { join } from "node:path";
import { OUTPUT_MARKER } from "../core/atomic_write.ts";
import { parseStudyFile } from "./study_file.ts";
import { resolveStudy, shownPath, type Study } from "./resolve.ts";
import { nearestName } from "../core/nearest_name.ts";
import { formatIssue, type Issue } from "../core/issue.ts";

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
  const study = readStudy(file, cwd);
  if (!("nodes" in study)) return { issues: study.issues };
  const dirs = [...study.nodes.map((n) => n.out), join(study.out, "tables")].filter(built);
  return { dirs: dirs.map((d) => shownPath(cwd, d)) };
}

/** The study file read and resolved, or its issues. */
function readStudy(file: string, cwd: string): Study | { readonly issues: Issue[] } {
  const parsed = parseStudyFile(Deno.readTextFileSync(file), file);
  return parsed.ok ? resolveStudy(parsed.study, { cwd }) : { issues: parsed.issues };
}

/** Whether a directory holds a gatelab output (its marker file). */
function built(dir: string): boolean {
  try {
    return Deno.statSync(join(dir, OUTPUT_MARKER)).isFile;
  } catch {
    return false;
  }
}

/**
 * The output directories of a built study's steps and imports by id, for
 * a notebook that takes `PROJECT = "gatelab.yaml"`: each id's
 * `<out>/<id>/`, absolute, in the order asked (every built one in study
 * order when no ids are given). Throws one message per problem: the study
 * file's own issues, an id the study does not declare (with the nearest
 * one), an output not built yet.
 *
 * @param file The study file (`gatelab.yaml`); relative to the current directory.
 * @param ids The step or import ids; all built ones when omitted or empty.
 * @returns Absolute directories.
 *
 * @example
 * ```ts
 * import { studyStepDirs } from "./study_dirs.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/gatelab.yaml`, "study: s\nsteps:\n  - analyze: g\n  - analyze: h\n");
 * await Deno.mkdir(`${dir}/g`);
 * await Deno.mkdir(`${dir}/h`);
 * await Deno.mkdir(`${dir}/out/g`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/out/g/.gatelab-output.json`, "{}");
 * deepEqual(studyStepDirs(`${dir}/gatelab.yaml`), [`${dir}/out/g`]);
 * throws(() => studyStepDirs(`${dir}/gatelab.yaml`, ["h"]), /h: not built yet/);
 * throws(() => studyStepDirs(`${dir}/gatelab.yaml`, ["gg"]), /gg: no step or import of/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function studyStepDirs(file: string, ids: readonly string[] = []): string[] {
  const study = readStudy(file, Deno.cwd());
  if (!("nodes" in study)) throw new Error(study.issues.map(formatIssue).join("\n"));
  const byId = new Map(study.nodes.map((n) => [n.id, n.out]));
  if (ids.length === 0) return study.nodes.map((n) => n.out).filter(built);
  const problems: string[] = [];
  const dirs = ids.map((id) => {
    const dir = byId.get(id);
    if (dir === undefined) {
      const near = nearestName(id, [...byId.keys()]);
      problems.push(
        `usage_error  ${id}: no step or import of ${file}` +
          (near ? `; did you mean ${near}?` : ""),
      );
    } else if (!built(dir)) {
      problems.push(`usage_error  ${id}: not built yet (${dir}); run gate build ${file}`);
    }
    return dir ?? "";
  });
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return dirs;
}
