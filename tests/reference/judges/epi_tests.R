# Reference values for tests/test_diagnostic_accuracy.py: R epiR's epi.tests
# (epiR 2.0.94, GPL >= 2, https://CRAN.R-project.org/package=epiR) on its
# documented example 1 (Scott et al. 2008, table 1: TP 670, FP 202, FN 74, TN 640),
# with method = "exact" and "wilson", and on a table with a zero cell.
# Run: Rscript epi_tests.R            (with epiR installed), or
#      Rscript epi_tests.R DIR        (DIR holds epiR's R/epi.tests.R, zexact.R, zwilson.R)
args <- commandArgs(trailingOnly = TRUE)
if (length(args)) {
  for (f in c("epi.tests.R", "zexact.R", "zwilson.R")) source(file.path(args[1], f))
} else library(epiR)
show <- function(dat, method) {
  r <- epi.tests(dat, method = method, digits = 3, conf.level = 0.95)
  cat(sprintf("# %s %s\n", paste(dat, collapse = ","), method))
  d <- r$detail
  for (i in seq_len(nrow(d)))
    cat(sprintf("%-8s %.10f %.10f %.10f\n", d$statistic[i], d$est[i], d$lower[i], d$upper[i]))
}
show(c(670, 202, 74, 640), "exact")
show(c(670, 202, 74, 640), "wilson")
show(c(25, 0, 5, 70), "exact")
