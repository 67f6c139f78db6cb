/**
 * Ctrl-C (SIGINT) and SIGTERM while a command writes: the temporary files
 * its atomic writes have in flight are removed and the process ends with
 * 130 or 143 (128 + the signal's number, as a shell reports it), so an
 * interrupted write leaves the earlier file whole and nothing beside it.
 *
 * @module
 */

/** Temporary files being written (registered by `writeFileAtomic`). */
const temporaries = new Set<string>();

/**
 * Registers a temporary file being written; removed when a signal ends the
 * process inside {@linkcode exitOnSignals}.
 *
 * @param path The temporary file.
 * @returns A function that forgets it again (once it is renamed or removed).
 */
export function holdTemporary(path: string): () => void {
  temporaries.add(path);
  return () => temporaries.delete(path);
}

const SIGNALS = [["SIGINT", 130], ["SIGTERM", 143]] as const;

/**
 * Runs `work`; a SIGINT or SIGTERM meanwhile removes the temporaries in
 * flight and exits with 130 or 143 (after `onSignal`, e.g. a line saying
 * what was left as it was).
 *
 * @param work What the signals may interrupt.
 * @param onSignal Called with the signal's name before the exit.
 * @returns What `work` returns.
 */
export async function exitOnSignals<T>(
  work: () => Promise<T>,
  onSignal: (signal: "SIGINT" | "SIGTERM") => void = () => {},
): Promise<T> {
  const listeners: [Deno.Signal, () => void][] = [];
  for (const [signal, code] of SIGNALS) {
    const listener = () => {
      for (const path of temporaries) {
        try {
          Deno.removeSync(path);
        } catch { /* already gone */ }
      }
      onSignal(signal);
      Deno.exit(code);
    };
    try {
      Deno.addSignalListener(signal, listener);
      listeners.push([signal, listener]);
    } catch { /* a platform without this signal (SIGTERM on Windows) */ }
  }
  try {
    return await work();
  } finally {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  }
}
