/**
 * Version of the parsing rules of lib/load. Bump it whenever what a loader
 * returns for the same bytes changes; caches of loaded data key on it.
 */
export const LOADER_VERSION = "gatelab.load/3";
