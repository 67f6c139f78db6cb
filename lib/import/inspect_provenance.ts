/**
 * The provenance an inspect_ai log's header records, for `gate import
 * inspect` (docs/import.md, "inspect_ai logs"), and the comparison of a
 * masked log's environment with its bare log's that names the task and
 * solver arguments that differ.
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import { sha256Hex } from "../core/sha256.ts";
import { canonicalJson } from "../validate/provenance.ts";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The object without the keys named. */
function without(value: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const k of Object.keys(value)) if (!keys.includes(k)) out[k] = value[k];
  return out;
}

/**
 * What the environment hash covers: the task arguments and the solver
 * arguments without the arm's own (`inspect.arm_args`), the solver's name,
 * and the dataset's name and location. A log without a solver hashes as it
 * did before solvers were covered.
 *
 * @param ev The header's `eval`.
 * @param armArgs The arm's own argument names.
 * @returns The object hashed into `config_sha256`.
 */
export function environmentConfig(ev: Json, armArgs: readonly string[]): Json {
  const dataset = isObject(ev["dataset"]) ? ev["dataset"] : {};
  const taskArgs = isObject(ev["task_args"]) ? ev["task_args"] : {};
  return {
    task_args: without(taskArgs, armArgs),
    dataset: { name: dataset["name"] ?? null, location: dataset["location"] ?? null },
    ...(typeof ev["solver"] === "string" ? { solver: ev["solver"] } : {}),
    ...(isObject(ev["solver_args"]) ? { solver_args: without(ev["solver_args"], armArgs) } : {}),
  };
}

/**
 * The arm's own arguments as this log sets them: each name of `armArgs`
 * found in `eval.task_args` or `eval.solver_args`, with its value.
 */
function armArgValues(ev: Json, armArgs: readonly string[]): Json {
  const out: Json = {};
  for (const from of ["task_args", "solver_args"]) {
    const args = ev[from];
    if (!isObject(args)) continue;
    for (const k of armArgs) if (Object.hasOwn(args, k)) out[`${from}.${k}`] = args[k];
  }
  return out;
}

/**
 * The provenance an inspect_ai header records (docs/import.md): model,
 * endpoint (`model_base_url`), sampling (`model_generate_config`), whether
 * a seed was sent (`seed` in it), environment (task, task version, and the
 * sha256 of {@linkcode environmentConfig}, plus revision and packages), the
 * reward version (the scorers), and under `inspect` the model arguments,
 * dataset, task file, ids and the arm's own arguments. What the header
 * lacks stays undefined, to be written as unrecorded.
 *
 * @param header The log's header.
 * @param armArgs The arm's own argument names (`inspect.arm_args`).
 * @returns The provenance, keyed as the mapping's `provenance`.
 *
 * @example The skill as a task argument, left out of the hash and recorded
 * ```ts
 * import { headerProvenance } from "./inspect_provenance.ts";
 * import { equal, deepEqual } from "node:assert/strict";
 * const ev = (skills?: string[]) => ({ eval: { task: "t", task_args: { level: 2, ...(skills ? { skills } : {}) } } });
 * const bare = headerProvenance(ev(), ["skills"]);
 * const masked = headerProvenance(ev(["a.v1"]), ["skills"]);
 * // deno-lint-ignore no-explicit-any
 * equal((bare.environment as any).config_sha256, (masked.environment as any).config_sha256);
 * deepEqual(masked.inspect, { arm_args: { "task_args.skills": ["a.v1"] } });
 * ```
 */
export function headerProvenance(header: Json, armArgs: readonly string[]): Json {
  const ev = isObject(header["eval"]) ? header["eval"] : {};
  const out: Json = {};
  if (typeof ev["model"] === "string") out["model"] = ev["model"];
  if (typeof ev["model_base_url"] === "string") out["endpoint"] = ev["model_base_url"];
  const config = ev["model_generate_config"];
  if (isObject(config)) {
    out["sampling"] = config;
    out["send_seed"] = Object.hasOwn(config, "seed") && config["seed"] !== null;
  }
  if (typeof ev["task"] === "string") {
    out["environment"] = {
      name: ev["task"],
      version: String(ev["task_version"] ?? ""),
      config_sha256: sha256Hex(
        new TextEncoder().encode(canonicalJson(environmentConfig(ev, armArgs))),
      ),
      ...(ev["revision"] !== undefined ? { revision: ev["revision"] } : {}),
      ...(ev["packages"] !== undefined ? { packages: ev["packages"] } : {}),
    };
  }
  const scorers = Array.isArray(ev["scorers"]) ? ev["scorers"] as Json[] : [];
  if (scorers.length > 0) out["reward_version"] = scorers.map((s) => String(s["name"])).join("+");
  const extra: Json = {};
  for (const k of ["model_args", "dataset", "task_file", "task_id", "run_id", "eval_id"]) {
    if (ev[k] !== undefined) extra[k] = ev[k];
  }
  if (armArgs.length > 0) extra["arm_args"] = armArgValues(ev, armArgs);
  out["inspect"] = extra;
  return out;
}

/** A value as a message shows it: canonical JSON, cut at 60 characters. */
function shown(v: unknown): string {
  const text = v === undefined ? "(absent)" : canonicalJson(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * The leaves in which two environment configurations differ, as dotted
 * paths under `eval` (`task_args.skills`) with both values.
 */
function differences(a: unknown, b: unknown, path: string, out: [string, unknown, unknown][]) {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) differences(a[k], b[k], path === "" ? k : `${path}.${k}`, out);
    return;
  }
  if (canonicalJson(a) !== canonicalJson(b)) out.push([path, a, b]);
}

/**
 * Compares a masked log's environment configuration with its bare log's
 * (both without the arm's own arguments): when they differ, one
 * `provenance_mismatch` naming every differing task argument, solver
 * argument, solver or dataset field with both values, and, for arguments,
 * the mapping key that declares them the arm's own. Validation would
 * refuse the same pair with only the two hashes.
 *
 * @param bare The bare log's file and header `eval`.
 * @param masked The masked log's file and header `eval`.
 * @param armArgs The arm's own argument names.
 * @returns The issue, or null when the configurations agree.
 *
 * @example
 * ```ts
 * import { environmentDifference } from "./inspect_provenance.ts";
 * import { equal } from "node:assert/strict";
 * const issue = environmentDifference(
 *   { file: "bare.eval", ev: { task_args: { level: 2 } } },
 *   { file: "masked.eval", ev: { task_args: { level: 2, skills: ["a.v1"] } } },
 *   [],
 * );
 * equal(issue?.path, "eval.task_args.skills");
 * equal(issue?.message, 'the environment differs from the bare log\'s (bare.eval) in eval.task_args.skills (bare (absent), masked ["a.v1"]); a masked log may differ from its bare log only in the skill: if this argument switches the skill on, declare it the arm\'s own in the mapping: "inspect": {"arm_args": ["skills"]}');
 * ```
 */
export function environmentDifference(
  bare: { readonly file: string; readonly ev: Json },
  masked: { readonly file: string; readonly ev: Json },
  armArgs: readonly string[],
): Issue | null {
  const found: [string, unknown, unknown][] = [];
  differences(
    environmentConfig(bare.ev, armArgs),
    environmentConfig(masked.ev, armArgs),
    "",
    found,
  );
  if (found.length === 0) return null;
  const list = found.map(([path, a, b]) => `eval.${path} (bare ${shown(a)}, masked ${shown(b)})`);
  const args = [
    ...new Set(
      found.filter(([p]) => /^(task|solver)_args\./.test(p)).map(([p]) =>
        p.slice(p.indexOf(".") + 1).split(".")[0]!
      ),
    ),
  ];
  const hint = args.length === 0
    ? ""
    : `: if ${
      args.length === 1 ? "this argument switches" : "these arguments switch"
    } the skill on, declare ${
      args.length === 1 ? "it" : "them"
    } the arm's own in the mapping: "inspect": {"arm_args": ${
      JSON.stringify([...armArgs, ...args])
    }}`;
  return {
    code: "provenance_mismatch",
    message: `the environment differs from the bare log's (${bare.file}) in ${
      list.join(", ")
    }; a masked log may differ from its bare log only in the skill${hint}`,
    file: masked.file,
    path: `eval.${found[0]![0]}`,
  };
}

/** Header fields the mapping's `provenance` cannot replace when a log records them. */
const HEADER_RECORDED: readonly (readonly [string, string])[] = [
  ["model", "eval.model"],
  ["endpoint", "eval.model_base_url"],
  ["sampling", "eval.model_generate_config"],
  ["send_seed", "eval.model_generate_config.seed"],
  ["environment", "eval.task, eval.task_version, eval.task_args and eval.dataset"],
  ["reward_version", "eval.scorers"],
];

/**
 * What the mapping's `provenance` would replace of what a log's header
 * records: one `schema_error` per such key (replacing it would hide a
 * difference between the arms); for the environment, the way that is meant
 * instead (`inspect.arm_args`).
 *
 * @param given The mapping's `provenance`.
 * @param logs Each log's file and header provenance ({@linkcode headerProvenance}).
 * @param mappingFile The mapping file, to name in the issues.
 * @returns The issues.
 *
 * @example
 * ```ts
 * import { mappingOverrides } from "./inspect_provenance.ts";
 * import { equal } from "node:assert/strict";
 * const issues = mappingOverrides({ model: "m" }, [{ file: "bare.eval", provenance: { model: "x" } }], "map.json");
 * equal(issues[0]?.message, "the inspect_ai log bare.eval records the model (eval.model); the mapping cannot replace it");
 * ```
 */
export function mappingOverrides(
  given: Json,
  logs: readonly { readonly file: string; readonly provenance: Json }[],
  mappingFile?: string,
): Issue[] {
  const issues: Issue[] = [];
  for (const [key, where] of HEADER_RECORDED) {
    if (given[key] === undefined) continue;
    const recording = logs.find((l) => l.provenance[key] !== undefined);
    if (recording === undefined) continue;
    issues.push({
      code: "schema_error",
      message: `the inspect_ai log ${recording.file} records ${
        key === "reward_version" ? "the reward version" : `the ${key}`
      } (${where}); the mapping cannot replace it${
        key === "environment"
          ? ': name the task arguments that are the arm\'s own in "inspect": {"arm_args": [...]} instead'
          : ""
      }`,
      ...(mappingFile !== undefined ? { file: mappingFile } : {}),
      path: `provenance.${key}`,
    });
  }
  return issues;
}
