# Reference values for tests/test_ranks.py: Kendall's W, the mean correlations and the OCCC.
#
# Sources (CRAN sources on GitHub, read with `source()` so that no package needs installing):
#   irr 0.84.1      R/kendall.R, R/meancor.R, R/meanrho.R   (Gamer, Lemon, Fellows & Singh)
#   irrNA 0.2.3     R/kendallNA.R and its data sets ConsistNA, IndepNA, IndepW (Brueckl)
#   epiR 2.0.94     R/epi.occc.R                            (Stevenson et al.)
# Run:  SRC=/path/with/irr,irrNA,epiR Rscript tests/reference/ranks/ranks.R
# It writes the irrNA data sets as CSV beside this script and ranks_values.json.

src <- Sys.getenv("SRC", "/tmp/ranks_r")
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(FALSE), value = TRUE)))
for (f in c("irr/R/kendall.R", "irr/R/meancor.R", "irr/R/meanrho.R",
            "irrNA/R/kendallNA.R", "epiR/R/epi.occc.R")) source(file.path(src, f))

anxiety <- as.matrix(read.csv(file.path(here, "..", "icc", "anxiety.csv")))
# anxiety with five ratings removed, for kendallNA and the pairwise OCCC
anxiety_na <- anxiety
anxiety_na[cbind(c(2, 5, 9, 14, 18), c(1, 2, 3, 1, 2))] <- NA
write.csv(anxiety_na, file.path(here, "anxiety_na.csv"), row.names = FALSE, na = "")
for (name in c("ConsistNA", "IndepNA", "IndepW")) {
  load(file.path(src, "irrNA", "data", paste0(name, ".rda")))
  write.csv(get(name), file.path(here, paste0("irrna_", tolower(name), ".csv")),
            row.names = FALSE, na = "")
}

num <- function(x) if (is.na(x)) "null" else sprintf("%.17g", x)
obj <- function(values) paste0("{", paste(sprintf('"%s": %s', names(values),
                                                  sapply(values, num)), collapse = ", "), "}")
irr_values <- function(r) c(value = r$value, statistic = r$statistic, p = r$p.value)
na_values <- function(x) {
  r <- kendallNA(as.data.frame(x))
  c(amrho = r$amrho, amk = r$amk, W = r[["Kendall's W"]], chisqu = r$chisqu, p = r$p)
}
occc <- function(x, na.rm) { r <- epi.occc(x, na.rm = na.rm); c(occc = r$occc, oprec = r$oprec,
                                                                  oaccu = r$oaccu) }
out <- c(
  kendall_anxiety = obj(irr_values(kendall(anxiety))),
  kendall_anxiety_correct = obj(irr_values(kendall(anxiety, TRUE))),
  meancor_anxiety = obj(irr_values(meancor(anxiety))),
  meanrho_anxiety = obj(irr_values(meanrho(anxiety))),
  kendallna_anxiety = obj(na_values(anxiety)),
  kendallna_anxiety_na = obj(na_values(anxiety_na)),
  kendallna_consistna = obj(na_values(get("ConsistNA"))),
  kendallna_indepna = obj(na_values(get("IndepNA"))),
  kendallna_indepw = obj(na_values(get("IndepW"))),
  occc_anxiety = obj(occc(anxiety, FALSE)),
  occc_anxiety_na = obj(occc(anxiety_na, TRUE))
)
json <- paste0("{\n", paste(sprintf('  "%s": %s', names(out), out), collapse = ",\n"), "\n}\n")
writeLines(json, file.path(here, "ranks_values.json"))
