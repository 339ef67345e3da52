# Writes tests/reference/r/pairedcac_values.json: paired t tests of Gwet's R pairedCAC.
#
# Run from the repository root, with a copy of pairedCAC's R sources (kgwet/pairedCAC, directory R/):
#   Rscript tests/reference/r/pairedcac.R /path/to/pairedCAC/R [commit]
# Needs R and jsonlite only. pairedCAC's code (GPL >= 2, Kilem Gwet) is not part of this
# repository; the JSON records the commit it was read at and is what tests/test_compare.py reads.
#
# Datasets (tests/reference/compare/):
# * ratings1.csv, ratings2.csv: pairedCAC's own example data (15 items x 4 raters), copied
#   from its data/ directory;
# * missing1.csv, missing2.csv: two panels of 4 raters on the same 40 items, categories 1..4,
#   about 15% of ratings missing, the second panel's errors correlated with the first's;
# * two1.csv, two2.csv: two raters on the same 60 items, categories 1..3, nothing missing
#   (Conger's kappa of two raters is Cohen's).
# The generated panels are written by this script (set.seed(15)) so R and Python read the same
# numbers. Every ttest.* function is run unweighted and with quadratic and linear weights.
# Numbers are written with jsonlite digits = NA (15 significant digits).

suppressPackageStartupMessages(library(jsonlite))

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 1) stop("usage: Rscript tests/reference/r/pairedcac.R <pairedCAC R dir> [commit]")
src_dir <- args[1]
commit <- if (length(args) >= 2) args[2] else NA_character_
data_dir <- file.path("tests", "reference", "compare")
out_path <- file.path("tests", "reference", "r", "pairedcac_values.json")
if (!dir.exists(data_dir)) stop("run from the repository root")

pcac <- new.env()
for (file in list.files(src_dir, pattern = "[.]r$", full.names = TRUE)) {
  sys.source(file, envir = pcac)
}

set.seed(15)
panel <- function(truth, raters, flip, missing) {
  q <- max(truth)
  out <- sapply(seq_len(raters), function(g) {
    noisy <- runif(length(truth)) < flip
    x <- ifelse(noisy, pmin(pmax(truth + sample(c(-1, 1), length(truth), TRUE), 1), q), truth)
    x[runif(length(truth)) < missing] <- NA
    x
  })
  colnames(out) <- paste0("R", seq_len(raters))
  out
}
truth <- sample(1:4, 40, replace = TRUE)
m1 <- panel(truth, 4, 0.45, 0.15)
m2 <- m1
swap <- runif(length(m2)) < 0.4  # the second panel keeps 60% of the first's ratings
m2[swap] <- panel(truth, 4, 0.25, 0.15)[swap]
write.csv(m1, file.path(data_dir, "missing1.csv"), row.names = FALSE, na = "")
write.csv(m2, file.path(data_dir, "missing2.csv"), row.names = FALSE, na = "")
truth2 <- sample(1:3, 60, replace = TRUE)
t1 <- panel(truth2, 2, 0.5, 0)
t2 <- cbind(R1 = t1[, 1], R2 = panel(truth2, 1, 0.2, 0)[, 1])
write.csv(t1, file.path(data_dir, "two1.csv"), row.names = FALSE)
write.csv(t2, file.path(data_dir, "two2.csv"), row.names = FALSE)

read <- function(name) as.matrix(read.csv(file.path(data_dir, name)))
datasets <- list(
  readme = list(read("ratings1.csv"), read("ratings2.csv")),
  missing = list(read("missing1.csv"), read("missing2.csv")),
  two = list(read("two1.csv"), read("two2.csv"))
)
tests <- c("fleiss", "conger", "ac2", "bp", "pa", "alpha")
out <- list(source = "pairedCAC (kgwet/pairedCAC), R sources", commit = commit, cases = list())
for (name in names(datasets)) {
  d <- datasets[[name]]
  for (test in tests) {
    for (weights in c("unweighted", "quadratic", "linear")) {
      f <- get(paste0("ttest.", test), envir = pcac)
      res <- f(d[[1]], d[[2]], weights = weights)$test
      out$cases[[length(out$cases) + 1]] <- list(
        dataset = name, test = test, weights = weights,
        coeff1 = res[[1]], coeff2 = res[[2]], difference = res$coeff.diff,
        standard_error = res$std.err, statistic = res$t.stat, pvalue = res$p.value,
        n = res$n.obs
      )
    }
  }
}
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), out_path)
cat("wrote", out_path, "\n")
