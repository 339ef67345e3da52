"""Tidy results: ``to_dict()``, ``to_frame()`` and the labelled matrices of every coefficient.

This module defines, once, the keys of a result's record: the command
line's JSON (:mod:`concord._render.records`) is built from the same
:func:`summary` and :func:`kappa_fields`, so ``result.to_dict()`` and
``concord kappa --format json`` cannot drift apart. pandas is imported only
by the methods that return frames.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._common.extras import require
from concord._common.jsonable import jsonable

# the two-rater tables' rows and columns; the multi-rater matrices pair categories
_TWO_RATERS = ("rater 1", "rater 2")
_CATEGORIES = ("category", "category")


def summary(
    result: Any, confidence_level: float = 0.95, method: str | None = None, rng: Any = None
) -> dict[str, Any]:
    """Return one coefficient's row, unrounded: value, SE, interval, p-value, interpretation.

    The keys of every row of ``concord agree --format json``; nan stays nan
    here (:func:`~concord._common.jsonable.jsonable` makes it None).
    """
    low, high = result.confidence_interval(confidence_level, method=method, rng=rng)
    scale = result._described.scale
    defined = math.isfinite(result.statistic)
    reading = None if scale is None else result.interpret() if defined else "undefined"
    return {
        "coefficient": result.name,
        "function": result.coefficient,
        "weighting": result.weighting,
        "statistic": result.statistic,
        "standard_error": result.standard_error,
        "confidence_level": confidence_level,
        "ci_method": method or result.interval_method,
        "ci_low": low,
        "ci_high": high,
        "pvalue": result.pvalue,
        "interpretation": reading,
        "interpretation_scale": scale,
        "observed_agreement": result.observed_agreement,
        "chance_agreement": result.chance_agreement,
    }


def kappa_fields(result: Any, top: int = 5) -> dict[str, Any]:
    """Return what ``concord kappa --format json`` adds to the row: n, O, W, E, costliest cells."""
    lost = result.contributions().ranked(top) if math.isfinite(result.statistic) else []
    return {
        "n": result.n,
        "labels": list(result.labels),
        "observed": result.observed,
        "weights": result.weights,
        "expected": result.expected,
        "kappa_max": result.kappa_max,
        "costliest_confusions": [
            {"rater1": a, "rater2": b, "kappa_lost": loss, "share": share, "share_by_chance": e}
            for a, b, loss, share, e in lost
        ],
    }


def one_row(record: dict[str, Any]) -> Any:
    """Return a one-row DataFrame of the record's scalars (lists, arrays and dicts left out)."""
    pd = require("pandas", "pandas", "to_frame()")

    nested = (list, tuple, dict, np.ndarray)
    return pd.DataFrame([{k: v for k, v in record.items() if not isinstance(v, nested)}])


def labelled(matrix: np.ndarray, labels: tuple[Any, ...], names: tuple[str, str]) -> Any:
    """Return a k×k matrix as a DataFrame with the labels as its index and columns."""
    pd = require("pandas", "pandas", "a result's tables as DataFrames")

    index = pd.Index(list(labels), name=names[0])
    columns = pd.Index(list(labels), name=names[1])
    return pd.DataFrame(np.asarray(matrix), index=index, columns=columns)


class Tidy:
    """``to_dict()``, ``to_frame()`` and the matrices as frames, for the coefficient results.

    A two-rater result (it has ``observed``) gives O, E and W with rows
    "rater 1" and columns "rater 2". Krippendorff's alpha gives its
    coincidence matrix o_ck as the observed matrix and the expected
    coincidences e_ck as the expected one (Krippendorff 2011). The other
    multi-rater coefficients are computed from each item's category counts,
    not from a k×k table: their ``observed_frame()`` and
    ``expected_frame()`` raise ValueError; every result has ``weights_frame()``.
    """

    def _record(self, confidence_level: float, method: str | None, rng: Any) -> dict[str, Any]:
        row = summary(self, confidence_level, method, rng)
        return {**row, **kappa_fields(self)} if hasattr(self, "contributions") else row

    def to_dict(
        self, confidence_level: float = 0.95, *, method: str | None = None, rng: Any = None
    ) -> dict[str, Any]:
        """Return the result as JSON-ready values, unrounded, with the command line's keys.

        The keys of ``concord agree --format json``'s rows (for two raters
        also those of ``concord kappa --format json``: ``n``, ``labels``,
        ``observed``, ``weights``, ``expected``, ``kappa_max`` and
        ``costliest_confusions``). Matrices are nested lists; nan and ±inf
        are None, so ``json.dumps(result.to_dict(), allow_nan=False)`` works.

        Parameters
        ----------
        confidence_level, method, rng
            The interval's, as in :meth:`confidence_interval`.

        Returns
        -------
        dict

        Examples
        --------
        Cohen's (1960) kappa of a small table, 1 − 1/3 with quadratic weights:

        >>> import concord
        >>> r = concord.cohen_kappa([1, 2, 3, 3], [1, 2, 3, 2], weights="quadratic")
        >>> d = r.to_dict()
        >>> d["statistic"], d["observed"][2], d["interpretation"]
        (0.8, [0, 1, 1], 'substantial')
        """
        return dict(jsonable(self._record(confidence_level, method, rng)))

    def to_frame(
        self, confidence_level: float = 0.95, *, method: str | None = None, rng: Any = None
    ) -> Any:
        """Return a one-row pandas DataFrame of the scalars of :meth:`to_dict`.

        The same keys and values, without the matrices and lists (see
        :meth:`observed_frame`); undefined values are NaN here, not None. The
        columns start as every result's do: ``coefficient``, ``statistic``,
        ``standard_error``, ``ci_low``, ``ci_high``, ``pvalue``, ``n`` (the
        pairs of two raters, the items of many).

        Examples
        --------
        >>> import concord
        >>> r = concord.fleiss_kappa([[1, 1, 2], [2, 2, 2], [1, 1, 1], [2, 1, 2]])
        >>> r.to_frame()[["coefficient", "statistic", "ci_method", "n"]]
             coefficient  statistic ci_method  n
        0  Fleiss' kappa   0.333333  fisher-z  4
        """
        from concord._results.protocol import tidy_frame

        return tidy_frame(self._rows_(confidence_level, method, rng))

    def _rows_(
        self, confidence_level: float = 0.95, method: str | None = None, rng: Any = None
    ) -> list[dict[str, Any]]:
        """Return the result's one tidy row: the record's scalars, with ``n``."""
        record = self._record(confidence_level, method, rng)
        n = record.get("n", getattr(self, "n_items", math.nan))
        raters = getattr(self, "raters", None)
        named = {} if raters is None else {"rater1": raters[0], "rater2": raters[1]}
        return [{**record, "n": n, **named}]

    def _matrix(self, which: str) -> tuple[np.ndarray, tuple[str, str]]:
        labels = self.labels  # type: ignore[attr-defined]
        if hasattr(self, "observed"):
            return getattr(self, which), _two_raters(self)
        coincidences = getattr(self, "coincidences", None)
        if coincidences is not None:
            return (coincidences if which == "observed" else _expected(coincidences)), _CATEGORIES
        kind = type(self).__name__
        name = getattr(self, "name", kind)
        reason = (
            "its coincidences were not formed (continuous data with very many values)"
            if hasattr(self, "coincidences")
            else "it is computed from each item's category counts, not from a "
            f"{len(labels)}×{len(labels)} table"
        )
        raise ValueError(
            f"{kind}.{which}_frame(): {name} has no {which} matrix, because {reason}. "
            "weights_frame() gives its weights; two-rater results give O and E."
        )

    def observed_frame(self) -> Any:
        """Return the observed matrix as a DataFrame labelled by the categories.

        O for two raters (index "rater 1", columns "rater 2"); Krippendorff's
        coincidences o_ck; otherwise a ValueError.

        Examples
        --------
        >>> import concord
        >>> concord.cohen_kappa(["a", "b", "b"], ["a", "b", "a"]).observed_frame()
        rater 2  a  b
        rater 1
        a        1  0
        b        1  1
        """
        matrix, names = self._matrix("observed")
        return labelled(matrix, self.labels, names)  # type: ignore[attr-defined]

    def expected_frame(self) -> Any:
        """Return the matrix expected by chance as a DataFrame labelled by the categories.

        E for two raters; Krippendorff's expected coincidences
        e_ck = n_c (n_k − [c = k]) / (n.. − 1) (Krippendorff 2011);
        otherwise a ValueError.
        """
        matrix, names = self._matrix("expected")
        return labelled(matrix, self.labels, names)  # type: ignore[attr-defined]

    def weights_frame(self) -> Any:
        """Return the disagreement weights W (0 on the diagonal) labelled by the categories."""
        names = _two_raters(self) if hasattr(self, "observed") else _CATEGORIES
        return labelled(self.weights, self.labels, names)  # type: ignore[attr-defined]


def _two_raters(result: Any) -> tuple[str, str]:
    """Return the names of O's rows and columns: the raters' names, "rater 1"/"rater 2" if none."""
    raters = tuple(getattr(result, "raters", ("rater1", "rater2")))
    return _TWO_RATERS if raters == ("rater1", "rater2") else (raters[0], raters[1])


def _expected(coincidences: np.ndarray) -> np.ndarray:
    """Return Krippendorff's (2011) expected coincidences from the observed ones."""
    totals = coincidences.sum(axis=1)
    n = totals.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        expected: np.ndarray = (np.outer(totals, totals) - np.diag(totals)) / (n - 1)
    return expected
