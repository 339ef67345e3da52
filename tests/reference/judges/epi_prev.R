# Reference values for tests/test_diagnostic_accuracy.py::test_true_prevalence_*:
# R epiR's epi.prev (epiR 2.0.94, GPL >= 2): the Rogan-Gladen true prevalence with
# the apparent prevalence's interval carried through the correction.
# Run: Rscript epi_prev.R   (with epiR installed), or Rscript epi_prev.R DIR (DIR holds R/epi.prev.R)
args <- commandArgs(trailingOnly = TRUE)
if (length(args)) source(file.path(args[1], "epi.prev.R")) else library(epiR)
show <- function(pos, tested, se, sp, method) {
  r <- epi.prev(pos = pos, tested = tested, se = se, sp = sp, method = method, units = 1)
  cat(sprintf("%d %d %.10f %.10f %s ap %.10f %.10f %.10f tp %.10f %.10f %.10f\n", pos, tested,
              se, sp, method, r$ap$est, r$ap$lower, r$ap$upper, r$tp$est, r$tp$lower, r$tp$upper))
}
# epi.tests example 1: the judge says positive for 872 of 1586 items, Se 670/744, Sp 640/842
show(872, 1586, 670 / 744, 640 / 842, "c-p")
show(872, 1586, 670 / 744, 640 / 842, "wilson")
# passed error rates: Se 0.95, Sp 0.90
show(872, 1586, 0.95, 0.90, "c-p")
