"""Catalogs: the ruleset's lists of ready-made entries (sheet rows, creatures, items).

A catalog either ``feeds`` sheet lists (its entries carry ``rows`` and maybe ``mechanics``), or
``holds`` creatures (a bestiary, ``creature``) or items (``item``, ITM-ENTRY-01). Shapes live here;
which combinations are allowed (an item catalog without ``feeds``, an item without ``mechanics``) is
checked in ``rules/audit/`` with JSON paths (ITM-IMPORT-06). A bestiary's ``creature`` and the
combat parts of ``mechanics`` are out of scope (SPEC §1) and kept whole as JSON.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, JsonValue

from middleware.json_input import JsonObject
from middleware.rules.base import Strict
from middleware.rules.common import Label, RerollRule
from middleware.rules.item_entry import DiceAmount, Item, Word
from middleware.rules.items_money import ItemId
from middleware.rules.refs import ValueRef

Scalar = bool | float | str


class CatalogFilter(Strict):
    """A filter the picker and the selector offer (ITM-BAG-02); ``startFrom`` pre-fills it."""

    id: ItemId
    """The filter's id, as entries' ``filters`` name it."""
    label: Label
    """The filter's name in the picker."""
    type: Literal["number", "text", "tags"]
    """What the filter compares: a ``number``, ``text`` or ``tags``."""
    start_from: ValueRef | None = Field(default=None, alias="startFrom")
    """A sheet value the filter starts at when the picker opens (e.g. the character's level)."""


class Row(Strict):
    """A sheet-list row an entry writes when picked (SHEET-LST-05/06)."""

    list: str
    """The sheet list the row is written to (a ``sheet.lists`` id the catalog feeds)."""
    values: dict[str, Scalar] = Field(default_factory=dict)
    """The row's cells, by column id."""
    scaled: JsonObject | None = None
    """Cells whose number follows a sheet value, worked out by the peer's sheet editor; kept as the
    file gives it and not read by checks or items."""


class PoolCost(Strict):
    """CHK-CHARM-09: what one use of an entry costs, in points of a live pool."""

    pool: str
    """The live pool (or pool group) paid from."""
    amount: int = Field(default=1, ge=1, le=100)
    """The points one use costs (1 to 100; 1 by default)."""


class CharmCheck(Strict):
    """CHK-CHARM-02..07: how a chosen entry changes a check (``mechanics.check``)."""

    reroll: RerollRule | None = None
    """Dice showing ``upTo`` or lower are thrown again, once or until above it."""
    dice: int | None = Field(default=None, ge=-100, le=100)
    """Dice added to the pool before it is thrown."""
    successes: int | None = Field(default=None, ge=-100, le=100)
    """Successes added after the dice are counted."""
    threshold: int | None = Field(default=None, ge=-100, le=100)
    """The per-die target for the roll, within what ``target`` allows."""
    explode: int | None = Field(default=None, ge=-100, le=100)
    """The face from which dice explode on the roll (needs ``explode.min`` at or below it)."""
    double: int | None = Field(default=None, ge=-100, le=100)
    """The face from which dice count twice on the roll (needs ``double.min`` at or below it)."""

    @property
    def changes_roll(self) -> bool:
        """CHK-CHARM-07: at least one key that changes the roll."""
        return any(getattr(self, k) is not None for k in
                   ("reroll", "dice", "successes", "threshold", "explode", "double"))


class Mechanics(Strict):
    """A sheet catalog entry's ``mechanics``: what it costs, does in a fight and to a check."""

    kind: Word
    """What sort of thing the entry is (``utility``, ``attack``, ``heal``...)."""
    budget: Word | None = None
    """Which of the character's budgets the entry is counted against when picked."""
    free: bool = False
    """Whether using the entry costs nothing."""
    cost: tuple[PoolCost, ...] = Field(default=(), max_length=8)
    """What one use costs, in points of live pools (up to 8)."""
    per_cost_step: DiceAmount | None = Field(default=None, alias="perCostStep")
    """Makes the entry scale: bought as many times as its price was paid."""
    check: CharmCheck | None = None
    """How the entry changes a check it is used on with ``use=`` (dice-pool only)."""
    amount: DiceAmount | None = None
    """How much the entry deals or heals, as dice (``2d6``) or a number."""
    damage_type: Word | None = Field(default=None, alias="damageType")
    """The kind of harm it deals."""
    plus: JsonValue = None
    """What is added to the amount (an ability, a number); kept as the file gives it and not read
    by checks or items."""
    attack_roll: bool = Field(default=False, alias="attackRoll")
    """Whether using it in a fight takes an attack roll."""
    to_hit: JsonValue = Field(default=None, alias="toHit")
    """The bonus to hit in a fight; kept as the file gives it and not read by checks or items."""
    save: JsonValue = None
    """The save a target makes against it; kept as the file gives it and not read by checks or
    items."""
    save_difficulty: JsonValue = Field(default=None, alias="saveDifficulty")
    """The difficulty of that save; kept as the file gives it and not read by checks or items."""
    applies: JsonValue = None
    """Conditions it applies in a fight; kept as the file gives it and not read by checks or
    items."""
    temporary: DiceAmount | None = None
    """Temporary points it grants, as dice or a number."""
    range: float | None = Field(default=None, ge=0)
    """How far it reaches, in the ruleset's distance units."""
    area: JsonValue = None
    """The area it covers; kept as the file gives it and not read by checks or items."""
    targets: Word | None = None
    """Who it may target (``self``, ``ally``, ``enemy``...)."""
    target_count: int | None = Field(default=None, alias="targetCount", ge=1, le=20)
    """How many targets it reaches (1 to 20)."""
    friendly_fire: bool = Field(default=False, alias="friendlyFire")
    """Whether it also strikes allies in its area."""
    concentration: JsonValue = None
    """How it is held by concentration; kept as the file gives it and not read by checks or
    items."""
    zone: JsonValue = None
    """A zone it leaves in a fight; kept as the file gives it and not read by checks or items."""
    reaction: JsonValue = None
    """When it is used as a reaction; kept as the file gives it and not read by checks or items."""
    scales: JsonValue = None
    """How it grows with the character; kept as the file gives it and not read by checks or
    items."""
    gives: JsonValue = None
    """What it grants while held; kept as the file gives it and not read by checks or items."""
    standard: JsonValue = None
    """A standard fight action it stands for; kept as the file gives it and not read by checks or
    items."""
    rider: JsonValue = None
    """An extra effect on a hit; kept as the file gives it and not read by checks or items."""
    riders: JsonValue = None
    """Extra effects on a hit; kept as the file gives it and not read by checks or items."""
    qualities: JsonValue = None
    """Weapon qualities; kept as the file gives it and not read by checks or items."""


class CatalogEntry(Strict):
    """One entry: ``rows`` (+ ``mechanics``) for a sheet catalog, ``creature`` or ``item``."""

    id: ItemId
    """The entry's id within its catalog; ``<catalog id>/<entry id>`` names it everywhere else
    (``kit/grave-spade``)."""
    label: Label
    """The entry's name as players and the Game Master see it; tags may name the entry by it."""
    summary: str | None = Field(default=None, max_length=2000)
    """What the entry is, in a line or two (up to 2000 characters)."""
    filters: dict[str, Scalar | list[str]] = Field(default_factory=dict)
    """The entry's value for each of the catalog's filters."""
    rows: tuple[Row, ...] = ()
    """The sheet-list rows the entry writes when a character picks it."""
    mechanics: Mechanics | None = None
    """What the entry costs and does: to a check, in a fight."""
    creature: JsonObject | None = None
    """A bestiary creature's sheet; kept as the file gives it."""
    item: Item | None = None
    """The item this entry is, in a catalog that holds items."""


class Catalog(Strict):
    """A catalog (ITM-ENTRY-01): ``feeds`` sheet lists, or ``holds`` creatures or items."""

    id: ItemId
    """The catalog's id, the first part of every entry's ref (``kit`` in ``kit/grave-spade``)."""
    label: Label
    """The catalog's name (``Charms``, ``Outfitter's wares``)."""
    feeds: tuple[str, ...] = ()
    """The sheet lists a picked entry writes rows to."""
    holds: Literal["items", "creatures"] | None = None
    """``items`` for a catalog of ruleset items, ``creatures`` for a bestiary."""
    summary: str | None = Field(default=None, max_length=2000)
    """What the catalog holds, in a line or two (up to 2000 characters)."""
    filters: tuple[CatalogFilter, ...] = Field(default=(), max_length=12)
    """The filters the picker offers (up to 12)."""
    units: JsonObject | None = None
    """Units the catalog's numbers are written in; kept as the file gives it."""
    entries: tuple[CatalogEntry, ...] = Field(default=(), max_length=2000)
    """The catalog's entries (up to 2000)."""

    @property
    def holds_items(self) -> bool:
        """ITM-ENTRY-01: a catalog of ruleset items."""
        return self.holds == "items"

    def entry(self, entry_id: str) -> CatalogEntry | None:
        """The entry with this id, or None."""
        return next((e for e in self.entries if e.id == entry_id), None)
