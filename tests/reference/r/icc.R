# Writes tests/reference/r/icc_values.json: reference values of the intraclass correlation.
#
# Run from the repository root, with copies of R irr's icc.R and irrNA's iccNA.R (the CRAN
# sources: github.com/cran/irr R/icc.R, irr 0.84.1, GPL >= 2; github.com/cran/irrNA
# R/iccNA.R, irrNA 0.2.3, GPL-3) and Debian's r-cran-psych (psych::ICC):
#   Rscript tests/reference/r/icc.R /path/to/icc.R /path/to/iccNA.R
# Needs R, jsonlite and psych. The data are read from tests/reference/icc/*.csv: irr's
# `anxiety` (irr package docs), Shrout & Fleiss' (1979) Table 2, irrNA's `Ebel51` (Ebel
# 1951, Table 2) and `ConsistNA`. Numbers are written with jsonlite digits = NA.

suppressPackageStartupMessages({
  library(jsonlite)
  library(psych)
})
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 2) stop("usage: Rscript tests/reference/r/icc.R <irr icc.R> <irrNA iccNA.R>")
irr <- new.env()
sys.source(args[1], envir = irr)
irrna <- new.env()
sys.source(args[2], envir = irrna)
here <- file.path("tests", "reference", "icc")
read <- function(name) as.matrix(read.csv(file.path(here, paste0(name, ".csv"))))

forms <- list(
  c("oneway", "consistency", "single"), c("oneway", "consistency", "average"),
  c("twoway", "agreement", "single"), c("twoway", "agreement", "average"),
  c("twoway", "consistency", "single"), c("twoway", "consistency", "average")
)
irr_values <- function(x, r0) {
  lapply(forms, function(f) {
    v <- irr$icc(x, model = f[1], type = f[2], unit = f[3], r0 = r0)
    list(model = f[1], type = f[2], unit = f[3], r0 = r0, value = v$value, f = v$Fvalue,
         df1 = v$df1, df2 = v$df2, p = v$p.value, low = v$lbound, high = v$ubound)
  })
}
psych_values <- function(x) {
  out <- suppressMessages(psych::ICC(x, lmer = FALSE))$results
  list(type = as.character(out$type), icc = out$ICC, f = out$F, df1 = out$df1,
       df2 = out$df2, p = out$p, low = out[["lower bound"]], high = out[["upper bound"]])
}
icc_na <- function(x, rho0) {
  v <- suppressWarnings(irrna$iccNA(x, rho0 = rho0, detail = TRUE))
  list(rho0 = rho0, forms = rownames(v$ICCs), icc = unname(v$ICCs[, 1]),
       p = unname(v$ICCs[, 2]), low = unname(v$ICCs[, 3]), high = unname(v$ICCs[, 4]),
       k_0 = v$k_0, oneway_ss = unname(v$oneway_Stats[, 1]),
       twoway_ss = unname(v$twoway_Stats[, 1]), twoway_df = unname(v$twoway_Stats[, 2]))
}
anxiety <- read("anxiety")
shrout <- read("shrout_fleiss")
out <- list(
  source = paste("irr 0.84.1 R/icc.R and irrNA 0.2.3 R/iccNA.R (CRAN sources on GitHub),",
                 "psych", as.character(packageVersion("psych")), "ICC(lmer = FALSE),",
                 R.version.string),
  irr_anxiety = irr_values(anxiety, 0),
  irr_anxiety_r0 = irr_values(anxiety, 0.3),
  psych_anxiety = psych_values(anxiety),
  psych_shrout_fleiss = psych_values(shrout),
  iccna_anxiety = icc_na(anxiety, 0),
  iccna_ebel51 = icc_na(read("ebel51"), 0),
  iccna_ebel51_rho = icc_na(read("ebel51"), 0.3),
  iccna_consistna = icc_na(read("consistna"), 0)
)
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE),
           file.path("tests", "reference", "r", "icc_values.json"))
