/**
 * The result of a command that checks its input before it writes: a
 * refusal, or what the clean run produced. The audits return it.
 *
 * @module
 */
import type { ValidationDocument } from "../core/validation_document.ts";

/**
 * A refusal (`ok: false`: validation.json lists why, and is all the command
 * writes), or `ok: true` with the clean run's validation.json and `T`
 * (its documents).
 */
export type Checked<T> =
  | { readonly ok: false; readonly validation: ValidationDocument }
  | ({ readonly ok: true; readonly validation: ValidationDocument } & T);
