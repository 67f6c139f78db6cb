/** A paper appendix: sections of tables and figures written as LaTeX, SVG, PNG and PDF files. */
export * from "./appendix.ts";
