# Reads gatelab's tidy CSV tables with base R's read.csv, as docs/FORMAT.md
# shows, for tests/tidy_readers_test.ts.
# usage: Rscript scripts/read_tables.R <analysis_out_dir> <version_id>
# Prints one line per table: table, rows, columns (joined by |), then the
# picked values (as scripts/read_tables.py picks them) with 17 significant
# digits, tab-separated; then a line "types" with the types read.csv gave
# coefficients' metric and estimate and selection's status, alpha, budget_k
# and retired (as bool, float, int or str).
args <- commandArgs(trailingOnly = TRUE)
out <- args[1]
version <- args[2]
num <- function(x) if (is.na(x)) "NA" else formatC(x, digits = 17, format = "g")
show <- function(table, df, values) {
  cat(table, nrow(df), paste(names(df), collapse = "|"), values, sep = "\t")
  cat("\n")
}
co <- read.csv(file.path(out, "coefficients.csv"), check.names = FALSE)
r <- co[co$metric == "reward" & co$version_id == version, ]
show("coefficients", co, c(num(r$estimate), num(r$se), num(r$p), num(r$se_cluster),
  num(r$ci_low), num(r$ci_high), num(r$rank), r$status))
ta <- read.csv(file.path(out, "tasks.csv"), check.names = FALSE)
r <- ta[6, ]
show("tasks", ta, c(r$task_id, num(r$sample_id), num(r$reward_delta), num(r$r_strict_masked),
  num(r[[paste0("mask:", version)]]), r$injected))
se <- read.csv(file.path(out, "selection.csv"), check.names = FALSE)
r <- se[se$version_id == version, ]
show("selection", se, c(num(r$alpha), num(r$rank), as.character(r$retired), r$status))
dr <- read.csv(file.path(out, "draws.csv"), check.names = FALSE)
r <- dr[11, ]
show("draws", dr, c(num(r$draw), r$metric, r$version_id, num(r$estimate)))
kind <- function(x) c(logical = "bool", numeric = "float", integer = "int", character = "str")[[class(x)]]
cat("types", kind(co$metric), kind(co$estimate), kind(se$status), kind(se$alpha), kind(se$budget_k),
  kind(se$retired), sep = "\t")
cat("\n")
