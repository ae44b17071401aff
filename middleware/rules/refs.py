"""Value references: how anything in a ruleset reads a number off a character (SHEET-REF).

A reference is an object with exactly one of twelve keys (SHEET-REF-01, SHEET-IMPORT-07). Only the
shape lives here; ``middleware.sheet`` evaluates them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from middleware.rules.base import MODEL_CONFIG, Strict

REF_KEYS = (
    "const", "field", "derived", "abilityScore", "abilityMod", "abilityModFromField",
    "skillMod", "saveMod", "liveTrack", "livePool", "listSum", "itemStat",
)


class ListSum(Strict):
    """SHEET-REF-11: one number column added over a list's rows."""

    list: str
    """The sheet list whose rows are added up (a ``sheet.lists`` id)."""
    column: str
    """The number column added over the rows."""
    only_when: str | None = Field(default=None, alias="onlyWhen")
    """A yes/no column: only rows where it is set are added."""


class ItemStat(Strict):
    """SHEET-REF-12 / ITM-SHEET: a stat read over the items a character holds."""

    stat: str | None = None
    """The item stat read (an ``items.stats`` id); not needed when ``pick`` is ``count``."""
    from_: Literal["worn", "carried", "all"] = Field(default="all", alias="from")
    """Which items are read: ``worn``, ``carried`` or ``all`` (default)."""
    pick: Literal["sum", "max", "min", "count"] = "sum"
    """How the items' values become one number: ``sum`` (default), ``max``, ``min`` or
    ``count``."""
    slot: str | None = None
    """Only items worn in this slot."""
    category: str | None = None
    """Only items of this category."""
    tag: str | None = None
    """Only items with this tag."""
    default: float = 0
    """The number when no item matches (0 by default)."""


class ValueRef(BaseModel):
    """SHEET-REF-01: exactly one of the twelve keys; ``read`` only beside ``liveTrack``."""

    model_config = MODEL_CONFIG

    const: float | None = None
    """A fixed number."""
    field: str | None = None
    """A number field of the sheet (``sheet.fields`` id)."""
    derived: str | None = None
    """A derived value (``sheet.derived`` id)."""
    ability_score: str | None = Field(default=None, alias="abilityScore")
    """An ability's score (ability id)."""
    ability_mod: str | None = Field(default=None, alias="abilityMod")
    """An ability's modifier, as ``abilityModifier`` turns the score into a number (ability id)."""
    ability_mod_from_field: str | None = Field(default=None, alias="abilityModFromField")
    """The modifier of the ability a sheet field names (field id)."""
    skill_mod: str | None = Field(default=None, alias="skillMod")
    """A skill's full number: its ability, training tier and bonuses (skill id)."""
    save_mod: str | None = Field(default=None, alias="saveMod")
    """A save's full number (save id)."""
    live_track: str | None = Field(default=None, alias="liveTrack")
    """A live track (``sheet.live.tracks`` id); ``read`` says which of its numbers."""
    live_pool: str | None = Field(default=None, alias="livePool")
    """A live pool's current points (``sheet.live.pools`` id)."""
    list_sum: ListSum | None = Field(default=None, alias="listSum")
    """A number column added over the rows of a sheet list."""
    item_stat: ItemStat | None = Field(default=None, alias="itemStat")
    """A stat read over the items a character holds."""
    read: Literal["value", "filled", "remaining", "penalty"] | None = None
    """What a ``liveTrack`` gives: its ``value`` (default), the boxes ``filled``, the boxes
    ``remaining`` or its ``penalty``."""

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
