"""Value references: how anything in a ruleset reads a number off a character (SHEET-REF).

A reference is an object with exactly one of twelve keys (SHEET-REF-01, SHEET-IMPORT-07). Only the
shape lives here; ``middleware.sheet`` evaluates them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from middleware.rules.base import Strict

REF_KEYS = (
    "const", "field", "derived", "abilityScore", "abilityMod", "abilityModFromField",
    "skillMod", "saveMod", "liveTrack", "livePool", "listSum", "itemStat",
)


class ListSum(Strict):
    """SHEET-REF-11: one number column added over a list's rows."""

    list: str
    column: str
    only_when: str | None = Field(default=None, alias="onlyWhen")


class ItemStat(Strict):
    """SHEET-REF-12 / ITM-SHEET: a stat read over the items a character holds."""

    stat: str | None = None
    from_: Literal["worn", "carried", "all"] = Field(default="all", alias="from")
    pick: Literal["sum", "max", "min", "count"] = "sum"
    slot: str | None = None
    category: str | None = None
    tag: str | None = None
    default: float = 0


class ValueRef(BaseModel):
    """SHEET-REF-01: exactly one of the twelve keys; ``read`` only beside ``liveTrack``."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    const: float | None = None
    field: str | None = None
    derived: str | None = None
    ability_score: str | None = Field(default=None, alias="abilityScore")
    ability_mod: str | None = Field(default=None, alias="abilityMod")
    ability_mod_from_field: str | None = Field(default=None, alias="abilityModFromField")
    skill_mod: str | None = Field(default=None, alias="skillMod")
    save_mod: str | None = Field(default=None, alias="saveMod")
    live_track: str | None = Field(default=None, alias="liveTrack")
    live_pool: str | None = Field(default=None, alias="livePool")
    list_sum: ListSum | None = Field(default=None, alias="listSum")
    item_stat: ItemStat | None = Field(default=None, alias="itemStat")
    read: Literal["value", "filled", "remaining", "penalty"] | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> ValueRef:
        given = [name for name, attr in _ATTRS if getattr(self, attr) is not None]
        if len(given) != 1:
            raise ValueError(f"a value reference needs exactly one of {', '.join(REF_KEYS)}; "
                             f"got {len(given)}")
        if self.read is not None and self.live_track is None:
            raise ValueError("'read' is allowed only beside 'liveTrack'")
        if self.item_stat is not None and self.item_stat.stat is None \
                and self.item_stat.pick != "count":
            raise ValueError("'itemStat' must name 'stat' unless its 'pick' is 'count'")
        return self

    @property
    def kind(self) -> str:
        """The one key this reference uses, as the file spells it (read on every evaluation)."""
        return next(n for n, attr in _ATTRS if getattr(self, attr) is not None)


def _attr(key: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in key)


_ATTRS = tuple((key, _attr(key)) for key in REF_KEYS)
"""Each file key with its attribute name, worked out once."""
