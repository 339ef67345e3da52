"""The coefficients recomputed in exact ``fractions.Fraction`` arithmetic from the papers.

Written from the published formulas, independently of concord's code:

* Cohen (1960) κ and Cohen (1968) weighted κ: κ = 1 − Σ d_ij p_ij / Σ d_ij p_i. p_.j;
  the large-sample variance of Fleiss, Cohen & Everitt (1969), eq. (13) and its
  null-hypothesis form (14);
* Scott (1955) π: chance from the pooled marginals;
* Fleiss (1971), Conger (1980), Brennan & Prediger (1981), Gwet (2008) AC1 and the
  weighted AC2 and percent agreement, with missing ratings as Gwet (2014, ch. 2–5)
  generalises them (R irrCAC's ``*.raw`` functions follow the same formulas);
* Light (1971): the mean of the pairwise Cohen κ;
* Krippendorff (2011): the coincidence matrix and the four metrics;
* McGraw & Wong (1996) ICC forms from the two-way ANOVA mean squares;
* Lin (1989) concordance correlation; Bland & Altman (1986) bias and SD.

Weights are Gwet's (2014, ch. 3) disagreement weights scaled to a maximum of 1, on
scores that are the labels themselves when numeric, else their positions 1..k.
Irrational weights (radical, circular) are returned as the Fractions of their float
values: no exact value exists, and the test compares them with a tolerance.
"""

from __future__ import annotations

import decimal
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction as F
from itertools import combinations
from typing import Any

NAN = float("nan")
RATIONAL = ("unweighted", "linear", "quadratic", "ordinal", "ratio", "bipolar")
IRRATIONAL = ("radical", "circular")


def scores(labels: Sequence[Any], numeric: bool) -> list[F]:
    return [F(v) for v in labels] if numeric else [F(i + 1) for i in range(len(labels))]


def _raw(kind: str, x: list[F], i: int, j: int) -> F | float:
    a, b, lo, hi = x[i], x[j], min(x), max(x)
    if kind == "unweighted":
        return F(int(i != j))
    if kind == "linear":
        return abs(a - b)
    if kind == "quadratic":
        return (a - b) ** 2
    if kind == "ordinal":
        d = abs(i - j)
        return F(d * (d + 1), 2)
    if kind == "ratio":
        return ((a - b) / (a + b)) ** 2 if a + b else F(0)
    if kind == "bipolar":
        den = (a + b - 2 * lo) * (2 * hi - a - b)
        return (a - b) ** 2 / den if i != j else F(0)
    if kind == "radical":
        return math.sqrt(abs(a - b))
    if kind == "circular":
        return math.sin(math.pi * float(a - b) / float(hi - lo + 1)) ** 2
    raise ValueError(kind)


def disagreement(labels: Sequence[Any], numeric: bool, kind: str) -> list[list[F]]:
    """Gwet's disagreement weights, scaled to a maximum of 1 (all zeros for one category)."""
    x = scores(labels, numeric)
    k = len(x)
    raw = [[_raw(kind, x, i, j) for j in range(k)] for i in range(k)]
    top = max((v for row in raw for v in row), default=0)
    if isinstance(top, float):  # irrational weights: divide in floats, as they are given
        return [[F(v / top) if top else F(0) for v in row] for row in raw]
    return [[F(v) / top if top else F(0) for v in row] for row in raw]


def _kappa(o: F, e: F) -> float | F:
    return NAN if e == 0 else 1 - o / e


# -- two raters ------------------------------------------------------------------------


def pair_table(
    r1: Sequence[Any], r2: Sequence[Any], labels: Sequence[Any], weight: Sequence[Any] | None
) -> list[list[F]]:
    """The k×k table of (weighted) counts of the pairs both rated."""
    index = {v: i for i, v in enumerate(labels)}
    table = [[F(0)] * len(labels) for _ in labels]
    weight = weight if weight is not None else [1] * len(r1)
    for a, b, w in zip(r1, r2, weight, strict=True):
        if a is not None and b is not None:
            table[index[a]][index[b]] += F(w)
    return table


def _margins(table: list[list[F]]) -> tuple[F, list[F], list[F]]:
    n = sum(map(sum, table)) or F(1)  # no pair both rated: all zeros, κ is 0/0 (nan)
    rows = [sum(row) / n for row in table]
    cols = [sum(row[j] for row in table) / n for j in range(len(table))]
    return n, rows, cols


def cohen(table: list[list[F]], d: list[list[F]]) -> float | F:
    """Cohen (1968): κ_w = 1 − Σ d p_ij / Σ d p_i. p_.j."""
    n, rows, cols = _margins(table)
    k = len(table)
    o = sum(d[i][j] * table[i][j] / n for i in range(k) for j in range(k))
    e = sum(d[i][j] * rows[i] * cols[j] for i in range(k) for j in range(k))
    return _kappa(o, e)


def scott(table: list[list[F]], d: list[list[F]]) -> float | F:
    """Scott (1955), weighted: chance from the pooled marginals (p_i. + p_.i)/2."""
    n, rows, cols = _margins(table)
    k = len(table)
    m = [(rows[i] + cols[i]) / 2 for i in range(k)]
    o = sum(d[i][j] * table[i][j] / n for i in range(k) for j in range(k))
    e = sum(d[i][j] * m[i] * m[j] for i in range(k) for j in range(k))
    return _kappa(o, e)


def fce_variances(table: list[list[F]], d: list[list[F]]) -> tuple[F, F] | None:
    """Fleiss, Cohen & Everitt (1969): var(κ_w) and its null-hypothesis form, with w = 1 − d."""
    n, rows, cols = _margins(table)
    k = len(table)
    w = [[1 - v for v in row] for row in d]
    p = [[v / n for v in row] for row in table]
    po = sum(w[i][j] * p[i][j] for i in range(k) for j in range(k))
    pe = sum(w[i][j] * rows[i] * cols[j] for i in range(k) for j in range(k))
    if pe == 1:
        return None
    kappa = (po - pe) / (1 - pe)
    wi = [sum(w[i][j] * cols[j] for j in range(k)) for i in range(k)]
    wj = [sum(w[i][j] * rows[i] for i in range(k)) for j in range(k)]
    cells = [(i, j) for i in range(k) for j in range(k)]
    a = sum(p[i][j] * (w[i][j] - (wi[i] + wj[j]) * (1 - kappa)) ** 2 for i, j in cells)
    var = (a - (kappa - pe * (1 - kappa)) ** 2) / (n * (1 - pe) ** 2)
    a0 = sum(rows[i] * cols[j] * (w[i][j] - (wi[i] + wj[j])) ** 2 for i, j in cells)
    var0 = (a0 - pe**2) / (n * (1 - pe) ** 2)
    return var, var0


def qwk_table(r1: Sequence[int], r2: Sequence[int]) -> tuple[list[list[F]], list[list[F]]]:
    """Kaggle's QWK: integer ratings min..max, weights (i − j)²."""
    lo, hi = min(*r1, *r2), max(*r1, *r2)
    labels = list(range(lo, hi + 1))
    return pair_table(r1, r2, labels, None), disagreement(labels, True, "quadratic")


# -- several raters (Gwet 2014) ----------------------------------------------------------


def item_counts(rows: Sequence[Sequence[Any]], labels: Sequence[Any]) -> list[list[int]]:
    """r_ik: how many raters put item i in category k (items with no rating left out)."""
    index = {v: i for i, v in enumerate(labels)}
    out = []
    for row in rows:
        counts = [0] * len(labels)
        for v in row:
            if v is not None:
                counts[index[v]] += 1
        if sum(counts):
            out.append(counts)
    return out


def _pa(counts: list[list[int]], w: list[list[F]]) -> F | float:
    """Gwet (2014) p_a: the mean over items rated at least twice (equal items counted once)."""
    q = len(w)
    total, items = F(0), 0
    for r, times in Counter(map(tuple, counts)).items():
        ri = sum(r)
        if ri >= 2:
            star = [sum(w[k][m] * r[m] for m in range(q)) for k in range(q)]
            total += times * sum(r[k] * (star[k] - 1) for k in range(q)) / (ri * (ri - 1))
            items += times
    return total / items if items else NAN


def _pi(counts: list[list[int]]) -> list[F]:
    q = len(counts[0])
    patterns = Counter(map(tuple, counts)).items()
    return [sum(t * F(r[k], sum(r)) for r, t in patterns) / len(counts) for k in range(q)]


def multi(
    name: str, rows: Sequence[Sequence[Any]], labels: Sequence[Any], d: list[list[F]]
) -> float | F:
    """Percent agreement, Fleiss, Gwet AC1/AC2, Brennan–Prediger or Conger, Gwet (2014)."""
    q = len(labels)
    w = [[1 - v for v in row] for row in d]
    counts = item_counts(rows, labels)
    pa = _pa(counts, w)
    if name == "percent_agreement" or isinstance(pa, float):
        return pa
    tw = sum(map(sum, w))
    if name == "fleiss_kappa":
        pi = _pi(counts)
        pe = sum(w[k][m] * pi[k] * pi[m] for k in range(q) for m in range(q))
    elif name == "gwet_ac":
        pi = _pi(counts)
        pe = tw / (q * (q - 1)) * sum(p * (1 - p) for p in pi) if q > 1 else F(1)
    elif name == "brennan_prediger":
        pe = tw / q**2
    else:
        pe = conger_chance(rows, labels, w)
    return NAN if pe == 1 else (pa - pe) / (1 - pe)


def conger_chance(rows: Sequence[Sequence[Any]], labels: Sequence[Any], w: list[list[F]]) -> F:
    """Conger (1980) as Gwet (2014, eq. 2.20): Σ w_kl (p̄_k p̄_l − s²_kl / r)."""
    q, r = len(labels), len(rows[0])
    p = []
    for g in range(r):
        got = [row[g] for row in rows if row[g] is not None]
        if got:  # a rater who rated nothing is left out (issue 24 item 10)
            p.append([F(got.count(c), len(got)) for c in labels])
    r = len(p)
    mean = [sum(pg[k] for pg in p) / r for k in range(q)]

    def s2(k: int, m: int) -> F:
        return (sum(pg[k] * pg[m] for pg in p) - r * mean[k] * mean[m]) / (r - 1)

    return sum(w[k][m] * (mean[k] * mean[m] - s2(k, m) / r) for k in range(q) for m in range(q))


def light(rows: Sequence[Sequence[Any]], labels: Sequence[Any], d: list[list[F]]) -> list[Any]:
    """Light (1971): the pairwise Cohen κ, on the items both raters rated."""
    r = len(rows[0])
    out = []
    for g, h in combinations(range(r), 2):
        table = pair_table([row[g] for row in rows], [row[h] for row in rows], labels, None)
        out.append(cohen(table, d))
    return out


# -- Krippendorff (2011) -----------------------------------------------------------------


def krippendorff(
    rows: Sequence[Sequence[Any]], labels: Sequence[Any], numeric: bool, level: str
) -> float | F:
    """α = 1 − (n.. − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck."""
    q = len(labels)
    o = [[F(0)] * q for _ in range(q)]
    for r in item_counts(rows, labels):
        m = sum(r)
        if m < 2:
            continue
        for c in range(q):
            for k in range(q):
                o[c][k] += F(r[c] * (r[k] - (c == k)), m - 1)
    nc = [sum(row) for row in o]
    n = sum(nc)
    x = scores(labels, numeric)

    def delta(c: int, k: int) -> F:
        if level == "nominal":
            return F(int(c != k))
        if level == "ordinal":
            lo, hi = min(c, k), max(c, k)
            return (sum(nc[lo : hi + 1]) - (nc[c] + nc[k]) / 2) ** 2
        if level == "interval":
            return (x[c] - x[k]) ** 2
        return ((x[c] - x[k]) / (x[c] + x[k])) ** 2 if x[c] + x[k] else F(0)

    cells = [(c, k) for c in range(q) for k in range(q)]
    do = sum(o[c][k] * delta(c, k) for c, k in cells)
    de = sum(nc[c] * nc[k] * delta(c, k) for c, k in cells)
    return NAN if de == 0 else 1 - (n - 1) * do / de


def set_distance(level: str, a: frozenset[Any], b: frozenset[Any]) -> F:
    """Passonneau (2006) MASI, 1 − J·M, or the Jaccard distance 1 − J, of two label sets.

    J = |A ∩ B| / |A ∪ B|; M = 1 if A = B, 2/3 if one holds the other, 1/3 if they
    overlap, 0 if disjoint (NLTK 3.10's masi_distance). Two empty sets are at 0.
    """
    union = a | b
    if not union:
        return F(0)
    j = F(len(a & b), len(union))
    if level == "jaccard":
        return 1 - j
    if a == b:
        m = F(1)
    elif a <= b or b <= a:
        m = F(2, 3)
    elif a & b:
        m = F(1, 3)
    else:
        m = F(0)
    return 1 - j * m


def krippendorff_sets(rows: Sequence[Sequence[Any]], level: str) -> float | F:
    """α of label sets (None missing) with δ the set distance itself, as NLTK's alpha."""
    units = [[v for v in row if v is not None] for row in rows]
    units = [u for u in units if len(u) >= 2]
    values = [v for u in units for v in u]
    n = len(values)
    do = sum(
        (
            F(
                sum(
                    set_distance(level, a, b)
                    for i, a in enumerate(u)
                    for j, b in enumerate(u)
                    if i != j
                ),
                len(u) - 1,
            )
            for u in units
        ),
        F(0),
    )
    counts: dict[Any, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    de = sum(
        (
            na * nb * set_distance(level, a, b)
            for a, na in counts.items()
            for b, nb in counts.items()
        ),
        F(0),
    )
    return NAN if de == 0 else 1 - (n - 1) * do / de


def krippendorff_scores(x: Any, level: str) -> Any:
    """α of complete continuous scores (interval or ratio): Krippendorff (2011), pairwise.

    Interval: exact Fractions, from Σ_ab (a − b)² = 2mΣa² − 2(Σa)². Ratio: the sum of
    hundreds of thousands of ratios with distinct denominators is out of reach of
    Fractions, so it is summed in 80-digit decimals: the error (below 1e-70) can change
    the rounded float only if α lies that close to a rounding boundary.
    """
    if level == "interval":
        rows = [[F(float(v)) for v in row] for row in x.tolist()]
        within = sum(_squares(row) / (len(row) - 1) for row in rows)
        values = [v for row in rows for v in row]
        total = _squares(values)
        return NAN if total == 0 else 1 - (len(values) - 1) * within / total
    with decimal.localcontext() as context:
        context.prec = 80
        drows = [[decimal.Decimal(float(v)) for v in row] for row in x.tolist()]
        within = sum(_ratio_sum(row, row) / (len(row) - 1) for row in drows)
        flat = [v for row in drows for v in row]
        total = _ratio_sum(flat, flat)
        return NAN if total == 0 else 1 - (len(flat) - 1) * within / total


def _squares(values: list[F]) -> F:
    m = len(values)
    return 2 * m * sum(v * v for v in values) - 2 * sum(values) ** 2


def _ratio_sum(a: list[decimal.Decimal], b: list[decimal.Decimal]) -> decimal.Decimal:
    total = decimal.Decimal(0)
    for u in a:
        for v in b:
            if u + v:
                total += ((u - v) / (u + v)) ** 2
    return total


# -- continuous scores -------------------------------------------------------------------


def icc(x: Any) -> dict[str, F | float]:
    """McGraw & Wong (1996) forms from the two-way ANOVA of a complete n×k matrix."""
    rows = [[F(float(v)) for v in row] for row in x.tolist()]
    n, k = len(rows), len(rows[0])
    grand = sum(map(sum, rows)) / (n * k)
    rmean = [sum(row) / k for row in rows]
    cmean = [sum(row[j] for row in rows) / n for j in range(k)]
    sst = sum((v - grand) ** 2 for row in rows for v in row)
    ssr = k * sum((m - grand) ** 2 for m in rmean)
    ssc = n * sum((m - grand) ** 2 for m in cmean)
    msr, msc = ssr / (n - 1), ssc / (k - 1)
    mse = (sst - ssr - ssc) / ((n - 1) * (k - 1))
    msw = (sst - ssr) / (n * (k - 1))

    def ratio(num: F, den: F) -> F | float:
        return num / den if den else NAN

    return {
        "oneway/single": ratio(msr - msw, msr + (k - 1) * msw),
        "oneway/average": ratio(msr - msw, msr),
        "consistency/single": ratio(msr - mse, msr + (k - 1) * mse),
        "consistency/average": ratio(msr - mse, msr),
        "agreement/single": ratio(msr - mse, msr + (k - 1) * mse + k * (msc - mse) / n),
        "agreement/average": ratio(msr - mse, msr + (msc - mse) / n),
        "F/oneway": ratio(msr, msw),
        "F/twoway": ratio(msr, mse),
    }


def ccc(x: Any, y: Any) -> F | float:
    """Lin (1989): 2 s_xy / (s_x² + s_y² + (x̄ − ȳ)²), moments with 1/n."""
    fx, fy = [F(float(v)) for v in x], [F(float(v)) for v in y]
    n = len(fx)
    mx, my = sum(fx) / n, sum(fy) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(fx, fy, strict=True)) / n
    sxx = sum((a - mx) ** 2 for a in fx) / n
    syy = sum((b - my) ** 2 for b in fy) / n
    den = sxx + syy + (mx - my) ** 2
    return 2 * sxy / den if den else NAN


def bland_altman(x: Any, y: Any) -> tuple[F, F]:
    """Bland & Altman (1986): the mean difference and the variance of the differences."""
    d = [F(float(a)) - F(float(b)) for a, b in zip(x, y, strict=True)]
    n = len(d)
    bias = sum(d) / n
    return bias, sum((v - bias) ** 2 for v in d) / (n - 1)


def sqrt(v: F) -> float:
    """The correctly rounded square root of a non-negative Fraction."""
    if v == 0:
        return 0.0
    half = 110 - (v.numerator.bit_length() - v.denominator.bit_length()) // 2
    scaled = v * F(4) ** half if half >= 0 else v / F(4) ** -half
    whole = math.floor(scaled)
    root = math.isqrt(whole)  # floor(√v · 2^half), about 110 bits: one sticky bit rounds it
    sticky = root * root != whole or whole != scaled
    return math.ldexp(float(F(2 * root + int(sticky), 2)), -half)


def correctly_rounded(value: F | float) -> float:
    return value if isinstance(value, float) else float(value)
