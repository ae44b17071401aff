"""Catalogs: the ruleset's lists of ready-made entries (sheet rows, creatures, items).

A catalog either ``feeds`` sheet lists (its entries carry ``rows`` and maybe ``mechanics``), or
``holds`` creatures (a bestiary, ``creature``) or items (``item``, ITM-ENTRY-01). Shapes live here;
which combinations are allowed (an item catalog without ``feeds``, an item without ``mechanics``) is
checked in ``rules/audit/`` with JSON paths (ITM-IMPORT-06). A bestiary's ``creature`` and the
combat parts of ``mechanics`` are out of scope (SPEC §1) and kept whole as JSON.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from middleware.rules.base import Strict
from middleware.rules.common import Label, RerollRule
from middleware.rules.item_entry import DiceAmount, Item, Json, Word
from middleware.rules.items_money import ItemId
from middleware.rules.refs import ValueRef

Scalar = bool | float | str


class CatalogFilter(Strict):
    """A filter the picker and the selector offer (ITM-BAG-02); ``startFrom`` pre-fills it."""

    id: ItemId
    label: Label
    type: Literal["number", "text", "tags"]
    start_from: ValueRef | None = Field(default=None, alias="startFrom")


class Row(Strict):
    """A sheet-list row an entry writes when picked (SHEET-LST-05/06)."""

    list: str
    values: dict[str, Scalar] = Field(default_factory=dict)
    scaled: Json | None = None


class PoolCost(Strict):
    """CHK-CHARM-09: what one use of an entry costs, in points of a live pool."""

    pool: str
    amount: int = Field(default=1, ge=1, le=100)


class CharmCheck(Strict):
    """CHK-CHARM-02..07: how a chosen entry changes a check (``mechanics.check``)."""

    reroll: RerollRule | None = None
    dice: int | None = Field(default=None, ge=-100, le=100)
    successes: int | None = Field(default=None, ge=-100, le=100)
    threshold: int | None = Field(default=None, ge=-100, le=100)
    explode: int | None = Field(default=None, ge=-100, le=100)
    double: int | None = Field(default=None, ge=-100, le=100)

    @property
    def changes_roll(self) -> bool:
        """CHK-CHARM-07: at least one key that changes the roll."""
        return any(getattr(self, k) is not None for k in
                   ("reroll", "dice", "successes", "threshold", "explode", "double"))


class Mechanics(Strict):
    """A sheet catalog entry's ``mechanics``: what it costs, does in a fight and to a check."""

    kind: Word
    budget: Word | None = None
    free: bool = False
    cost: tuple[PoolCost, ...] = Field(default=(), max_length=8)
    per_cost_step: DiceAmount | None = Field(default=None, alias="perCostStep")
    check: CharmCheck | None = None
    amount: DiceAmount | None = None
    damage_type: Word | None = Field(default=None, alias="damageType")
    plus: Any = None
    attack_roll: bool = Field(default=False, alias="attackRoll")
    to_hit: Any = Field(default=None, alias="toHit")
    save: Any = None
    save_difficulty: Any = Field(default=None, alias="saveDifficulty")
    applies: Any = None
    temporary: DiceAmount | None = None
    range: float | None = Field(default=None, ge=0)
    area: Any = None
    targets: Word | None = None
    target_count: int | None = Field(default=None, alias="targetCount", ge=1, le=20)
    friendly_fire: bool = Field(default=False, alias="friendlyFire")
    concentration: Any = None
    zone: Any = None
    reaction: Any = None
    scales: Any = None
    gives: Any = None
    standard: Any = None
    rider: Any = None
    riders: Any = None
    qualities: Any = None


class CatalogEntry(Strict):
    """One entry: ``rows`` (+ ``mechanics``) for a sheet catalog, ``creature`` or ``item``."""

    id: ItemId
    label: Label
    summary: str | None = Field(default=None, max_length=2000)
    filters: dict[str, Scalar | list[str]] = Field(default_factory=dict)
    rows: tuple[Row, ...] = ()
    mechanics: Mechanics | None = None
    creature: Json | None = None
    item: Item | None = None


class Catalog(Strict):
    """A catalog (ITM-ENTRY-01): ``feeds`` sheet lists, or ``holds`` creatures or items."""

    id: ItemId
    label: Label
    feeds: tuple[str, ...] = ()
    holds: Literal["items", "creatures"] | None = None
    summary: str | None = Field(default=None, max_length=2000)
    filters: tuple[CatalogFilter, ...] = Field(default=(), max_length=12)
    units: Json | None = None
    entries: tuple[CatalogEntry, ...] = Field(default=(), max_length=2000)

    @property
    def holds_items(self) -> bool:
        """ITM-ENTRY-01: a catalog of ruleset items."""
        return self.holds == "items"

    def entry(self, entry_id: str) -> CatalogEntry | None:
        """The entry with this id, or None."""
        return next((e for e in self.entries if e.id == entry_id), None)
