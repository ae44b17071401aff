"""Rests (SHEET-REST): modelled and checked at import; ``character/rest.py`` applies them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from middleware.rules.base import Id, Strict
from middleware.rules.sheet_fields import Label


class ByConst(Strict):
    """SHEET-REST-02: ``{const: n}``, whole, may be negative."""

    const: int


class ByFraction(Strict):
    """SHEET-REST-02: adds max(``min``, round(f x max))."""

    fraction_of_max: float = Field(alias="fractionOfMax", gt=0, le=1)
    round: Literal["down", "up", "nearest"] = "down"
    min: int = Field(default=0, ge=0)


class RestoreStep(Strict):
    """SHEET-REST-02: exactly one target and exactly one of ``to``/``by`` (checked in
    ``rules/audit/sheet.py`` so that each problem has its own path)."""

    pool: Id | None = None
    pool_group: Id | None = Field(default=None, alias="poolGroup")
    list_pools: Id | None = Field(default=None, alias="listPools")
    track: Id | None = None
    state: Id | None = None
    kind: Id | None = None
    recharge: list[str] | None = None
    to: int | str | None = None
    by: ByConst | ByFraction | None = None

    @property
    def targets(self) -> list[str]:
        """The target keys this step names (exactly one is valid)."""
        named = {"pool": self.pool, "poolGroup": self.pool_group, "listPools": self.list_pools,
                 "track": self.track, "state": self.state}
        return [key for key, value in named.items() if value is not None]


class Clear(Strict):
    """SHEET-REST-07."""

    text: list[Id] = Field(default_factory=list, max_length=12)
    conditions: Literal["all"] | list[Id] = Field(default_factory=list, max_length=80)


class Rest(Strict):
    """SHEET-REST-01."""

    id: Id
    label: Label
    restore: list[RestoreStep] = Field(default_factory=list, max_length=40)
    clear: Clear | None = None
