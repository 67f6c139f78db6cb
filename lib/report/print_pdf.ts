/**
 * Prints an HTML document to PDF with headless Chromium (`gate report
 * --pdf`). This is the only place gatelab starts another program; it needs
 * `--allow-run=chromium`, which `deno task report-pdf` grants and
 * `deno task gate` does not.
 *
 * @module
 */

/** Flags for a headless Chromium that reaches no network and keeps no state. */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Whether Chromium can be started: `"ok"`, or one sentence saying why not
 * (no permission to run it, or not installed).
 *
 * @example
 * ```ts
 * import { chromiumStatus } from "./print_pdf.ts";
 * import { ok } from "node:assert/strict";
 * ok(typeof chromiumStatus() === "string");
 * ```
 */
export function chromiumStatus(): string {
  if (Deno.permissions.querySync({ name: "run", command: "chromium" }).state !== "granted") {
    return "running chromium is not permitted (use `deno task report-pdf`, which adds --allow-run=chromium)";
  }
  try {
    const ok = new Deno.Command("chromium", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
    return ok ? "ok" : "chromium did not start (`chromium --version` failed)";
  } catch {
    return "chromium is not installed (Debian: apt-get install chromium)";
  }
}

/**
 * Prints `html` to PDF (A4, no header or footer) with headless Chromium.
 *
 * @param html A self-contained HTML document.
 * @returns The PDF bytes.
 * @throws {Error} When Chromium fails or writes no PDF.
 */
export async function printToPdf(html: string): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-pdf-" });
  try {
    await Deno.writeTextFile(`${dir}/report.html`, html);
    const { code, stderr } = await new Deno.Command("chromium", {
      args: [
        ...CHROMIUM_FLAGS,
        `--user-data-dir=${dir}/profile`,
        "--no-pdf-header-footer",
        `--print-to-pdf=${dir}/report.pdf`,
        `file://${dir}/report.html`,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      throw new Error(
        `Cannot print report.pdf: chromium exited with ${code}: ${
          new TextDecoder().decode(stderr).trim().split("\n").pop()
        }`,
      );
    }
    return await Deno.readFile(`${dir}/report.pdf`);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
