/**
 * Small inspect_ai logs for the import tests, in inspect_ai's layout
 * (EvalLog of inspect_ai/log/_log.py: a header with `eval`, `plan`,
 * `results`, `stats`, and samples with `id`, `epoch`, `scores`, `metadata`,
 * `error`, `error_retries`, `uuid`): a `.eval` zip written with fflate
 * (header.json, samples/<id>_epoch_<n>.json, summaries.json) or a `.json`
 * document. A toy gate: `tasks` tasks, one epoch, versions a.v1, b.v1 and
 * c.v1 masked in a fixed pattern, one scorer `match` whose value is the
 * reward.
 */
import { zipSync } from "fflate";

// deno-lint-ignore no-explicit-any
export type Json = Record<string, any>;

/** A log: its header and samples. */
export interface ToyLog {
  readonly header: Json;
  readonly samples: Json[];
}

/** The versions present in task `t`'s masked sample (never none). */
export function toyMask(t: number): string[] {
  const bits = [t & 1, (t >> 1) & 1, (t >> 2) & 1 || (t === 0 ? 1 : 0)];
  return ["a.v1", "b.v1", "c.v1"].filter((_, k) => bits[k] === 1);
}

/** The bare and masked rewards of task `t` (a.v1 adds 0.1, b.v1 0.05, c.v1 -0.02). */
export function toyReward(t: number, arm: "bare" | "masked"): number {
  const bare = ((t * 37) % 10) / 10;
  if (arm === "bare") return bare;
  const m = toyMask(t);
  return bare + (m.includes("a.v1") ? 0.1 : 0) + (m.includes("b.v1") ? 0.05 : 0) -
    (m.includes("c.v1") ? 0.02 : 0) + ((t * 13) % 7) / 100;
}

/** A toy log of one arm; `eval` fields and each sample can be changed by the caller. */
export function toyLog(
  arm: "bare" | "masked",
  options: { tasks?: number; eval?: Json; sample?: (s: Json, t: number) => void } = {},
): ToyLog {
  const tasks = options.tasks ?? 20;
  const ids = Array.from({ length: tasks }, (_, t) => `t${String(t).padStart(3, "0")}`);
  const header = {
    version: 2,
    status: "success",
    eval: {
      eval_id: `ev-${arm}`,
      run_id: `run-${arm}`,
      created: "2026-09-01T10:00:00+00:00",
      task: "toy",
      task_version: 1,
      task_args: { level: 2 },
      dataset: { name: "toy", location: "toy.jsonl", samples: tasks, sample_ids: ids },
      model: "toy-model",
      model_generate_config: { temperature: 0.7 },
      model_base_url: "http://localhost:8000/v1",
      config: { epochs: 1 },
      packages: { inspect_ai: "0.3.95" },
      scorers: [{ name: "match", options: {}, metrics: [], metadata: {} }],
      ...options.eval,
    },
    plan: { name: "plan", steps: [{ solver: "generate", params: {} }], config: {} },
    results: { total_samples: tasks, completed_samples: tasks, scores: [] },
    stats: { started_at: "2026-09-01T10:00:00+00:00", completed_at: "2026-09-01T11:00:00+00:00" },
  };
  const samples = ids.map((id, t) => {
    const s: Json = {
      id,
      epoch: 1,
      input: `task ${id}`,
      target: "",
      messages: [],
      scores: { match: { value: toyReward(t, arm), answer: null, explanation: null } },
      metadata: { injected: arm === "bare" ? [] : toyMask(t) },
      store: {},
      events: [],
      uuid: `u-${arm}-${id}`,
    };
    options.sample?.(s, t);
    return s;
  });
  return { header, samples };
}

/** The log as a `.eval` zip (fflate): header.json, one entry per sample, summaries.json. */
export function evalBytes(log: ToyLog): Uint8Array {
  const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  const files: Record<string, Uint8Array> = {};
  for (const s of log.samples) files[`samples/${s.id}_epoch_${s.epoch}.json`] = enc(s);
  files["summaries.json"] = enc(log.samples.map((s) => ({ id: s.id, epoch: s.epoch })));
  files["header.json"] = enc(log.header);
  return zipSync(files);
}

/** The log as a `.json` document. */
export function jsonText(log: ToyLog): string {
  return JSON.stringify({ ...log.header, samples: log.samples });
}

/** Writes a log (by the file's extension) into `dir`. */
export async function writeLog(dir: string, name: string, log: ToyLog): Promise<void> {
  if (name.endsWith(".eval")) await Deno.writeFile(`${dir}/${name}`, evalBytes(log));
  else await Deno.writeTextFile(`${dir}/${name}`, jsonText(log));
}
