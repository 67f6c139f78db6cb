/**
 * The files `gate firewall` writes into `--out` when nothing was found.
 *
 * @module
 */
import { type FileValue, toJsonText } from "../core/atomic_write.ts";
import type { ValidationDocument } from "../core/validation_document.ts";
import type { FirewallDocument } from "./audit.ts";

/**
 * The bytes of every file of a clean firewall audit: `validation.json` and
 * `firewall.json` (a refusal writes validation.json only, through the
 * command's refusal). Pure: nothing is written.
 *
 * @param document firewall.json.
 * @param validation validation.json (ok, no findings).
 * @returns File name to contents.
 *
 * @example
 * ```ts
 * import { firewallFiles } from "./files.ts";
 * import { validationDocument } from "../core/validation_document.ts";
 * import { generatorMeta } from "../core/meta.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const files = firewallFiles({ format: "gatelab.firewall/v1", ok: true,
 *   scanned: { files: 1, lines: 2, fields: 2, gold_items: 1 }, findings: [], conventions: {}, inputs: [],
 *   generator: generatorMeta("gate firewall") }, validationDocument([], "gate firewall"));
 * deepEqual(Object.keys(files), ["validation.json", "firewall.json"]);
 * ok(String(files["firewall.json"]).startsWith('{\n  "format": "gatelab.firewall/v1",\n  "ok": true,'));
 * ```
 */
export function firewallFiles(
  document: FirewallDocument,
  validation: ValidationDocument,
): Record<string, FileValue> {
  return {
    "validation.json": toJsonText(validation),
    "firewall.json": toJsonText(document),
  };
}
