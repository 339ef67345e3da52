# Writes tests/reference/r/irrcac14_values.json: reference values from Gwet's R irrCAC 1.4.
#
# Run from the repository root, with a copy of irrCAC's R sources (kgwet/irrCAC, directory R/):
#   Rscript tests/reference/r/irrcac14.R /path/to/irrCAC/R
# Needs R and jsonlite only. irrCAC's code is not part of this repository; the JSON records
# the commit it was read at (pass it as a second argument) and is what the tests read.
#
# What is sourced: agree.coeff3.raw.r (krippen.alpha.raw, gwet.ac1.raw, trim),
# agree.coeff3.dist.r (krippen.alpha.dist, fleiss.kappa.dist, gwet.ac1.dist, bp.coeff.dist)
# and weights.gen.r (the weight functions). Two changes are made while sourcing, both
# outside the numbers compared:
# * round() is the identity inside irrCAC's functions, so coeff.val, coeff.se and the
#   confidence bounds come back unrounded (irrCAC prints 5 and 3 decimals);
# * irrCAC's dplyr calls (dplyr::summarise counting ratings per rater, dplyr::reframe for
#   the smallest and largest number of ratings per subject, both only printed) are
#   replaced by base R, so dplyr is not needed.
# Numbers are written with jsonlite digits = NA (15 significant digits).

suppressPackageStartupMessages(library(jsonlite))

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 1) stop("usage: Rscript tests/reference/r/irrcac14.R <irrCAC R dir> [commit]")
src_dir <- args[1]
commit <- if (length(args) >= 2) args[2] else NA_character_
multi_dir <- file.path("tests", "reference", "multi")
out_path <- file.path("tests", "reference", "r", "irrcac14_values.json")
if (!dir.exists(multi_dir)) stop("run from the repository root")

irrcac <- new.env()
irrcac$round <- function(x, digits = 0) x
irrcac$shim_summarise <- function(.data, ...) as.data.frame(t(colSums(.data)))
irrcac$shim_reframe <- function(.data, ...) rowSums(.data)
irrcac$`%>%` <- function(lhs, rhs) {
  call <- substitute(rhs)
  eval(as.call(c(call[[1]], list(lhs), as.list(call)[-1])), parent.frame())
}
for (file in c("weights.gen.r", "agree.coeff3.raw.r", "agree.coeff3.dist.r")) {
  text <- readLines(file.path(src_dir, file), warn = FALSE)
  text <- gsub("dplyr::summarise", "shim_summarise", text, fixed = TRUE)
  text <- gsub("dplyr::reframe", "shim_reframe", text, fixed = TRUE)
  eval(parse(text = text), envir = irrcac)
}

read_wide <- function(file) {
  read.csv(file.path(multi_dir, file), na.strings = "", check.names = FALSE,
           stringsAsFactors = FALSE, colClasses = NA)
}

bounds <- function(conf.int) as.numeric(strsplit(gsub("[()]", "", conf.int), ",")[[1]])

# ---------------------------------------------------------------- krippen.alpha.raw
raw_cases <- list(
  list(data = "krippendorff_4obs_12units.csv",
       weights = c("unweighted", "quadratic", "ratio", "ordinal"), N = c(Inf, 100)),
  list(data = "hayes_krippendorff_2007.csv", weights = c("unweighted", "quadratic"), N = Inf),
  list(data = "fleiss1971_diagnoses.csv", weights = c("unweighted", "ratio"), N = Inf),
  list(data = "cac_raw_gender.csv",
       weights = c("unweighted", "quadratic", "ratio", "ordinal"), N = Inf),
  list(data = "sentiment_3raters.csv", weights = c("unweighted", "ratio"), N = Inf)
)
alpha_raw <- list()
for (case in raw_cases) {
  ratings <- read_wide(case$data)
  for (w in case$weights) for (N in case$N) {
    out <- irrcac$krippen.alpha.raw(ratings, weights = w, N = N)
    est <- out$est
    ci <- bounds(est$conf.int)
    alpha_raw[[length(alpha_raw) + 1]] <- list(
      data = case$data, weights = w, N = if (is.finite(N)) N else "Inf",
      call = sprintf("krippen.alpha.raw(ratings, weights = \"%s\", N = %s)", w, N),
      categories = as.character(out$categories),
      coeff = est$coeff.val, se = est$coeff.se, pa = est$pa, pe = est$pe,
      p_value_one_sided = est$p.value, ci95 = ci,
      n_subjects = nrow(ratings), weights_matrix = unname(out$weights))
  }
}

# ---------------------------------------------------------------- the .dist functions
dist_cases <- list(
  list(data = "distrib_6raters_counts.csv", weights = c("unweighted", "quadratic", "ratio")),
  list(data = "cac_dist4cat_counts.csv", weights = c("unweighted", "quadratic", "ratio")),
  list(data = "wikipedia_fleiss_counts.csv", weights = c("unweighted", "quadratic"))
)
dist_funcs <- c("krippen.alpha.dist", "fleiss.kappa.dist", "gwet.ac1.dist", "bp.coeff.dist")
dist <- list()
for (case in dist_cases) {
  counts <- read.csv(file.path(multi_dir, case$data), check.names = FALSE)
  for (w in case$weights) for (f in dist_funcs) {
    est <- get(f, envir = irrcac)(counts, weights = w)
    dist[[length(dist) + 1]] <- list(
      data = case$data, func = f, weights = w,
      call = sprintf("%s(counts, weights = \"%s\")", f, w),
      coeff = est$coeff, se = est$stderr, pa = est$pa, pe = est$pe,
      p_value_one_sided = est$p.value, ci95 = bounds(est$conf.int),
      n_subjects = nrow(counts))
  }
}

# ---------------------------------------------------------------- weights.gen.r
weight_sets <- list(text = c("a", "b", "c", "d", "e"), numeric = c(1, 2, 3, 5, 8),
                    fractional = c(0.5, 1, 2.5, 4))
families <- c("linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")
weights <- list()
for (set in names(weight_sets)) for (fam in families) {
  categ <- weight_sets[[set]]
  weights[[length(weights) + 1]] <- list(
    categories = categ, family = fam, call = sprintf("%s.weights(categ)", fam),
    agreement = unname(get(paste0(fam, ".weights"), envir = irrcac)(categ)))
}

# ---------------------------------------------------------------- gwet.ac1.raw (README)
ac1 <- irrcac$gwet.ac1.raw(read_wide("krippendorff_4obs_12units.csv"))$est

header <- paste0(
  "Generated by tests/reference/r/irrcac14.R from Gwet's R irrCAC 1.4 (kgwet/irrCAC, ",
  "commit ", commit, ") with R ", R.version$major, ".", R.version$minor,
  ", jsonlite ", packageVersion("jsonlite"),
  "; generated, do not edit; rerun: Rscript tests/reference/r/irrcac14.R <irrCAC R dir> <commit>")
result <- list(
  `_comment` = header,
  source = list(repository = "kgwet/irrCAC", commit = commit, version = "1.4",
                files = c("R/agree.coeff3.raw.r", "R/agree.coeff3.dist.r", "R/weights.gen.r")),
  conventions = paste(
    "round() is the identity inside irrCAC, so nothing is rounded;",
    "p_value_one_sided is irrCAC's p.value, 1 - pt(coeff/se, df), one-sided since irrCAC 1.1;",
    "ci95 = coeff -/+ qt(0.975, df) se with the upper bound cut at 1;",
    "krippen.alpha.raw: df = n_subjects - 1 (all rows), variance over the subjects with",
    "two ratings or more; .dist: df = their number - 1;",
    "weights hold irrCAC's agreement weights (1 - disagreement / max)."),
  krippen_alpha_raw = alpha_raw,
  dist = dist,
  weights = weights,
  gwet_ac1_raw = list(data = "krippendorff_4obs_12units.csv", call = "gwet.ac1.raw(ratings)",
                      coeff = ac1$coeff.val, se = ac1$coeff.se, pa = ac1$pa, pe = ac1$pe))
writeLines(toJSON(result, auto_unbox = TRUE, digits = NA, pretty = TRUE, na = "null"),
           out_path)
cat("wrote", out_path, "\n")
