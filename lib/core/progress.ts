/**
 * Progress of long work (bootstrap draws, power simulation, large loads).
 * Kernels accept an optional `onProgress(done, total)` callback and stay
 * silent otherwise; the CLI passes {@linkcode stderrProgress}, notebooks an
 * updating display.
 *
 * @module
 */
import { terminalText } from "./terminal_text.ts";

/** Called with the units done so far and the total. */
export type ProgressCallback = (done: number, total: number) => void;

/** Options of {@linkcode stderrProgress}. */
export interface StderrProgressOptions {
  /**
   * Minimum milliseconds between two updates.
   * @default {250}
   */
  readonly intervalMs?: number;
  /** Where to write; defaults to Deno.stderr. */
  readonly write?: (text: string) => void;
  /** Whether the stream is a terminal (update in place); defaults to Deno.stderr.isTerminal(). */
  readonly terminal?: boolean;
}

/**
 * A progress callback that writes `label done/total (pct%)` to stderr: in
 * place on a terminal, otherwise one line per tenth of the work, and always
 * a final line when done. Silent when the environment variable
 * `GATELAB_NO_PROGRESS` is `1` and may be read (the test task sets it, so a
 * test run prints no progress between the test names); an explicit `write`
 * always writes.
 *
 * @example
 * ```ts
 * import { stderrProgress } from "./progress.ts";
 * import { deepEqual } from "node:assert/strict";
 * const out: string[] = [];
 * const progress = stderrProgress("bootstrap", { write: (t) => out.push(t), terminal: false, intervalMs: 0 });
 * for (let i = 1; i <= 20; i++) progress(i, 20);
 * deepEqual(out.length, 10);
 * deepEqual(out.at(-1), "bootstrap 20/20 (100%)\n");
 * ```
 */
export function stderrProgress(
  label: string,
  options: StderrProgressOptions = {},
): ProgressCallback {
  if (options.write === undefined && progressOff()) return () => {};
  const encoder = new TextEncoder();
  const write = options.write ?? ((text: string) => Deno.stderr.writeSync(encoder.encode(text)));
  const terminal = options.terminal ?? Deno.stderr.isTerminal();
  const intervalMs = options.intervalMs ?? 250;
  const shownLabel = terminalText(label);
  let last = -Infinity;
  let lastDecile = -1;
  return (done, total) => {
    const finished = done >= total;
    const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
    const text = `${shownLabel} ${done}/${total} (${pct}%)`;
    if (terminal) {
      const now = performance.now();
      if (!finished && now - last < intervalMs) return;
      last = now;
      write(`\r${text}${finished ? "\n" : ""}`);
    } else {
      const decile = Math.floor(pct / 10);
      if (decile === lastDecile && !finished) return;
      if (decile === 0 && !finished) return;
      lastDecile = decile;
      write(text + "\n");
    }
  };
}

/** Whether GATELAB_NO_PROGRESS=1 is set and readable (never prompts). */
function progressOff(): boolean {
  const state = Deno.permissions.querySync({ name: "env", variable: "GATELAB_NO_PROGRESS" }).state;
  return state === "granted" && Deno.env.get("GATELAB_NO_PROGRESS") === "1";
}
