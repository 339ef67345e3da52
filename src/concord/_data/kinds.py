"""One value, one type: a rating present as a number and as its text is an error.

Ratings that come from two sources (gold labels read from a file, a column
of text among columns of numbers, a list mixing ``1`` and ``"1"``) would
otherwise be two categories that never agree, and every coefficient would
count them as disagreements, silently. As :func:`concord.evaluate` refuses
group labels that read alike, the categories found are checked once (the
distinct values only, so the cost does not grow with the ratings).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from concord._common.errors import ForCli, param_error


def check_text_numbers(values: Sequence[Any], func: str, name: str = "ratings") -> None:
    """Refuse categories where one value is there as a number and as its text (1 and '1').

    Ratings read from two sources (gold labels from a file, a column of
    text among numbers) would otherwise be two categories that never agree.
    The check looks at the distinct values only: a text category that reads
    as a number (``int`` or ``float`` of its text) equal to a number category.
    Label sets are checked by their labels: ``{1}`` and ``{"1"}`` are refused too.
    """
    if any(isinstance(v, frozenset) for v in values):
        sets = (sorted(v, key=repr) for v in values if isinstance(v, frozenset))
        values = list(dict.fromkeys(label for labels in sets for label in labels))
    texts = [v for v in values if isinstance(v, str)]
    if not texts or len(texts) == len(values):
        return
    numbers_ = {v for v in values if isinstance(v, numbers.Real)}
    for text in texts:
        number = _as_number(text)
        if number is not None and number in numbers_:
            same = next(v for v in numbers_ if v == number)
            param_error(
                func,
                name,
                "numbers or text, not both for one value",
                f"{same!r} as a number and {text!r} as text "
                "(two categories that would never agree)",
                raw=True,
                fix="Give the ratings one type: convert the text to numbers (e.g. "
                ".astype(int)) or the numbers to text (.astype(str)) before rating.",
                cli=ForCli(
                    fix="Give the ratings one type: correct the cells, or declare {labels} to "
                    "read every rating as text."
                ),
            )


def _as_number(text: str) -> float | None:
    try:
        return float(text.strip())
    except ValueError:
        return None
