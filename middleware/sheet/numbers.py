"""Small number rules the sheet shares: rounding, step tables, reading a cell (SHEET-TIER-02,
SHEET-DRV-06, SHEET-REF-13)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def round_by(value: float, mode: str) -> float:
    """SHEET-TIER-02: ``down`` floors, ``up`` ceils, ``nearest`` rounds halves toward +inf.

    Never Python's ``round()``, which rounds halves to even.
    """
    if mode == "up":
        return float(math.ceil(value))
    if mode == "nearest":
        return float(math.floor(value + 0.5))
    return float(math.floor(value))


def step_lookup(table: Sequence[tuple[float, float]], value: float) -> float:
    """SHEET-DRV-06: the value of the last row whose threshold is <= ``value``; below the first
    row, the first row's value."""
    result = table[0][1]
    for threshold, row_value in table:
        if threshold <= value:
            result = row_value
    return result


def finite(value: object) -> float | None:
    """``value`` as a finite number, or None (booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def truncate(value: float) -> int:
    """SHEET-ADJ-03: toward zero (1.5 -> 1, -1.5 -> -1)."""
    return int(value)


def whole(value: float) -> int:
    """A sheet number as a whole number, floored (SHEET-REF-13)."""
    return math.floor(value)
