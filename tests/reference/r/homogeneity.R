# Writes tests/reference/r/homogeneity_values.json: the chi-squared test that independent
# coefficients are equal (Fleiss, Levin & Paik 2003, section 18.1), as R metafor computes it.
#
# Run from the repository root: Rscript tests/reference/r/homogeneity.R
# The test is Cochran's Q of a fixed-effect meta-analysis, metafor's rma(yi, vi, method = "FE")
# QE and QEp; the pooled estimate is its inverse-variance mean. The inputs are concord's Fleiss'
# kappas and SEs of three independent panels (tests/reference/compare/ratings1.csv,
# missing1.csv, two1.csv), written here to 16 digits so that R and Python start from the same
# numbers.
suppressPackageStartupMessages({
  library(jsonlite)
  library(metafor)
})
kappa <- c(0.3856655290102389, 0.45623658478416407, 0.19682074879732273)
se <- c(0.13368143227553678, 0.07917833808197873, 0.09545033144880963)
fit <- rma(yi = kappa, vi = se^2, method = "FE")
out <- list(
  source = paste("R metafor", as.character(packageVersion("metafor")), "rma(method = 'FE')"),
  kappa = kappa, se = se, pooled = as.numeric(fit$beta), statistic = fit$QE,
  df = fit$k - 1, pvalue = fit$QEp
)
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE),
           file.path("tests", "reference", "r", "homogeneity_values.json"))
