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
 * The `ignore` flag of a test that needs `command`: true (skip, with a
 * warning naming the tool) only outside CI when it may not be run.
 */
export function ignoreWithout(command: string, test: string): boolean {
  if (mayRun(command) || IN_CI) return false;
  console.warn(`${test}: skipped, ${command} may not run (not given in --allow-run)`);
  return true;
}
