"""The exact odds every kind answers with: the chance of success and of each tier (SPEC §6 ``chance``).

Each kind works its own distribution out in its folder (``<kind>/odds.py``); this is the value they
all return, worked in ``Fraction`` and turned to a float once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Odds:
    """The exact chance of success and of each tier (labels best first) of one check."""

    success: Fraction
    tiers: tuple[tuple[str, Fraction], ...] = ()
    chance: float = field(init=False, compare=False)
    """The float written on the record, worked out once (odds are cached, records are not)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "chance", float(self.success))
