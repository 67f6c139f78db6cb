/**
 * Progress of long work in a notebook: one display that updates in place.
 *
 * @module
 */
import type { ProgressCallback } from "../core/progress.ts";
import { escapeHtml } from "./escape_html.ts";

/** The part of `Deno.jupyter` this helper uses. */
export interface JupyterBroadcaster {
  /** Sends one Jupyter message of the given type. */
  broadcast(msgType: string, content: Record<string, unknown>): Promise<void>;
}

/** Options of {@linkcode notebookProgress}. */
export interface NotebookProgressOptions {
  /**
   * Minimum milliseconds between two updates (the final one always shows).
   * @default {200}
   */
  readonly intervalMs?: number;
  /** Where to send display messages; defaults to `Deno.jupyter` when running in the kernel. */
  readonly jupyter?: JupyterBroadcaster;
  /** Display id; defaults to one derived from the label and a counter. */
  readonly displayId?: string;
}

let displayCounter = 0;

/**
 * `Deno.jupyter` (typed by Deno's own declarations) inside the kernel, else
 * undefined: outside `deno jupyter` reading it throws.
 */
function kernelJupyter(): JupyterBroadcaster | undefined {
  try {
    return Deno.jupyter;
  } catch {
    return undefined;
  }
}

function bundle(label: string, done: number, total: number): Record<string, unknown> {
  const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
  const text = `${label} ${done}/${total} (${pct}%)`;
  return {
    "text/plain": text,
    "text/html": `<div><progress max="${total}" value="${done}"></progress> ${
      escapeHtml(text)
    }</div>`,
  };
}

/**
 * A progress callback for notebooks: the first call shows a display
 * (`display_data` with a display id), later calls update it in place
 * (`update_display_data`), throttled to `intervalMs`. Outside the Jupyter
 * kernel (no `Deno.jupyter`) and without `options.jupyter` it does nothing.
 *
 * @param label Text before the counts, e.g. `bootstrap`.
 * @param options Throttle, broadcaster and display id.
 * @returns A {@linkcode ProgressCallback}.
 *
 * @example
 * ```ts
 * import { notebookProgress } from "./notebook_progress.ts";
 * import { deepEqual } from "node:assert/strict";
 * const sent: string[] = [];
 * const jupyter = { broadcast: (type: string) => (sent.push(type), Promise.resolve()) };
 * const progress = notebookProgress("draws", { jupyter, intervalMs: 1e9 });
 * for (let i = 1; i <= 100; i++) progress(i, 100);
 * deepEqual(sent, ["display_data", "update_display_data"]); // first and final
 * ```
 */
export function notebookProgress(
  label: string,
  options: NotebookProgressOptions = {},
): ProgressCallback {
  const jupyter = options.jupyter ?? kernelJupyter();
  if (!jupyter) return () => {};
  const displayId = options.displayId ?? `gatelab-progress-${++displayCounter}`;
  const intervalMs = options.intervalMs ?? 200;
  let shown = false;
  let last = -Infinity;
  return (done, total) => {
    const finished = done >= total;
    const now = performance.now();
    if (shown && !finished && now - last < intervalMs) return;
    last = now;
    const type = shown ? "update_display_data" : "display_data";
    shown = true;
    // The kernel's broadcast may return a promise or nothing; progress is
    // best effort and must never fail the work it reports on.
    try {
      const sent = jupyter.broadcast(type, {
        data: bundle(label, done, total),
        metadata: {},
        transient: { display_id: displayId },
      }) as Promise<void> | undefined;
      sent?.catch?.(() => {});
    } catch {
      // ignore
    }
  };
}
