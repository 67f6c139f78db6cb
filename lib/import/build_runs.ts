/**
 * The middle phases of an import's build (lib/import/build.ts): rows into
 * bare runs and rounds, attempt numbers and duplicate completed rows, the
 * bare runs' plans, the pairing of each round with its bare run, and each
 * episode's one mask per round.
 *
 * @module
 */
import type { ImportRow } from "./rows.ts";
import { at, bareKey, type BuildState, checkpointKey } from "./build_state.ts";

/**
 * Bare rows by checkpoint and split, masked rows by round (a row without a
 * round: the default round of its checkpoint); a round with rows of two
 * checkpoints or two splits is an error.
 */
export function groupRuns(s: BuildState): void {
  const { rows, mapping } = s;
  const roundKey = (r: ImportRow) =>
    r.round === null ? `\u0001${checkpointKey(r.checkpoint_id)}` : `\u0002${r.round}`;
  const roundFirst = new Map<string, ImportRow>();
  // The run a row belongs to is usually the previous row's: its key and list are reused.
  let bareLast: ImportRow | null = null, bareList: number[] = [];
  let roundLast: ImportRow | null = null, roundK = "";
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.arm === "bare") {
      if (
        bareLast === null || bareLast.checkpoint_id !== r.checkpoint_id ||
        bareLast.split !== r.split
      ) {
        const k = bareKey(r.checkpoint_id, r.split);
        bareList = s.bareRows.get(k) ?? [];
        s.bareRows.set(k, bareList);
        bareLast = r;
      }
      bareList.push(i);
      continue;
    }
    if (
      roundLast === null || roundLast.round !== r.round ||
      (r.round === null && roundLast.checkpoint_id !== r.checkpoint_id)
    ) {
      roundK = roundKey(r);
      roundLast = r;
    }
    const k = roundK;
    const first = roundFirst.get(k);
    if (!first) roundFirst.set(k, r);
    else if (first.checkpoint_id !== r.checkpoint_id) {
      s.issues.push({
        code: "provenance_mismatch",
        message:
          `round "${r.round}" has rows from two checkpoints: "${first.checkpoint_id}" (${first.file} row ${first.row}) and "${r.checkpoint_id}"; one round (one gate) is one checkpoint`,
        ...at(r, mapping.columns?.checkpoint_id ?? "checkpoint_id"),
      });
    } else if (first.split !== r.split) {
      s.issues.push({
        code: "provenance_mismatch",
        message: `round "${
          r.round ?? "(default)"
        }" has rows of two splits: "${first.split}" (${first.file} row ${first.row}) and "${r.split}"; one gate is one split`,
        ...at(r, mapping.columns?.split ?? "split"),
      });
      continue;
    }
    const list = s.roundRows.get(k) ?? [];
    list.push(i);
    s.roundRows.set(k, list);
  }
}

/**
 * Attempt numbers (as recorded, else row order within the episode and
 * run), and a second completed row of one episode in one run is an error.
 */
export function numberAttempts(s: BuildState): void {
  const { rows, episodeOf } = s;
  // Per episode: rows seen in the run so far, and the first completed row (-1: none); reset
  // after each run for the episodes it touched.
  const seenCount = new Int32Array(s.episodes);
  const firstCompleted = new Int32Array(s.episodes).fill(-1);
  const checkRun = (list: readonly number[]) => {
    for (const i of list) {
      const r = rows[i]!;
      const e = episodeOf[i]!;
      const n = seenCount[e]!;
      seenCount[e] = n + 1;
      s.attemptOf[i] = r.attempt ?? n;
      if (r.status !== "completed") continue;
      const f = firstCompleted[e]!;
      if (f >= 0) {
        const first = rows[f]!;
        s.issues.push({
          code: "duplicate_completed",
          message:
            `a second completed row for episode ${r.split}/${r.task_id}/${r.sample_id} (first: ${first.file} row ${first.row}); picking one would bias the result`,
          ...at(r),
        });
      } else firstCompleted[e] = i;
    }
    for (const i of list) {
      seenCount[episodeOf[i]!] = 0;
      firstCompleted[episodeOf[i]!] = -1;
    }
  };
  for (const list of s.bareRows.values()) checkRun(list);
  for (const list of s.roundRows.values()) checkRun(list);
}

/**
 * Each bare run's plan: its tasks in first-seen order (or the source's
 * recorded plan), the sample ids 0..repeats-1, and every task with every
 * sample id (else an error).
 */
export function planBareRuns(s: BuildState): void {
  const { rows, episodeOf, mapping, context } = s;
  for (const [key, list] of s.bareRows) {
    const tasks: string[] = [];
    const seenTask = new Set<string>();
    const firstRow = new Int32Array(s.episodes).fill(-1);
    const order: number[] = [];
    let repeats = 1;
    for (const i of list) {
      const r = rows[i]!;
      if (!seenTask.has(r.task_id)) {
        seenTask.add(r.task_id);
        tasks.push(r.task_id);
      }
      repeats = Math.max(repeats, r.sample_id + 1);
      const e = episodeOf[i]!;
      if (firstRow[e]! < 0) {
        firstRow[e] = i;
        order.push(e);
      }
    }
    const first = rows[list[0]!]!;
    let planned = false;
    if (context.plannedTasks !== undefined && context.plannedTasks.length === tasks.length) {
      // The recorded plan's order (the same set: the source checked it).
      tasks.splice(0, tasks.length, ...context.plannedTasks);
      planned = true;
    }
    // Every episode is (a task seen, a sample id below repeats): as many as tasks x repeats
    // means every one is there, and each need not be looked up.
    const full = !planned && order.length === tasks.length * repeats;
    for (const t of full ? [] : tasks) {
      for (let sample = 0; sample < repeats; sample++) {
        const e = s.episodeIndex.find(first.split, t, sample);
        if (e === undefined || firstRow[e]! < 0) {
          s.issues.push({
            code: "coverage_incomplete",
            message:
              `task "${t}" has bare rows but none for sample_id ${sample}; sample ids run 0..${
                repeats - 1
              } for every task (planned episodes = tasks x sample ids)`,
            file: first.file,
            path: mapping.columns?.sample_id ?? "sample_id",
          });
        }
      }
    }
    s.plans.set(key, {
      key,
      checkpoint: first.checkpoint_id,
      split: first.split,
      tasks,
      repeats,
      firstRow,
      episodes: order,
      rows: list,
    });
  }
}

/**
 * Pairs each round with the bare run of its checkpoint and split: every
 * masked row needs a bare row of its episode, every bare episode a masked
 * row in each round, and every bare run a round.
 */
export function pairRounds(s: BuildState): void {
  const { rows, episodeOf, mapping } = s;
  const taskColumn = mapping.columns?.task_id ?? "task_id";
  const pairedBare = new Set<string>();
  for (const [k, list] of s.roundRows) {
    const first = rows[list[0]!]!;
    const plan = s.plans.get(bareKey(first.checkpoint_id, first.split));
    const roundName = first.round ?? "(default round)";
    const seen = new Uint8Array(s.episodes);
    for (const i of list) {
      const r = rows[i]!;
      const e = episodeOf[i]!;
      if ((!plan || plan.firstRow[e]! < 0) && !seen[e]) {
        s.issues.push({
          code: "coverage_incomplete",
          message:
            `masked row has no bare partner: no bare row for episode ${r.split}/${r.task_id}/${r.sample_id}${
              r.checkpoint_id === null ? "" : ` at checkpoint "${r.checkpoint_id}"`
            }`,
          ...at(r, taskColumn),
        });
      }
      seen[e] = 1;
    }
    if (!plan) continue;
    pairedBare.add(plan.key);
    s.roundPlan.set(k, plan);
    for (const e of plan.episodes) {
      if (seen[e]) continue;
      const b = rows[plan.firstRow[e]!]!;
      s.issues.push({
        code: "coverage_incomplete",
        message:
          `bare row has no masked partner in round "${roundName}": no masked row for episode ${b.split}/${b.task_id}/${b.sample_id}`,
        ...at(b, taskColumn),
      });
    }
  }
  for (const plan of s.plans.values()) {
    if (pairedBare.has(plan.key)) continue;
    const b = rows[plan.rows[0]!]!;
    s.issues.push({
      code: "coverage_incomplete",
      message: `bare rows${
        plan.checkpoint === null ? "" : ` of checkpoint "${plan.checkpoint}"`
      } (split ${plan.split}) have no masked partner: no masked row for this checkpoint and split`,
      ...at(b, mapping.columns?.arm ?? "arm"),
    });
  }
}

/** Each episode's mask in each round: all its rows agree (a failed row without one says nothing). */
export function roundMasks(s: BuildState): void {
  const { rows, episodeOf, present } = s;
  for (const [k, list] of s.roundRows) {
    const byEpisode: (readonly string[] | undefined)[] = new Array(s.episodes);
    const firstRow = new Int32Array(s.episodes);
    for (const i of list) {
      const r = rows[i]!;
      const e = episodeOf[i]!;
      const ids = present[i]!;
      if (r.status === "failed" && r.mask === null && ids.length === 0) continue;
      const prior = byEpisode[e];
      if (prior === undefined) {
        byEpisode[e] = ids;
        firstRow[e] = i;
      } else if (prior !== ids && prior.join("\n") !== ids.join("\n")) {
        const f = rows[firstRow[e]!]!;
        s.issues.push({
          code: "assignment_invalid",
          message: `rows of one episode disagree on the mask (${
            ids.join(", ") || "none"
          }; ${f.file} row ${f.row}: ${
            prior.join(", ") || "none"
          }); one episode has one planned mask`,
          ...at(r, r.mask !== null ? undefined : s.injectedColumn),
        });
      }
    }
    s.assignment.set(k, byEpisode);
  }
}
