"""Numbers in tag values are held to a size every reader can take (SPEC §8).

Python's ``int`` refuses a string of more than 4,300 digits (it would take quadratic time), and
``float`` reads ``1e999`` as infinity; a model may write either in ``dc=``, ``count=`` or
``amount=``. ``bound_numbers`` runs on every attribute value as the parser hands it over: a run
of more than ``MAX_DIGITS`` digits is cut to that many nines, and an exponent of more than two
digits to ``99``. Every reader then sees a number it can convert, and clamps it to its own range
as it does any large number (``dc=`` to ±1000, ``count=`` to 10,000, ...).
"""

from __future__ import annotations

import re

MAX_DIGITS = 30
"""The longest run of digits a tag value keeps (far beyond any range a rule reads)."""

_LONG_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
_LONG_EXPONENT = re.compile(r"(?<=\d)([eE][+-]?)\d{3,}")


def bound_numbers(value: str) -> str:
    """``value`` with over-long digit runs and exponents cut (the same text when none is)."""
    if len(value) <= MAX_DIGITS:
        return value
    value = _LONG_DIGITS.sub("9" * MAX_DIGITS, value)
    return _LONG_EXPONENT.sub(r"\g<1>99", value)
