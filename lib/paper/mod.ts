/** A paper appendix: sections of tables and figures written as LaTeX, SVG and PNG files. */
export * from "./appendix.ts";
