# Reference values for tests/test_intra_rater.py: R irr's relInterIntra
# (irr 0.84.1, GPL >= 2, https://CRAN.R-project.org/package=irr) on its
# documented example: the goniometer data of Eliasziw et al. (1994), table 4
# (29 subjects; raters 'universal' and 'Lamoreux', 3 measurements each),
# copied into goniometer.csv.
# Run: Rscript relInterIntra.R            (with irr installed), or
#      Rscript relInterIntra.R DIR        (DIR holds irr's R/relInterIntra.R)
args <- commandArgs(trailingOnly = TRUE)
if (length(args)) source(file.path(args[1], "relInterIntra.R")) else library(irr)
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(FALSE), value = TRUE)))
x <- read.csv(file.path(here, "goniometer.csv"), comment.char = "#")
r <- relInterIntra(x = as.matrix(x[, -1]), nrater = 2, raterLabels = c("universal", "Lamoreux"))
v <- unlist(r$value)
for (i in seq_along(v)) cat(sprintf("%-40s %.10f\n", names(v)[i], v[i]))
