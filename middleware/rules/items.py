"""The ``items`` block: the vocabulary a ruleset's items are written in (ITM-BLOCK-01..26).

Limits on one object (1..24 categories, 1..20 slots of a kind, at most 6 currencies ...) are model
constraints, so pydantic reports them with their JSON path (ITM-IMPORT-02); rules comparing keys
(a ``carry.stat`` that is a number stat, coin ids unique across families, caps inside their stat's
range) are in ``rules/audit/items.py``. Money, loot and the market are in ``items_money.py``.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from middleware.rules.base import Strict
from middleware.rules.common import Label
from middleware.rules.items_money import (
    CoinUnit,
    Currency,
    ItemId,
    LootTable,
    Market,
    Ref,
    Threshold,
)
from middleware.rules.refs import ValueRef


class Named(Strict):
    """A category, rarity or tag (ITM-BLOCK-02..04): an ``id`` and the ``label`` shown."""

    id: ItemId
    label: Label


# --- stats (ITM-BLOCK-05..07) ----------------------------------------------------------------


class _Stat(Strict):
    id: ItemId
    label: Label
    prompt_visible: bool = Field(default=True, alias="promptVisible")
    """ITM-BLOCK-06: false keeps the stat from the Game Master."""


class NumberStat(_Stat):
    """A number stat; whole unless ``integer`` is false (ITM-BLOCK-07)."""

    type: Literal["number"]
    min: float | None = None
    max: float | None = None
    default: float | None = None
    integer: bool = True

    @model_validator(mode="after")
    def _range(self) -> NumberStat:
        low = -math.inf if self.min is None else self.min
        high = math.inf if self.max is None else self.max
        if low > high:
            raise ValueError("min must not be above max")
        if self.default is not None and not low <= self.default <= high:
            raise ValueError("default must lie within min..max")
        return self

    def allows(self, value: object) -> bool:
        """A legal value of this stat (ITM-ENTRY-04)."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if self.integer and not float(value).is_integer():
            return False
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)


class TextStat(_Stat):
    type: Literal["text"]
    max_length: int = Field(default=200, alias="maxLength", ge=1, le=500)
    default: str | None = None

    def allows(self, value: object) -> bool:
        return isinstance(value, str) and len(value) <= self.max_length


class BooleanStat(_Stat):
    type: Literal["boolean"]
    default: bool | None = None

    def allows(self, value: object) -> bool:
        return isinstance(value, bool)


class EnumStat(_Stat):
    type: Literal["enum"]
    values: tuple[Annotated[str, StringConstraints(min_length=1, max_length=80)], ...] = Field(
        min_length=1, max_length=48)
    default: str | None = None

    @model_validator(mode="after")
    def _default_listed(self) -> EnumStat:
        if self.default is not None and self.default not in self.values:
            raise ValueError("default must be one of values")
        return self

    def allows(self, value: object) -> bool:
        return isinstance(value, str) and value in self.values


class DiceStat(_Stat):
    type: Literal["dice"]
    example: str | None = Field(default=None, max_length=40)
    default: str | None = Field(default=None, max_length=40)

    def allows(self, value: object) -> bool:
        return isinstance(value, str) and 1 <= len(value) <= 40


ItemStatDef = Annotated[NumberStat | TextStat | BooleanStat | EnumStat | DiceStat,
                        Field(discriminator="type")]


# --- slots, binding, carry, caps (ITM-BLOCK-08..13, -20/21) -----------------------------------


class SlotDef(Strict):
    """ITM-BLOCK-08: a place an item is worn or held; ``count`` of them per character."""

    id: ItemId
    label: Label
    count: int = Field(ge=1, le=20)


class Binding(Strict):
    """ITM-BLOCK-09/10: the binding mechanism and how many a character may bind at once."""

    label: Label
    max: ValueRef


class Carry(Strict):
    """ITM-BLOCK-11..13: the weight stat, the encumbrance point and the hard limit."""

    stat: ItemId
    encumbered_above: ValueRef = Field(alias="encumberedAbove")
    limit: ValueRef | None = None
    unit: Annotated[str, StringConstraints(pattern=r"^[^\W\d_]{1,12}$")] | None = None


class RarityCap(Strict):
    """ITM-BLOCK-20: the most a GM-invented item of one rarity may give."""

    rarity: ItemId
    stats: dict[str, float] = Field(default_factory=dict)
    bonus: int | None = Field(default=None, ge=0, le=100)


# --- starting gear (ITM-GEAR) and recognising fakes (ITM-FAKE-29) ----------------------------


class GearLine(Strict):
    """ITM-GEAR-04/05: one of ``item``, ``coins``, ``oneOf``, ``name``; a count 1..999."""

    item: Ref | None = None
    coins: ItemId | None = None
    one_of: tuple[Ref, ...] | None = Field(default=None, alias="oneOf", min_length=2,
                                           max_length=48)
    name: Label | None = None
    count: int = Field(default=1, ge=1, le=999)
    equip: bool = False

    @model_validator(mode="after")
    def _one_kind(self) -> GearLine:
        kinds = [self.item, self.coins, self.one_of, self.name]
        if sum(k is not None for k in kinds) != 1:
            raise ValueError("a gear line is exactly one of item, coins, oneOf, name")
        return self


class GearOption(Strict):
    label: Label
    lines: tuple[GearLine, ...] = Field(min_length=1, max_length=24)


class GearChoice(Strict):
    """ITM-GEAR-06: 2..6 options, each its own lines."""

    label: Label
    options: tuple[GearOption, ...] = Field(min_length=2, max_length=6)


class Kit(Strict):
    """ITM-GEAR-01..08: a kit a character may take into a bag at the start."""

    id: ItemId
    label: Label
    group: ItemId | None = None
    fits: Threshold | None = None
    lines: tuple[GearLine, ...] = Field(default=(), max_length=48)
    choices: tuple[GearChoice, ...] = Field(default=(), max_length=8)


class RevealWay(Strict):
    """ITM-FAKE-29: a way to see through fakes (all of them, or those with ``tags``/``items``)."""

    id: ItemId
    label: Label
    tags: tuple[ItemId, ...] = ()
    items: tuple[Ref, ...] = ()


# --- the block -------------------------------------------------------------------------------


class ItemsBlock(Strict):
    """ITM-BLOCK-01..26: the whole ``items`` block."""

    categories: tuple[Named, ...] = Field(min_length=1, max_length=24)
    rarities: tuple[Named, ...] = Field(default=(), max_length=12)
    tags: tuple[Named, ...] = Field(default=(), max_length=48)
    stats: tuple[ItemStatDef, ...] = Field(default=(), max_length=24)
    slots: tuple[SlotDef, ...] = Field(default=(), max_length=12)
    binding: Binding | None = None
    carry: Carry | None = None
    currencies: tuple[Currency, ...] = Field(default=(), max_length=6)
    rarity_caps: tuple[RarityCap, ...] = Field(default=(), alias="rarityCaps")
    propose: bool = True
    native: bool = True
    freeform: Literal["plain", "refuse"] = "plain"
    loot_tables: tuple[LootTable, ...] = Field(default=(), alias="lootTables", max_length=24)
    market: Market | None = None
    starting_gear: tuple[Kit, ...] = Field(default=(), alias="startingGear", max_length=48)
    names_it_at: int | None = Field(default=None, alias="namesItAt", ge=1, le=100)
    passive_base: int = Field(default=10, alias="passiveBase", ge=0, le=100)
    warn_by: Literal["passive", "roll"] = Field(default="passive", alias="warnBy")
    reveals_fakes: tuple[RevealWay, ...] = Field(default=(), alias="revealsFakes", max_length=12)

    def stat(self, stat_id: str) -> NumberStat | TextStat | BooleanStat | EnumStat | DiceStat \
            | None:
        """The declared stat with this id, or None."""
        return next((s for s in self.stats if s.id == stat_id), None)

    def coin(self, unit_id: str) -> tuple[Currency, CoinUnit] | None:
        """The family and coin with this id (ITM-BLOCK-17: ids are unique across families)."""
        for family in self.currencies:
            for unit in family.units:
                if unit.id == unit_id:
                    return family, unit
        return None
