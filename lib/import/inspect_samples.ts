/**
 * What `gate import inspect` reads from each inspect_ai sample
 * (docs/import.md, "inspect_ai logs"): the facts kept of a sample while its
 * log is read (never its messages or events), and the import rows they
 * become once the log's header is known: the retried errors (and the
 * errored records a later record of the same sample superseded) as failed
 * attempts, then the sample's own attempt. An errored sample, two
 * different records of one sample neither of which is an errored run the
 * other re-ran, and masked samples without injected ids are refused.
 *
 * @module
 */
import { basename } from "node:path";
import type { Issue } from "../core/issue.ts";
import type { ImportMapping } from "./mapping.ts";
import type { ImportRow } from "./rows.ts";
import { canonicalJson } from "../validate/provenance.ts";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
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

/** What the import keeps of one sample (never its messages or events). */
export interface SampleFacts {
  /** The sample's 1-based number in the log. */
  readonly number: number;
  /** The zip entry it came from (null in a `.json` log). */
  readonly entry: string | null;
  readonly id: unknown;
  readonly epoch: unknown;
  readonly error: unknown;
  /** `error_retries`: the errors of attempts inspect_ai retried. */
  readonly retries: unknown;
  /** Scorer name to `{value}` (the rest of each score is not kept). */
  readonly scores: Json;
  /** The values at the mapping's paths (reward, components, injected ids). */
  readonly values: ReadonlyMap<string, unknown>;
  readonly uuid: unknown;
  /** When the injected path holds nothing: the metadata keys, and those that hold id lists. */
  readonly metadata: { readonly keys: readonly string[]; readonly lists: readonly string[] } | null;
}

/**
 * The version ids of an injected value: a list of ids, or a mask object
 * `{"<version_id>": 0 | 1}` (true/false too), whose keys set to 1 are the
 * ids; why not otherwise.
 */
function injectedIds(raw: unknown): readonly string[] | string {
  if (Array.isArray(raw)) {
    return raw.every((x) => typeof x === "string" && x !== "")
      ? raw as string[]
      : "is not a list of version ids";
  }
  if (isObject(raw)) {
    const ids: string[] = [];
    for (const [k, v] of Object.entries(raw)) {
      if (v === 1 || v === true) ids.push(k);
      else if (v !== 0 && v !== false) {
        return `is a mask whose value for ${JSON.stringify(k)} is ${JSON.stringify(v)}, not 0 or 1`;
      }
    }
    return ids;
  }
  return "is neither a list of version ids nor a mask object {version_id: 0 or 1}";
}

/**
 * The reader of one sample's facts for a mapping: its scores (values only),
 * the values at the mapping's paths (reward, components, injected ids) and,
 * when the injected path holds nothing, the metadata keys the sample has.
 *
 * @param mapping The mapping (its `inspect` paths).
 * @returns A function of the sample, its number in the log and its zip entry.
 *
 * @example
 * ```ts
 * import { factsReader } from "./inspect_samples.ts";
 * import { deepEqual } from "node:assert/strict";
 * const facts = factsReader({ format: "gatelab.import-map/v1" })({ id: 1, epoch: 1, metadata: { skills: ["a.v1"] } }, 1, null);
 * deepEqual(facts.metadata, { keys: ["skills"], lists: ["skills"] });
 * ```
 */
export function factsReader(
  mapping: ImportMapping,
): (sample: Json, number: number, entry: string | null) => SampleFacts {
  const map = mapping.inspect;
  const injectedPath = map?.injected ?? "metadata.injected";
  const paths = [
    ...(map?.reward !== undefined ? [map.reward] : []),
    ...Object.values(map?.components ?? {}),
    injectedPath,
  ];
  return (sample, number, entry) => sampleFacts(sample, number, entry, paths, injectedPath);
}

function sampleFacts(
  sample: Json,
  number: number,
  entry: string | null,
  paths: readonly string[],
  injectedPath: string,
): SampleFacts {
  const scores: Json = {};
  if (isObject(sample["scores"])) {
    for (const [name, score] of Object.entries(sample["scores"])) {
      scores[name] = isObject(score) ? { value: score["value"] } : score;
    }
  }
  const values = new Map(paths.map((p) => [p, pathValue(sample, p)]));
  const injected = values.get(injectedPath);
  let metadata: SampleFacts["metadata"] = null;
  if (injected === undefined || injected === null) {
    const m = isObject(sample["metadata"]) ? sample["metadata"] : {};
    const keys = Object.keys(m);
    metadata = { keys, lists: keys.filter((k) => typeof injectedIds(m[k]) !== "string") };
  }
  return {
    number,
    entry,
    id: sample["id"],
    epoch: sample["epoch"],
    error: sample["error"],
    retries: sample["error_retries"],
    scores,
    values,
    uuid: sample["uuid"] ?? null,
    metadata,
  };
}

function errored(f: SampleFacts): boolean {
  return f.error !== undefined && f.error !== null;
}

/** The messages of the errors inspect_ai retried before this record (`error_retries`). */
function retriedErrors(f: SampleFacts): string[] {
  return Array.isArray(f.retries) ? f.retries.map(errorMessage) : [];
}

/** Everything gatelab reads of a record, as text: two records equal in it are one. */
function readingOf(f: SampleFacts): string {
  return canonicalJson({
    scores: f.scores,
    values: Object.fromEntries(f.values),
    error: f.error ?? null,
    retries: f.retries ?? null,
  });
}

/** An inspect_ai error's message (an EvalError's `message`, or the error text itself). */
function errorMessage(error: unknown): string {
  if (typeof error === "string") return error;
  if (isObject(error) && typeof error["message"] === "string") return error["message"];
  return JSON.stringify(error) ?? String(error);
}

/** Text on one line of at most 80 characters, for a message (formatIssue escapes what control characters remain). */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/** Where one log's rows go. */
export interface LogRowsOut {
  readonly rows: ImportRow[];
  readonly issues: Issue[];
  /** Components in first-seen order over all logs. */
  readonly components: string[];
}

/**
 * The import rows of one log's samples (see the module), with the issues
 * of each sample and, once per log, of the masked samples without injected
 * ids and of a dict-valued first score.
 *
 * @param file The log file.
 * @param arm Its arm.
 * @param round Its round (null for the bare log).
 * @param ev Its header's `eval` (scorers, generate config).
 * @param facts Its samples, as read.
 * @param mapping The mapping (inspect paths, split, checkpoint).
 * @param out Where the rows, issues and components go.
 */
export function logRows(
  file: string,
  arm: "bare" | "masked",
  round: string | null,
  ev: Json,
  facts: readonly SampleFacts[],
  mapping: ImportMapping,
  out: LogRowsOut,
): void {
  const injectedPath = mapping.inspect?.injected ?? "metadata.injected";
  const scorers = Array.isArray(ev["scorers"])
    ? ev["scorers"].map((s) => String(isObject(s) ? s["name"] : s))
    : [];
  const config = ev["model_generate_config"];
  const seed = isObject(config) ? config["seed"] : undefined;
  const jobSeed = typeof seed === "number" && Number.isInteger(seed) ? seed : null;
  const noInjected: SampleFacts[] = [];
  const dictReward: DictReward[] = [];
  const where = (f: SampleFacts) =>
    f.entry === null ? `sample ${f.number}` : `${f.entry}, sample ${f.number}`;
  for (const group of sampleRecords(file, facts, out.issues).values()) {
    const f = group[group.length - 1]!;
    const id = f.id as string | number, epoch = f.epoch as number;
    const bad = (path: string, message: string, code: Issue["code"] = "schema_error") =>
      out.issues.push({ code, message, file, line: f.number, path });
    // Earlier records the same as the last in all gatelab reads are one record; else each must
    // be an errored run the later one re-ran (a failed attempt), never one of two results.
    const earlier = group.slice(0, -1).filter((e) => readingOf(e) !== readingOf(f));
    const conflicting = earlier.find((e) => !errored(e));
    if (conflicting !== undefined) {
      bad(
        "id",
        `sample ${id} epoch ${epoch} is in the log twice with different contents (${
          where(conflicting)
        } and ${
          where(f)
        }), and the earlier is not an errored run that the later re-ran: gatelab refuses rather than choose one`,
        "parse_error",
      );
      continue;
    }
    if (errored(f)) {
      // An errored sample is a failed attempt: its scores (score_on_error) are not a reward.
      bad(
        "error",
        `sample ${id} epoch ${epoch} ended in an error (${
          JSON.stringify(oneLine(errorMessage(f.error)))
        }) and no attempt of it completed, so the ${arm} run has no reward for it; re-run the errored samples (inspect eval-retry ${
          basename(file)
        }) and import the log that holds their retries`,
        "coverage_incomplete",
      );
      continue;
    }
    // The failed attempts before the kept one: the superseded runs' retries and errors, then
    // the kept run's retried errors.
    const failures = [...earlier, f].flatMap((record) =>
      [...retriedErrors(record), ...(record === f ? [] : [errorMessage(record.error)])].map(
        (message) => ({ message, record }),
      )
    );
    const { reward, rewards, dict } = sampleRewards(f, scorers, mapping, bad, out.components);
    if (dict !== undefined) dictReward.push(dict);
    const rawInjected = f.values.get(injectedPath);
    let injected: readonly string[] = [];
    if (rawInjected !== undefined && rawInjected !== null) {
      const ids = injectedIds(rawInjected);
      if (typeof ids === "string") bad(injectedPath, `${injectedPath} ${ids}`);
      else injected = ids;
    } else if (arm === "masked") noInjected.push(f);
    const attempt = (n: number, error: string | null, record: SampleFacts): ImportRow => ({
      file,
      row: record.number,
      split: mapping.split ?? "val",
      task_id: String(id),
      sample_id: epoch - 1,
      arm,
      round,
      checkpoint_id: mapping.provenance?.checkpoint_id ?? null,
      attempt: n,
      status: error === null ? "completed" : "failed",
      reward: error === null ? reward : null,
      rewards: error === null ? rewards : {},
      job_seed: jobSeed,
      injected,
      mask: null,
      error,
      extra: { inspect_uuid: record.uuid },
    });
    failures.forEach(({ message, record }, n) => out.rows.push(attempt(n, message, record)));
    out.rows.push(attempt(failures.length, null, f));
  }
  if (noInjected.length > 0) {
    out.issues.push(missingInjected(file, noInjected, facts.length, injectedPath));
  }
  if (dictReward.length > 0) out.issues.push(dictRewardIssue(file, dictReward, facts.length));
}

/** A sample whose first scorer's value is a dict: the sample, the scorer, the dict's keys. */
type DictReward = readonly [SampleFacts, string, readonly string[]];

/**
 * The records of each sample (id and epoch), in log order: inspect_ai
 * supersedes a sample by writing it again (a requeued errored sample's
 * fresh run); readers take the last. A record without an id or a valid
 * epoch is an issue and belongs to no sample.
 */
function sampleRecords(
  file: string,
  facts: readonly SampleFacts[],
  issues: Issue[],
): Map<string, SampleFacts[]> {
  const records = new Map<string, SampleFacts[]>();
  for (const f of facts) {
    const bad = (path: string, message: string) =>
      issues.push({ code: "schema_error", message, file, line: f.number, path });
    if (typeof f.id !== "string" && typeof f.id !== "number") bad("id", "sample has no id");
    else if (typeof f.epoch !== "number" || !Number.isInteger(f.epoch) || f.epoch < 1) {
      bad("epoch", `epoch ${JSON.stringify(f.epoch)} is not an integer >= 1`);
    } else {
      const key = `${f.id}\u0000${f.epoch}`;
      const list = records.get(key);
      if (list === undefined) records.set(key, [f]);
      else list.push(f);
    }
  }
  return records;
}

/**
 * A sample's reward and components: the mapping's paths when it names
 * them, else the first scorer's value as the reward and every other
 * scorer's (a dict scorer's keys each) as `r_<name>`. A value that is no
 * finite number is `reward_incomplete`; a dict-valued first scorer without
 * a mapped reward is returned as `dict`, for one line per log.
 */
function sampleRewards(
  f: SampleFacts,
  scorers: readonly string[],
  mapping: ImportMapping,
  bad: (path: string, message: string, code: Issue["code"]) => void,
  components: string[],
): { reward: number | null; rewards: Record<string, number>; dict?: DictReward } {
  const map = mapping.inspect;
  const names = Object.keys(f.scores);
  const order = [
    ...scorers.filter((s) => names.includes(s)),
    ...names.filter((n) => !scorers.includes(n)),
  ];
  const valueAt = (path: string) =>
    f.values.has(path) ? f.values.get(path) : pathValue({ scores: f.scores }, path);
  let reward: number | null = null;
  const rewards: Record<string, number> = {};
  const take = (path: string, name: string | null) => {
    const raw = valueAt(path);
    const x = scoreNumber(raw);
    if (x === undefined || !Number.isFinite(x)) {
      bad(
        path,
        `${name === null ? "reward" : name} ${
          JSON.stringify(raw) ?? "(absent)"
        } is not a finite number`,
        "reward_incomplete",
      );
      return;
    }
    if (name === null) reward = x;
    else {
      rewards[name] = x;
      if (!components.includes(name)) components.push(name);
    }
  };
  if (map?.reward !== undefined) take(map.reward, null);
  if (map?.components !== undefined) {
    for (const [name, path] of Object.entries(map.components)) take(path, name);
  } else {
    order.forEach((scorer, k) => {
      const value = (f.scores[scorer] as Json | undefined)?.["value"];
      if (isObject(value)) {
        for (const key of Object.keys(value)) take(`scores.${scorer}.value.${key}`, `r_${key}`);
      } else if (k > 0 || map?.reward !== undefined) {
        take(`scores.${scorer}.value`, `r_${scorer}`);
      }
    });
  }
  if (map?.reward !== undefined) return { reward, rewards };
  const first = order[0];
  const value = first === undefined ? undefined : (f.scores[first] as Json)?.["value"];
  if (first === undefined) {
    bad(
      "scores",
      "sample has no score (the first scorer's value is the reward)",
      "reward_incomplete",
    );
  } else if (isObject(value)) return { reward, rewards, dict: [f, first, Object.keys(value)] };
  else take(`scores.${first}.value`, null);
  return { reward, rewards };
}

/** One line for the log's samples whose first scorer's value is a dict (every sample has the same scorer). */
function dictRewardIssue(file: string, dictReward: readonly DictReward[], total: number): Issue {
  const [f, scorer, keys] = dictReward[0]!;
  return {
    code: "reward_incomplete",
    message:
      `${dictReward.length} of ${total} sample(s) have a dict as the first scorer's value (keys ${
        keys.slice(0, 8).map((k) => JSON.stringify(k)).join(", ")
      }${
        keys.length > 8 ? ", ..." : ""
      }): name the reward in the mapping, e.g. "inspect": {"reward": ${
        JSON.stringify(`scores.${scorer}.value.${keys[0] ?? "<key>"}`)
      }}`,
    file: file,
    line: f.number,
    path: `scores.${scorer}.value`,
  };
}

/**
 * One issue for the masked samples of a log that have no injected ids: how
 * many, the metadata keys they do have, and the mapping key that names the
 * right one (the one key holding id lists, when there is one).
 */
function missingInjected(
  file: string,
  missing: readonly SampleFacts[],
  samples: number,
  injectedPath: string,
): Issue {
  const keys: string[] = [], lists: string[] = [];
  for (const f of missing) {
    for (const k of f.metadata?.keys ?? []) if (!keys.includes(k)) keys.push(k);
    for (const k of f.metadata?.lists ?? []) if (!lists.includes(k)) lists.push(k);
  }
  const shownKeys = keys.slice(0, 8).map((k) => JSON.stringify(k)).join(", ") +
    (keys.length > 8 ? `, ... (${keys.length} keys)` : "");
  const target = lists.length === 1 ? `metadata.${lists[0]}` : "metadata.<key>";
  return {
    code: "schema_error",
    message:
      `${missing.length} of ${samples} masked sample(s) have no ${injectedPath} (the version ids placed in the prompt); ${
        keys.length === 0 ? "they have no metadata" : `their metadata has ${shownKeys}`
      }; name the key that holds them in the mapping: "inspect": {"injected": ${
        JSON.stringify(target)
      }} (a list of version ids, or a mask {"<version_id>": 0 or 1})`,
    file,
    line: missing[0]!.number,
    path: injectedPath,
  };
}
