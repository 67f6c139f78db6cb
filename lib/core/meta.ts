/** Version of gatelab written into every output file. */
export const GATELAB_VERSION = "0.1.0";

/**
 * The `generator` block every output file carries, so a reader can tell
 * which tool and command made it. No timestamps: outputs are deterministic.
 */
export function generatorMeta(command: string): { tool: string; version: string; command: string } {
  return { tool: "gatelab", version: GATELAB_VERSION, command };
}
