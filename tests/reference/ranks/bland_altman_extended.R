# Reference values for tests/test_bland_altman_extended.py (R 4.2.2, base R only).
# Data: methcomp_plvol.csv (MethComp's plvol, wide) and simplyagree_reps.csv (SimplyAgree's reps).
# The formulas are those of the papers, written out here independently of concord:
# Bland & Altman (1999) section 3 (logs and percentages) and section 5.2 with Zou (2013) for
# replicates when the true value is constant (MOVER intervals of the limits).
pl <- read.csv("methcomp_plvol.csv")
d <- log(pl$y.Nadler) - log(pl$y.Hurley)
z <- qnorm(0.975)
cat(sprintf("ratio: mean %.12f sd %.12f limits %.12f %.12f\n", mean(d), sd(d),
            exp(mean(d) - z * sd(d)), exp(mean(d) + z * sd(d))))
p <- 100 * (pl$y.Nadler - pl$y.Hurley) / ((pl$y.Nadler + pl$y.Hurley) / 2)
cat(sprintf("percent: mean %.12f sd %.12f limits %.12f %.12f\n", mean(p), sd(p),
            mean(p) - z * sd(p), mean(p) + z * sd(p)))
reps <- read.csv("simplyagree_reps.csv")
ids <- unique(reps$id)
f <- function(v, g) sapply(ids, function(i) g(v[reps$id == i & !is.na(v)]))
mx <- f(reps$x, length); my <- f(reps$y, length)
d <- f(reps$x, mean) - f(reps$y, mean)
n <- length(ids); Nx <- sum(mx); Ny <- sum(my)
sx <- sum((mx - 1) * f(reps$x, var)) / (Nx - n)
sy <- sum((my - 1) * f(reps$y, var)) / (Ny - n)
ax <- 1 - mean(1 / mx); ay <- 1 - mean(1 / my)
dv <- var(d); tv <- dv + ax * sx + ay * sy
gap <- function(p) sqrt((dv * (1 - (n - 1) / qchisq(p, n - 1)))^2 +
  (ax * sx * (1 - (Nx - n) / qchisq(p, Nx - n)))^2 + (ay * sy * (1 - (Ny - n) / qchisq(p, Ny - n)))^2)
lo <- tv - gap(0.975); hi <- tv + gap(0.025)
b <- mean(d); l <- b - z * sqrt(tv); u <- b + z * sqrt(tv)
left <- sqrt(z^2 * dv / n + z^2 * (sqrt(hi) - sqrt(tv))^2)
right <- sqrt(z^2 * dv / n + z^2 * (sqrt(tv) - sqrt(lo))^2)
cat(sprintf("constant: bias %.12f sd %.12f limits %.12f %.12f\n", b, sqrt(tv), l, u))
cat(sprintf("constant: lower CI %.12f %.12f upper CI %.12f %.12f\n", l - left, l + right,
            u - right, u + left))
