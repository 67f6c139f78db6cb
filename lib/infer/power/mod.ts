/** Power planning: the analytic standard error and minimum detectable effect of a 0/1 gate, simulated selection power, and its inputs from a past analysis. */
export * from "./power.ts";
export * from "./power_from.ts";
