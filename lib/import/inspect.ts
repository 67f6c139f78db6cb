import { basename } from "node:path";
import type { Issue } from "../core/issue.ts";
import { sha256Hex } from "../core/sha256.ts";
import { parseJsonText } from "../load/json_text.ts";
import { canonicalJson } from "../validate/provenance.ts";
import { DEFAULT_MAPPING, type ImportMapping } from "./mapping.ts";
import type { ImportRow } from "./rows.ts";
import { buildImport } from "./build.ts";
import { importDocument, type ImportResult, type ImportSource } from "./import_tables.ts";

/** Options of {@linkcode importInspectLogs}. */
export interface ImportInspectOptions {
  /** The mapping (its `inspect` paths, versions, budget, stage, constant provenance). */
  readonly mapping?: ImportMapping;
  /** The mapping file and its sha256, for import.json. */
  readonly mappingFile?: { readonly file: string; readonly sha256: string } | null;
  /** The command line, for `generator`. */
  readonly command?: string;
}

/** An inspect_ai log as read: its header (`eval`, `plan`, ...) and its samples. */
interface InspectLog {
  readonly file: string;
  readonly header: Record<string, unknown>;
  readonly samples: readonly Record<string, unknown>[];
  readonly sha256: string;
  readonly format: "eval" | "json";
}

/**
 * Reads an inspect_ai log: a `.eval` file (a zip holding `header.json` and
 * one `samples/<id>_epoch_<n>.json` per sample, read with fflate) or a
 * `.json` file (one document with `eval`, `plan`, `results`, `stats` and
 * `samples`). An unreadable, truncated or foreign file is a `parse_error`
 * naming it.
 *
 * @param file The log file.
 * @returns The log, or the issue.
 */
export async function readInspectLog(file: string): Promise<InspectLog | Issue> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (error) {
    return { code: "io_error", message: `cannot read: ${error}`, file };
  }
  const sha256 = sha256Hex(bytes);
  const json = (text: Uint8Array, what: string): Record<string, unknown> | string => {
    let decoded: string;
    try {
      decoded = new TextDecoder("utf-8", { fatal: true }).decode(text);
    } catch {
      return `${what} is not valid UTF-8`;
    }
    const parsed = parseJsonText(decoded);
    if (!parsed.ok) return `${what} is ${parsed.why}`;
    const v = parsed.value;
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      return `${what} is not a JSON object`;
    }
    return v as Record<string, unknown>;
  };
  if (file.toLowerCase().endsWith(".eval")) {
    const { unzipSync } = await import("npm:fflate@0.8.3");
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(bytes);
    } catch (error) {
      return {
        code: "parse_error",
        message: `cannot read as an inspect_ai .eval log (not a zip, or truncated): ${
          error instanceof Error ? error.message : error
        }`,
        file,
      };
    }
    const headerBytes = entries["header.json"];
    if (!headerBytes) {
      return {
        code: "parse_error",
        message:
          "the .eval log has no header.json (an unfinished run? inspect_ai writes it when the eval ends)",
        file,
      };
    }
    const header = json(headerBytes, "header.json");
    if (typeof header === "string") return { code: "parse_error", message: header, file };
    const samples: Record<string, unknown>[] = [];
    for (const [name, data] of Object.entries(entries)) {
      if (!/^samples\/.+\.json$/.test(name)) continue;
      const s = json(data, name);
      if (typeof s === "string") return { code: "parse_error", message: s, file, path: name };
      samples.push(s);
    }
    return { file, header, samples, sha256, format: "eval" };
  }
  const doc = json(bytes, "the log");
  if (typeof doc === "string") return { code: "parse_error", message: doc, file };
  const samples = Array.isArray(doc["samples"]) ? doc["samples"] as Record<string, unknown>[] : [];
  return { file, header: doc, samples, sha256, format: "json" };
}

/** Reads a dotted path (`scores.match.value`) out of a JSON value; undefined when absent. */
function pathValue(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const key of path.split(".")) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * A score value as a number, by inspect_ai's own `value_to_float` rule:
 * numbers as they are, booleans 1/0, `C` (correct) 1, `I` (incorrect) 0,
 * `P` (partial) 0.5, `N` (no answer) 0, numeric text as its number; any
 * other value is not a number (undefined).
 */
export function scoreNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") {
    const letters: Record<string, number> = { C: 1, I: 0, P: 0.5, N: 0 };
    if (Object.hasOwn(letters, v)) return letters[v];
    const t = v.trim().toLowerCase();
    if (t === "yes" || t === "true") return 1;
    if (t === "no" || t === "false") return 0;
    if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  }
  return undefined;
}

/**
 * The provenance an inspect_ai header records (docs/import.md): model,
 * endpoint (`model_base_url`), sampling (`model_generate_config`), whether
 * a seed was sent (`seed` in it), environment (task, task version, and a
 * hash of task arguments and dataset), the reward version (the scorers),
 * and, kept beside them, model_args, dataset, revision and packages. What
 * the header lacks stays undefined, to be written as unrecorded.
 */
function headerProvenance(header: Record<string, unknown>): Record<string, unknown> {
  const ev = (header["eval"] ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof ev["model"] === "string") out["model"] = ev["model"];
  if (typeof ev["model_base_url"] === "string") out["endpoint"] = ev["model_base_url"];
  const config = ev["model_generate_config"];
  if (config !== null && typeof config === "object" && !Array.isArray(config)) {
    out["sampling"] = config;
    out["send_seed"] = Object.hasOwn(config, "seed") &&
      (config as Record<string, unknown>)["seed"] !== null;
  }
  if (typeof ev["task"] === "string") {
    const dataset = (ev["dataset"] ?? {}) as Record<string, unknown>;
    out["environment"] = {
      name: ev["task"],
      version: String(ev["task_version"] ?? ""),
      config_sha256: sha256Hex(
        new TextEncoder().encode(canonicalJson({
          task_args: ev["task_args"] ?? {},
          dataset: { name: dataset["name"] ?? null, location: dataset["location"] ?? null },
        })),
      ),
      ...(ev["revision"] !== undefined ? { revision: ev["revision"] } : {}),
      ...(ev["packages"] !== undefined ? { packages: ev["packages"] } : {}),
    };
  }
  const scorers = Array.isArray(ev["scorers"]) ? ev["scorers"] as Record<string, unknown>[] : [];
  if (scorers.length > 0) out["reward_version"] = scorers.map((s) => String(s["name"])).join("+");
  const extra: Record<string, unknown> = {};
  for (const k of ["model_args", "dataset", "task_file", "task_id", "run_id", "eval_id"]) {
    if (ev[k] !== undefined) extra[k] = ev[k];
  }
  out["inspect"] = extra;
  return out;
}

/**
 * `gate import inspect`: one bare inspect_ai log and one or more masked
 * logs (each masked log is one gate, a round named after its file) become
 * contract directories and import.json, like `gate import table`. Defaults
 * (docs/import.md): task id = the sample's `id`, sample id = `epoch - 1`,
 * reward = the first scorer's value, components = the other scorers
 * (`r_<name>`, or `r_<key>` of a dict-valued score), injected ids =
 * `metadata.injected`; the mapping's `inspect` paths override them. A
 * sample with an `error` is a failed attempt. Provenance comes from each
 * log's header; the planned tasks from `eval.dataset.sample_ids`.
 *
 * @param bare The bare log.
 * @param masked The masked logs, one per round.
 * @param options Mapping, mapping file, command line.
 * @returns The directories and import.json (`importFiles`: their bytes), or the issues.
 */
export async function importInspectLogs(
  bare: string,
  masked: readonly string[],
  options: ImportInspectOptions = {},
): Promise<{ ok: true; value: ImportResult } | { ok: false; issues: Issue[] }> {
  const mapping = options.mapping ?? DEFAULT_MAPPING;
  const issues: Issue[] = [];
  const logs: { log: InspectLog; arm: "bare" | "masked"; round: string | null }[] = [];
  const rounds = new Set<string>();
  const given: (readonly [string, "bare" | "masked"])[] = [
    [bare, "bare"],
    ...masked.map((m) => [m, "masked"] as const),
  ];
  for (const [file, arm] of given) {
    const read = await readInspectLog(file);
    if ("code" in read) {
      issues.push(read);
      continue;
    }
    let round: string | null = null;
    if (arm === "masked") {
      round = basename(file).replace(/\.(eval|json)$/i, "");
      for (let n = 2; rounds.has(round); n++) round = `${round}-${n}`;
      rounds.add(round);
    }
    logs.push({ log: read, arm, round });
  }
  if (issues.length > 0) return { ok: false, issues };

  const rows: ImportRow[] = [];
  const components: string[] = [];
  const addComponent = (c: string) => {
    if (!components.includes(c)) components.push(c);
  };
  const provenance = new Map<string, Record<string, unknown>>();
  const planned = new Map<string, string[]>();
  const checkpoint = mapping.provenance?.checkpoint_id ?? null;
  for (const { log, arm, round } of logs) {
    const ev = (log.header["eval"] ?? {}) as Record<string, unknown>;
    provenance.set(`${arm}:${round ?? ""}`, headerProvenance(log.header));
    const sampleIds = (ev["dataset"] as Record<string, unknown> | undefined)?.["sample_ids"];
    if (Array.isArray(sampleIds)) planned.set(log.file, sampleIds.map(String));
    const scorers = Array.isArray(ev["scorers"])
      ? (ev["scorers"] as Record<string, unknown>[]).map((s) => String(s["name"]))
      : [];
    const seed = (ev["model_generate_config"] as Record<string, unknown> | undefined)?.["seed"];
    log.samples.forEach((sample, i) => {
      const row = i + 1;
      const bad = (path: string, message: string, code: Issue["code"] = "schema_error") =>
        issues.push({ code, message, file: log.file, line: row, path });
      const id = sample["id"];
      const epoch = sample["epoch"];
      if (typeof id !== "string" && typeof id !== "number") return bad("id", "sample has no id");
      if (typeof epoch !== "number" || !Number.isInteger(epoch) || epoch < 1) {
        return bad("epoch", `epoch ${JSON.stringify(epoch)} is not an integer >= 1`);
      }
      const error = sample["error"];
      const failed = error !== undefined && error !== null;
      const scores = (sample["scores"] ?? {}) as Record<string, Record<string, unknown>>;
      const names = Object.keys(scores);
      const order = [
        ...scorers.filter((s) => names.includes(s)),
        ...names.filter((n) => !scorers.includes(n)),
      ];
      let reward: number | null = null;
      const rewards: Record<string, number> = {};
      const take = (path: string, name: string | null) => {
        const raw = pathValue(sample, path);
        const x = scoreNumber(raw);
        if (x === undefined || !Number.isFinite(x)) {
          if (!failed) {
            bad(
              path,
              `${name === null ? "reward" : name} ${
                JSON.stringify(raw) ?? "(absent)"
              } is not a finite number`,
              "reward_incomplete",
            );
          }
          return;
        }
        if (name === null) reward = x;
        else {
          rewards[name] = x;
          addComponent(name);
        }
      };
      const map = mapping.inspect;
      if (map?.reward !== undefined) take(map.reward, null);
      if (map?.components !== undefined) {
        for (const [name, path] of Object.entries(map.components)) take(path, name);
      } else {
        order.forEach((scorer, k) => {
          const value = scores[scorer]?.["value"];
          if (value !== null && typeof value === "object" && !Array.isArray(value)) {
            for (const key of Object.keys(value)) take(`scores.${scorer}.value.${key}`, `r_${key}`);
          } else if (k > 0 || map?.reward !== undefined) {
            take(`scores.${scorer}.value`, `r_${scorer}`);
          }
        });
      }
      if (map?.reward === undefined && !failed) {
        const first = order[0];
        const value = first === undefined ? undefined : scores[first]?.["value"];
        if (first === undefined) {
          bad(
            "scores",
            "sample has no score (the first scorer's value is the reward)",
            "reward_incomplete",
          );
        } else if (value !== null && typeof value === "object") {
          bad(
            `scores.${first}.value`,
            `the first scorer's value is a dict: name the reward in the mapping (inspect.reward, e.g. "scores.${first}.value.<key>")`,
            "reward_incomplete",
          );
        } else take(`scores.${first}.value`, null);
      }
      const injectedPath = map?.injected ?? "metadata.injected";
      const rawInjected = pathValue(sample, injectedPath);
      let injected: string[] = [];
      if (rawInjected !== undefined && rawInjected !== null) {
        if (
          !Array.isArray(rawInjected) ||
          !rawInjected.every((x) => typeof x === "string" && x !== "")
        ) {
          bad(injectedPath, `${injectedPath} is not a list of version ids`);
        } else injected = rawInjected as string[];
      } else if (arm === "masked" && !failed) {
        bad(
          injectedPath,
          `a masked sample has no ${injectedPath} (the version ids placed in its prompt)`,
        );
      }
      const message = failed
        ? String((error as Record<string, unknown>)["message"] ?? JSON.stringify(error))
        : null;
      rows.push({
        file: log.file,
        row,
        split: mapping.split ?? "val",
        task_id: String(id),
        sample_id: epoch - 1,
        arm,
        round,
        checkpoint_id: checkpoint,
        attempt: 0,
        status: failed ? "failed" : "completed",
        reward: failed ? null : reward,
        rewards: failed ? {} : rewards,
        job_seed: typeof seed === "number" && Number.isInteger(seed) ? seed : null,
        injected,
        mask: null,
        error: message,
        extra: { inspect_uuid: sample["uuid"] ?? null },
      });
    });
  }
  // The plan the header records: every planned sample id has samples.
  for (const { log } of logs) {
    const ids = planned.get(log.file);
    if (!ids) continue;
    const seen = new Set(rows.filter((r) => r.file === log.file).map((r) => r.task_id));
    for (const id of ids) {
      if (!seen.has(id)) {
        issues.push({
          code: "coverage_incomplete",
          message: `planned sample ${id} (header eval.dataset.sample_ids) has no sample in the log`,
          file: log.file,
          path: "eval.dataset.sample_ids",
        });
      }
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  const built = buildImport(rows, mapping, {
    components,
    maskVersions: [],
    provenanceOf: (arm, round) => provenance.get(`${arm}:${round ?? ""}`),
    tasksRecorded: logs.every(({ log }) => planned.has(log.file)),
    ...(planned.has(bare) ? { plannedTasks: planned.get(bare)! } : {}),
  });
  if (!built.ok) return built;
  const sources: ImportSource[] = logs.map(({ log }) => ({
    file: log.file,
    format: log.format,
    rows: log.samples.length,
    sha256: log.sha256,
  }));
  const document = importDocument({
    kind: "inspect",
    sources,
    mappingFile: options.mappingFile ?? null,
    build: built.value,
    columns: [{
      reward: mapping.inspect?.reward ?? "the first scorer's value",
      components: mapping.inspect?.components ?? "the other scorers (r_<name>)",
      injected: mapping.inspect?.injected ?? "metadata.injected",
      task_id: "id",
      sample_id: "epoch - 1",
    }],
    command: options.command ?? "gate import inspect",
  });
  return {
    ok: true,
    value: {
      build: built.value,
      document,
      sources,
      rows: rows.length,
    },
  };
}
