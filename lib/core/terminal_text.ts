/**
 * Text gatelab prints to a terminal. Values from the data (task ids, query
 * cells, messages quoting an input) may hold control characters: ESC starts
 * a terminal escape sequence (colours, cursor moves, a window title, on some
 * terminals worse), BEL rings, CR overwrites the line. Every line a command
 * prints goes through {@linkcode printLine} or {@linkcode printError},
 * which show such characters as escapes (as DuckDB's own shell does);
 * files and JSON keep the exact text.
 *
 * @module
 */

const NAMED: Readonly<Record<string, string>> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\v": "\\v",
  "\f": "\\f",
  "\r": "\\r",
  "\x1b": "\\e",
};

/**
 * C0 controls, DEL, the C1 controls (U+0080 to U+009F: U+009B is a one-byte
 * escape sequence to some terminals) and the bidirectional overrides and
 * isolates, which reorder what is shown.
 */
const OTHERS = "\\x7f-\\x9f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";
const CONTROL = new RegExp(`[\\x00-\\x1f${OTHERS}]`, "g");
const CONTROL_BUT_NEWLINE = new RegExp(`[\\x00-\\x09\\x0b-\\x1f${OTHERS}]`, "g");

const escape = (c: string) =>
  NAMED[c] ??
    (c.charCodeAt(0) < 0x100
      ? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`
      : `\\u{${c.charCodeAt(0).toString(16)}}`);

/**
 * `text` with every control character shown as an escape: `\e`, `\a`,
 * `\t`, `\r`, `\n` (unless `lines`), `\x01`, `\u{202e}`. Printable text,
 * backslashes included, is unchanged.
 *
 * @param text Text to show.
 * @param options `lines: true` keeps line breaks (a block of lines).
 * @returns The text as it may reach a terminal.
 *
 * @example
 * ```ts
 * import { terminalText } from "./terminal_text.ts";
 * import { equal } from "node:assert/strict";
 * equal(terminalText("t\x1b[2J\x07\r\nx"), "t\\e[2J\\a\\r\\nx");
 * equal(terminalText("a\nb\u202e", { lines: true }), "a\nb\\u{202e}");
 * equal(terminalText("é ✓ \\n"), "é ✓ \\n");
 * ```
 */
export function terminalText(text: string, options: { readonly lines?: boolean } = {}): string {
  return text.replace(options.lines ? CONTROL_BUT_NEWLINE : CONTROL, escape);
}

/** Prints text (one line or a block of lines) on stdout, control characters escaped. */
export function printLine(text: string): void {
  console.log(terminalText(text, { lines: true }));
}

/** Prints text (one line or a block of lines) on stderr, control characters escaped. */
export function printError(text: string): void {
  console.error(terminalText(text, { lines: true }));
}
