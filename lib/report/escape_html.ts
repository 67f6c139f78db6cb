/**
 * Escapes text for HTML text and double-quoted attribute values.
 *
 * @param text Any text.
 * @returns The text with `& < > " '` replaced by entities.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./escape_html.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(escapeHtml(`a<b & "c"`), "a&lt;b &amp; &quot;c&quot;");
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
