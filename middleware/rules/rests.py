"""Rests (SHEET-REST): modelled and checked at import; ``character/rest.py`` applies them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from middleware.rules.base import Id, Strict
from middleware.rules.sheet_fields import Label


class ByConst(Strict):
    """SHEET-REST-02: ``{const: n}``, whole, may be negative."""

    const: int
    """The whole number added (may be negative: a track goes down)."""


class ByFraction(Strict):
    """SHEET-REST-02: adds max(``min``, round(f x max))."""

    fraction_of_max: float = Field(alias="fractionOfMax", gt=0, le=1)
    """The share of the maximum given back (above 0, at most 1)."""
    round: Literal["down", "up", "nearest"] = "down"
    """How the share is rounded: ``down`` (default), ``up`` or ``nearest``."""
    min: int = Field(default=0, ge=0)
    """The least given back (0 or more; 0 by default)."""


class RestoreStep(Strict):
    """SHEET-REST-02: exactly one target and exactly one of ``to``/``by`` (checked in
    ``rules/audit/sheet.py`` so that each problem has its own path)."""

    pool: Id | None = None
    """A live pool the step restores."""
    pool_group: Id | None = Field(default=None, alias="poolGroup")
    """Every pool of this group."""
    list_pools: Id | None = Field(default=None, alias="listPools")
    """Every row pool of this sheet list."""
    track: Id | None = None
    """A live track or wound track; a wound track can only be healed."""
    state: Id | None = None
    """A live state the step sets."""
    kind: Id | None = None
    """On a wound track: only marks of this kind are cleared."""
    recharge: list[str] | None = None
    """With ``listPools``: only rows whose recharge cell is one of these values."""
    to: int | str | None = None
    """The value set: ``max``, ``min``, a whole number, or for a state ``default`` or one of its
    values."""
    by: ByConst | ByFraction | None = None
    """How much is added: ``{"const": n}`` or a fraction of the maximum."""

    @property
    def targets(self) -> list[str]:
        """The target keys this step names (exactly one is valid)."""
        named = {"pool": self.pool, "poolGroup": self.pool_group, "listPools": self.list_pools,
                 "track": self.track, "state": self.state}
        return [key for key, value in named.items() if value is not None]


class Clear(Strict):
    """SHEET-REST-07."""

    text: list[Id] = Field(default_factory=list, max_length=12)
    """Live text fields emptied."""
    conditions: Literal["all"] | list[Id] = Field(default_factory=list, max_length=80)
    """Conditions removed: ``all`` or a list of ids."""


class Rest(Strict):
    """SHEET-REST-01."""

    id: Id
    """The rest's id, as item recharges and commands name it."""
    label: Label
    """The rest's name (``Long rest``, ``Catch your breath``)."""
    restore: list[RestoreStep] = Field(default_factory=list, max_length=40)
    """What the rest gives back, step by step (up to 40); it does nothing else."""
    clear: Clear | None = None
    """Live text and conditions the rest clears after the steps."""
