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
    """The id items name it by."""
    label: Label
    """The name players and the Game Master see."""


# --- stats (ITM-BLOCK-05..07) ----------------------------------------------------------------


class _Stat(Strict):
    id: ItemId
    """The stat's id, as items' ``stats``, ``carry.stat`` and ``itemStat`` references name it."""
    label: Label
    """The stat's name (``Damage``, ``Weight``)."""
    prompt_visible: bool = Field(default=True, alias="promptVisible")
    """ITM-BLOCK-06: false keeps the stat from the Game Master."""


class NumberStat(_Stat):
    """A number stat; whole unless ``integer`` is false (ITM-BLOCK-07)."""

    type: Literal["number"]
    """``number``: a number, within ``min`` and ``max`` where given."""
    min: float | None = None
    """The lowest value an item may have."""
    max: float | None = None
    """The highest value an item may have."""
    default: float | None = None
    """The value of an item that does not give the stat."""
    integer: bool = True
    """Whether values are whole numbers (true by default; false allows a quarter pound)."""

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
    """``text``: a line of text."""
    max_length: int = Field(default=200, alias="maxLength", ge=1, le=500)
    """The most characters a value holds (1 to 500; 200 by default)."""
    default: str | None = None
    """The value of an item that does not give the stat."""

    def allows(self, value: object) -> bool:
        return isinstance(value, str) and len(value) <= self.max_length


class BooleanStat(_Stat):
    type: Literal["boolean"]
    """``boolean``: yes or no."""
    default: bool | None = None
    """The value of an item that does not give the stat."""

    def allows(self, value: object) -> bool:
        return isinstance(value, bool)


class EnumStat(_Stat):
    type: Literal["enum"]
    """``enum``: one of a closed set of values."""
    values: tuple[Annotated[str, StringConstraints(min_length=1, max_length=80)], ...] = Field(
        min_length=1, max_length=48)
    """The values an item may have (1 to 48)."""
    default: str | None = None
    """The value of an item that does not give the stat; one of ``values``."""

    @model_validator(mode="after")
    def _default_listed(self) -> EnumStat:
        if self.default is not None and self.default not in self.values:
            raise ValueError("default must be one of values")
        return self

    def allows(self, value: object) -> bool:
        return isinstance(value, str) and value in self.values


class DiceStat(_Stat):
    type: Literal["dice"]
    """``dice``: dice written as text, e.g. ``1d6``."""
    example: str | None = Field(default=None, max_length=40)
    """An example shown to whoever writes an item."""
    default: str | None = Field(default=None, max_length=40)
    """The value of an item that does not give the stat."""

    def allows(self, value: object) -> bool:
        return isinstance(value, str) and 1 <= len(value) <= 40


ItemStatDef = Annotated[NumberStat | TextStat | BooleanStat | EnumStat | DiceStat,
                        Field(discriminator="type")]


# --- slots, binding, carry, caps (ITM-BLOCK-08..13, -20/21) -----------------------------------


class SlotDef(Strict):
    """ITM-BLOCK-08: a place an item is worn or held; ``count`` of them per character."""

    id: ItemId
    """The slot's id, as items' ``slots`` name it."""
    label: Label
    """The slot's name (``Hand``, ``Body``)."""
    count: int = Field(ge=1, le=20)
    """How many such places a character has (1 to 20)."""


class Binding(Strict):
    """ITM-BLOCK-09/10: the binding mechanism and how many a character may bind at once."""

    label: Label
    """What binding is called in the game (``Attunement``)."""
    max: ValueRef
    """How many items a character may have bound at once, read off the sheet without live state."""


class Carry(Strict):
    """ITM-BLOCK-11..13: the weight stat, the encumbrance point and the hard limit."""

    stat: ItemId
    """The number stat that is an item's weight."""
    encumbered_above: ValueRef = Field(alias="encumberedAbove")
    """How much a character carries before becoming encumbered, read off the sheet without live
    state."""
    limit: ValueRef | None = None
    """The most a character can carry at all; nothing is ever added past it."""
    unit: Annotated[str, StringConstraints(pattern=r"^[^\W\d_]{1,12}$")] | None = None
    """The weight's unit, printed after the number (up to 12 letters, e.g. ``lb``)."""


class RarityCap(Strict):
    """ITM-BLOCK-20: the most a GM-invented item of one rarity may give."""

    rarity: ItemId
    """The rarity capped."""
    stats: dict[str, float] = Field(default_factory=dict)
    """The most each number stat may give on an invented item of this rarity, by stat id."""
    bonus: int | None = Field(default=None, ge=0, le=100)
    """The largest flat bonus any single worn or carried effect of such an item may add."""


# --- starting gear (ITM-GEAR) and recognising fakes (ITM-FAKE-29) ----------------------------


class GearLine(Strict):
    """ITM-GEAR-04/05: one of ``item``, ``coins``, ``oneOf``, ``name``; a count 1..999."""

    item: Ref | None = None
    """A ruleset item (``<catalog>/<entry>``)."""
    coins: ItemId | None = None
    """Coins, by coin id."""
    one_of: tuple[Ref, ...] | None = Field(default=None, alias="oneOf", min_length=2,
                                           max_length=48)
    """Items the player picks one of (2 to 48 refs)."""
    name: Label | None = None
    """A plain item, by name (where ``freeform`` allows plain items)."""
    count: int = Field(default=1, ge=1, le=999)
    """How many (1 to 999; 1 by default)."""
    equip: bool = False
    """Whether the item is worn as soon as it is taken, if its slots are free."""

    @model_validator(mode="after")
    def _one_kind(self) -> GearLine:
        kinds = [self.item, self.coins, self.one_of, self.name]
        if sum(k is not None for k in kinds) != 1:
            raise ValueError("a gear line is exactly one of item, coins, oneOf, name")
        return self


class GearOption(Strict):
    label: Label
    """The option's name."""
    lines: tuple[GearLine, ...] = Field(min_length=1, max_length=24)
    """What the option gives (1 to 24 lines)."""


class GearChoice(Strict):
    """ITM-GEAR-06: 2..6 options, each its own lines."""

    label: Label
    """What the choice is about (``Weapon``)."""
    options: tuple[GearOption, ...] = Field(min_length=2, max_length=6)
    """The options the player picks one of (2 to 6)."""


class Kit(Strict):
    """ITM-GEAR-01..08: a kit a character may take into a bag at the start."""

    id: ItemId
    """The kit's id."""
    label: Label
    """The kit's name (``Warden's kit``)."""
    group: ItemId | None = None
    """A character takes one kit of each group (class, background); a kit without one is its own
    group."""
    fits: Threshold | None = None
    """A sheet value that puts the kit first in the list for characters who reach it."""
    lines: tuple[GearLine, ...] = Field(default=(), max_length=48)
    """What the kit gives (up to 48 lines)."""
    choices: tuple[GearChoice, ...] = Field(default=(), max_length=8)
    """Choices the player makes when taking it (up to 8)."""


class RevealWay(Strict):
    """ITM-FAKE-29: a way to see through fakes (all of them, or those with ``tags``/``items``)."""

    id: ItemId
    """The way's id."""
    label: Label
    """Its name, e.g. a spell (``Identify``); ``[inventory: action="inspect" with="..."]`` names
    it."""
    tags: tuple[ItemId, ...] = ()
    """It sees through only fakes with these tags; all fakes when neither ``tags`` nor ``items`` is
    given."""
    items: tuple[Ref, ...] = ()
    """It sees through only these fakes (``<catalog>/<entry>`` refs)."""


# --- the block -------------------------------------------------------------------------------


class ItemsBlock(Strict):
    """ITM-BLOCK-01..26: the whole ``items`` block."""

    categories: tuple[Named, ...] = Field(min_length=1, max_length=24)
    """What kinds of thing items are (1 to 24): every item has exactly one."""
    rarities: tuple[Named, ...] = Field(default=(), max_length=12)
    """Rarities, most common first (up to 12)."""
    tags: tuple[Named, ...] = Field(default=(), max_length=48)
    """Properties an item may have, e.g. thrown or silvered (up to 48)."""
    stats: tuple[ItemStatDef, ...] = Field(default=(), max_length=24)
    """The numbers and words items carry (up to 24), each typed like a sheet field."""
    slots: tuple[SlotDef, ...] = Field(default=(), max_length=12)
    """Where items are worn or held (up to 12)."""
    binding: Binding | None = None
    """A limit on how many items a character may have bound at once (attunement)."""
    carry: Carry | None = None
    """Weight and encumbrance; without it, weight means nothing."""
    currencies: tuple[Currency, ...] = Field(default=(), max_length=6)
    """Money: families of coins (up to 6) that exchange within a family by value."""
    rarity_caps: tuple[RarityCap, ...] = Field(default=(), alias="rarityCaps")
    """The most an item the Game Master invents may give, per rarity."""
    propose: bool = True
    """Whether the Game Master may invent items of the ruleset (true by default)."""
    native: bool = True
    """Whether untyped items the ruleset does not describe are allowed (true by default)."""
    freeform: Literal["plain", "refuse"] = "plain"
    """What an item typed by the player becomes: ``plain`` (default: an item without rules) or
    ``refuse``."""
    loot_tables: tuple[LootTable, ...] = Field(default=(), alias="lootTables", max_length=24)
    """Tables loot is drawn from (up to 24), named by ``[loot:]``."""
    market: Market | None = None
    """What places sell and at what price: price levels, place sizes, sold rules and sellers."""
    starting_gear: tuple[Kit, ...] = Field(default=(), alias="startingGear", max_length=48)
    """Kits a character may take into a bag at the start (up to 48)."""
    names_it_at: int | None = Field(default=None, alias="namesItAt", ge=1, le=100)
    """Beating a tell's difficulty by this much also reveals a fake's real name."""
    passive_base: int = Field(default=10, alias="passiveBase", ge=0, le=100)
    """The base of the passive score party members notice a fake with before paying (10 by
    default)."""
    warn_by: Literal["passive", "roll"] = Field(default="passive", alias="warnBy")
    """Whether party members notice a fake before paying by ``passive`` score (default) or by a
    ``roll``."""
    reveals_fakes: tuple[RevealWay, ...] = Field(default=(), alias="revealsFakes", max_length=12)
    """Ways a character can see through fakes, e.g. a spell (up to 12)."""

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
