/**
 * SIGINT (Ctrl-C) and SIGTERM while gatelab writes, in two forms.
 *
 * - {@linkcode catchSignals}: for an output directory's replacement
 *   (`writeFilesAtomic`), the signals are caught for the length of the
 *   write, so the write stops at its next step, puts back what it started
 *   (the earlier result whole, nothing beside it) and the command ends with
 *   {@linkcode Interrupted}: 130 or 143, as a shell reports a process ended
 *   by the signal.
 * - {@linkcode exitOnSignals}: for a command that writes one file
 *   (`gate sql --out`, through `writeFileAtomic`), a signal removes the
 *   temporaries in flight and ends the process at once with 130 or 143.
 *
 * Outside both the signals keep their default: the process ends at once,
 * and nothing of it is left on disk.
 *
 * @module
 */

/** The signals a write catches. */
export type StopSignal = "SIGINT" | "SIGTERM";

/**
 * A run stopped by a signal; `message` says what the output directory
 * holds. The CLI prints it in one line and exits with {@linkcode exitCode}.
 */
export class Interrupted extends Error {
  /**
   * @param signal The signal caught.
   * @param message What the output holds now, e.g. "out is left as it was".
   */
  constructor(readonly signal: StopSignal, message: string) {
    super(message);
    this.name = "Interrupted";
  }
  /** 130 for SIGINT, 143 for SIGTERM (128 + the signal's number). */
  get exitCode(): number {
    return this.signal === "SIGINT" ? 130 : 143;
  }
}

/** Signals caught while it is held; dispose to give them back their default. */
export interface CaughtSignals extends Disposable {
  /** The first signal caught, or null. */
  readonly caught: StopSignal | null;
  /** Throws {@linkcode Interrupted} with `message` when a signal was caught. */
  stopIfCaught(message: string): void;
  /**
   * Waits for `work` unless a signal comes first; then throws
   * {@linkcode Interrupted} with `message` without waiting for it (its
   * outcome is dropped). For work that only reads, so stopping it half way
   * leaves nothing to undo.
   */
  race<T>(work: Promise<T>, message: string): Promise<T>;
}

/**
 * Catches SIGINT and SIGTERM until disposed: a caught signal only records
 * itself, and the holder stops at its next {@linkcode CaughtSignals.stopIfCaught}.
 * Where the platform cannot listen for a signal (SIGTERM on Windows) it keeps
 * its default.
 *
 * @example
 * ```ts
 * import { catchSignals, Interrupted } from "./interrupt.ts";
 * import { equal, throws } from "node:assert/strict";
 * {
 *   using signals = catchSignals();
 *   equal(signals.caught, null);
 *   signals.stopIfCaught("out is left as it was"); // nothing caught: no throw
 * }
 * equal(new Interrupted("SIGTERM", "x").exitCode, 143);
 * throws(() => { throw new Interrupted("SIGINT", "out is left as it was"); }, /left as it was/);
 * ```
 */
export function catchSignals(): CaughtSignals {
  let caught: StopSignal | null = null;
  let wake: (() => void) | null = null;
  const listeners: [StopSignal, () => void][] = [];
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    const listener = () => {
      caught ??= signal;
      wake?.();
    };
    try {
      Deno.addSignalListener(signal, listener);
      listeners.push([signal, listener]);
    } catch { /* not a signal this platform can listen for: its default stays */ }
  }
  return {
    get caught() {
      return caught;
    },
    stopIfCaught(message: string) {
      if (caught !== null) throw new Interrupted(caught, message);
    },
    async race<T>(work: Promise<T>, message: string): Promise<T> {
      const signalled = new Promise<null>((resolve) => (wake = () => resolve(null)));
      if (caught !== null) wake!();
      try {
        const first = await Promise.race([work.then((value) => ({ value })), signalled]);
        if (first !== null) return first.value;
        work.catch(() => {}); // stopped: whatever it ends with is not wanted
        throw new Interrupted(caught!, message);
      } finally {
        wake = null;
      }
    },
    [Symbol.dispose]() {
      for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
    },
  };
}

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
