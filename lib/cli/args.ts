import { parseArgs, type ParseArgsConfig } from "node:util";

/** Thrown for bad command-line usage; the CLI prints it and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Parses command options with node:util's strict parser; unknown options
 * and missing values become a {@linkcode UsageError}.
 */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Parses an integer option, or throws a {@linkcode UsageError} naming it. */
export function intOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n)) {
    throw new UsageError(`--${name} must be an integer, got "${value}"`);
  }
  return n;
}
