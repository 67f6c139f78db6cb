/**
 * Where a long word of a caption or note may break across lines. An id
 * from the data (`x\input{<file>}_verify_v4$`, a long reward component)
 * has no space and no hyphenation point, so TeX cannot break it: in a
 * one-column float it sticks out of the column (an Overfull box), however
 * well the tabular below fits. The table's LaTeX puts an `\allowbreak`
 * (no hyphen, so the id reads as it is) between the pieces this module
 * cuts.
 *
 * @module
 */

/** Characters after which a long word may break: the punctuation and specials of ids. */
const BREAK_AFTER = new Set([..."_\\/}$#%&~^.:;,=+|>@)]!?*"]);

/** The longest piece (code points) cut from a run without such a character. */
export const MAX_PIECE = 10;

/**
 * Cuts a word into pieces that may each end a line: after each
 * punctuation or special character (not after an opening `{ ( [ <`) and
 * after at most {@linkcode MAX_PIECE} characters otherwise (one more when
 * a special follows), but never before a hyphen (a minus before a digit or
 * a dash ligature stays whole, up to twice the limit).
 *
 * @param word A word without spaces.
 * @returns Its pieces, in order; joined they are the word.
 *
 * @example
 * ```ts
 * import { breakPieces } from "./latex_breaks.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(breakPieces("x\\input{f}_v4$"), ["x\\", "input{f}", "_", "v4$"]);
 * deepEqual(breakPieces("compliance_v4"), ["compliance_", "v4"]);
 * deepEqual(breakPieces("abcdefghijklmnop"), ["abcdefghij", "klmnop"]);
 * deepEqual(breakPieces("a_-1"), ["a_-1"]);
 * ```
 */
export function breakPieces(word: string): string[] {
  const chars = [...word];
  const pieces: string[] = [];
  let piece: string[] = [];
  chars.forEach((ch, i) => {
    piece.push(ch);
    const next = chars[i + 1];
    if (next === undefined) return;
    if (next === "-" && piece.length < 2 * MAX_PIECE) return;
    // A full piece waits for a special that follows it, so that the special ends the line.
    if (BREAK_AFTER.has(ch) || (piece.length >= MAX_PIECE && !BREAK_AFTER.has(next))) {
      pieces.push(piece.join(""));
      piece = [];
    }
  });
  if (piece.length > 0) pieces.push(piece.join(""));
  return pieces;
}
