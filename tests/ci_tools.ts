/**
 * Tests that need an external tool (Chromium, rsvg-convert, Python with
 * numpy/scipy/statsmodels, cc) are skipped on a developer machine without
 * it, with a message; in CI (`CI=true`, set by .ci/run) they are never
 * skipped, so a CI machine that lost a tool fails instead of looking green.
 */

/** Whether this run is CI (`CI=true` in the environment). */
export const IN_CI = Deno.permissions.querySync({ name: "env", variable: "CI" }).state ===
    "granted" && Deno.env.get("CI") === "true";

/** Whether `command` may be run (the test task grants it with `--allow-run=<command>`). */
export function mayRun(command: string): boolean {
  return Deno.permissions.querySync({ name: "run", command }).state === "granted";
}

/**
 * Whether `deno task test` already named the missing tools, once, with how
 * to install them (tests/tools_on_path.ts sets GATELAB_TOOLS_NAMED=1), so
 * a skipped test need not say it again.
 */
export const TOOLS_NAMED = Deno.permissions.querySync({
      name: "env",
      variable: "GATELAB_TOOLS_NAMED",
    }).state === "granted" && Deno.env.get("GATELAB_TOOLS_NAMED") === "1";

/**
 * Says why a test module is skipped, unless `deno task test` already named
 * the missing tool at the start of the run.
 */
export function warnSkip(message: string): void {
  if (!TOOLS_NAMED) console.warn(message);
}

/**
 * The `ignore` flag of a test that needs `command`: true (skip, with a
 * warning naming the tool) only outside CI when it may not be run.
 */
export function ignoreWithout(command: string, test: string): boolean {
  if (mayRun(command) || IN_CI) return false;
  warnSkip(`${test}: skipped, ${command} may not run (not on PATH, or not given in --allow-run)`);
  return true;
}
