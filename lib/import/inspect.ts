import type { Issue } from "../core/issue.ts";
import type { ImportMapping } from "./mapping.ts";
import type { ImportResult } from "./import_tables.ts";

/** Options of {@linkcode importInspectLogs}. */
export interface ImportInspectOptions {
  readonly mapping?: ImportMapping;
  readonly mappingFile?: { readonly file: string; readonly sha256: string } | null;
  readonly command?: string;
}

/** `gate import inspect` (not yet implemented). */
export function importInspectLogs(
  _bare: string,
  _masked: readonly string[],
  _options: ImportInspectOptions = {},
): Promise<{ ok: true; value: ImportResult } | { ok: false; issues: Issue[] }> {
  return Promise.resolve({
    ok: false,
    issues: [{ code: "usage_error", message: "gate import inspect is not implemented yet" }],
  });
}
