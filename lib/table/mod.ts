/** The table and section model: tables (Markdown, LaTeX), number formats, run scopes, report sections, the figure model and the bundle interface. */
export * from "./table.ts";
export * from "./format.ts";
export * from "./run_scope.ts";
export * from "./section.ts";
export * from "./figure.ts";
export * from "./bundle.ts";
