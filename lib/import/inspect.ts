import { basename } from "node:path";
import type { Issue } from "../core/issue.ts";
import { DEFAULT_MAPPING, type ImportMapping } from "./mapping.ts";
import type { ImportRow } from "./rows.ts";
import { factsReader, logRows, type SampleFacts } from "./inspect_samples.ts";
import { buildImport } from "./build.ts";
import { importDocument, type ImportResult, type ImportSource } from "./import_tables.ts";
import { DEFAULT_MAX_ENTRY_BYTES, type InspectLog, readInspectLog } from "./inspect_log.ts";
import { environmentDifference, headerProvenance, mappingOverrides } from "./inspect_provenance.ts";

export { scoreNumber } from "./inspect_samples.ts";

/** Options of {@linkcode importInspectLogs}. */
export interface ImportInspectOptions {
  /** The mapping (its `inspect` paths, versions, budget, stage, constant provenance). */
  readonly mapping?: ImportMapping;
  /** The mapping file and its sha256, for import.json. */
  readonly mappingFile?: { readonly file: string; readonly sha256: string } | null;
  /** The command line, for `generator`. */
  readonly command?: string;
  /** The largest part of a log read (`--max-entry-bytes`; {@linkcode DEFAULT_MAX_ENTRY_BYTES}). */
  readonly maxEntryBytes?: number;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * `gate import inspect`: one bare inspect_ai log and one or more masked
 * logs (each masked log is one gate, a round named after its file) become
 * contract directories and import.json, like `gate import table`. Defaults
 * (docs/import.md): task id = the sample's `id`, sample id = `epoch - 1`,
 * reward = the first scorer's value, components = the other scorers
 * (`r_<name>`, or `r_<key>` of a dict-valued score), injected ids =
 * `metadata.injected` (a list, or a mask object); the mapping's `inspect`
 * paths override them. Each of a sample's `error_retries` is a failed
 * attempt before it; a sample that ended in an `error` has no completed
 * attempt and is refused (`coverage_incomplete`, as validation would).
 * Provenance comes from each log's header (the arm's own task arguments,
 * `inspect.arm_args`, left out of the environment and recorded); the
 * planned tasks from `eval.dataset.sample_ids`. Logs are read with bounded
 * memory (lib/import/inspect_log.ts).
 *
 * @param bare The bare log.
 * @param masked The masked logs, one per round.
 * @param options Mapping, mapping file, command line, part size limit.
 * @returns The directories and import.json (`importFiles`: their bytes), or the issues.
 */
export async function importInspectLogs(
  bare: string,
  masked: readonly string[],
  options: ImportInspectOptions = {},
): Promise<{ ok: true; value: ImportResult } | { ok: false; issues: Issue[] }> {
  const mapping = options.mapping ?? DEFAULT_MAPPING;
  const map = mapping.inspect;
  const armArgs = map?.arm_args ?? [];
  const read = await readLogs(bare, masked, mapping, options);
  if (!Array.isArray(read)) return read;
  const logs = read;
  const issues: Issue[] = [];
  const provenance = new Map<string, Json>();
  for (const { log, arm, round } of logs) {
    provenance.set(`${arm}:${round ?? ""}`, headerProvenance(log.header, armArgs));
  }
  for (
    const issue of mappingOverrides(
      mapping.provenance ?? {},
      logs.map(({ log, arm, round }) => ({
        file: log.file,
        provenance: provenance.get(`${arm}:${round ?? ""}`)!,
      })),
      options.mappingFile?.file,
    )
  ) issues.push(issue);
  const bareLog = logs[0]!.log;
  for (const { log } of logs.slice(1)) {
    const difference = environmentDifference(
      { file: bareLog.file, ev: evalOf(bareLog) },
      { file: log.file, ev: evalOf(log) },
      armArgs,
    );
    if (difference !== null) issues.push(difference);
  }

  const rows: ImportRow[] = [];
  const components: string[] = [];
  const planned = new Map<string, string[]>();
  for (const { log, arm, round, facts } of logs) {
    const ev = evalOf(log);
    logRows(log.file, arm, round, ev, facts, mapping, { rows, issues, components });
    // The plan the header records: every planned sample id has a sample (errored ones too).
    const sampleIds = isObject(ev["dataset"]) ? ev["dataset"]["sample_ids"] : undefined;
    if (!Array.isArray(sampleIds)) continue;
    planned.set(log.file, sampleIds.map(String));
    const seen = new Set(facts.map((f) => String(f.id)));
    for (const id of planned.get(log.file)!) {
      if (seen.has(id)) continue;
      issues.push({
        code: "coverage_incomplete",
        message: `planned sample ${id} (header eval.dataset.sample_ids) has no sample in the log`,
        file: log.file,
        path: "eval.dataset.sample_ids",
      });
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
    rows: log.samples,
    sha256: log.sha256,
  }));
  const document = importDocument({
    kind: "inspect",
    sources,
    mappingFile: options.mappingFile ?? null,
    build: built.value,
    columns: [{
      reward: map?.reward ?? "the first scorer's value",
      components: map?.components ?? "the other scorers (r_<name>)",
      injected: map?.injected ?? "metadata.injected",
      task_id: "id",
      sample_id: "epoch - 1",
      ...(armArgs.length > 0 ? { arm_args: armArgs } : {}),
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

/** One log as read: its header and samples' facts, its arm and round (null for bare). */
interface ReadLog {
  readonly log: InspectLog;
  readonly arm: "bare" | "masked";
  readonly round: string | null;
  readonly facts: SampleFacts[];
}

/** A log header's `eval` (scorers, task arguments, dataset), or an empty one. */
function evalOf(log: InspectLog): Json {
  return isObject(log.header["eval"]) ? log.header["eval"] : {};
}

/**
 * Reads the bare log, then each masked log (its round the file's stem,
 * made unique with `-2`, `-3`, ...), keeping each sample's facts; any log
 * that cannot be read is an issue and nothing is returned.
 */
async function readLogs(
  bare: string,
  masked: readonly string[],
  mapping: ImportMapping,
  options: ImportInspectOptions,
): Promise<ReadLog[] | { ok: false; issues: Issue[] }> {
  const readFacts = factsReader(mapping);
  const issues: Issue[] = [];
  const logs: ReadLog[] = [];
  const rounds = new Set<string>();
  const given: (readonly [string, "bare" | "masked"])[] = [
    [bare, "bare"],
    ...masked.map((m) => [m, "masked"] as const),
  ];
  for (const [file, arm] of given) {
    const facts: SampleFacts[] = [];
    const read = await readInspectLog(
      file,
      options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES,
      (sample, number, entry) => facts.push(readFacts(sample, number, entry)),
    );
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
    logs.push({ log: read, arm, round, facts });
  }
  return issues.length > 0 ? { ok: false, issues } : logs;
}
