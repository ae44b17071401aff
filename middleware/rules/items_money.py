"""Money, loot tables and the market of the ``items`` block (ITM-BLOCK-14..19, ITM-LOOT, ITM-MARKET,
ITM-DAY, ITM-FAKE sellers).

Only shapes and ranges live here; rules that compare one key with another (the smallest coin worth
1, a loot entry naming a real item, one default price level) are in ``rules/audit/items.py`` so each
problem gets its own JSON path (ITM-IMPORT-04, -10, -11).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints, model_validator

from middleware.rules.base import Strict
from middleware.rules.common import Label
from middleware.rules.refs import ValueRef

ItemId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=60)]
"""An id inside the items block or a catalog: like a sheet id, but hyphens are allowed
(``hunting-bow``, ``detect-poison``) as the page's own examples write them."""

Ref = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]*/[a-z0-9][a-z0-9_-]*$",
                                       max_length=121)]
"""ITM-LOOT-06: a ruleset item referenced as ``<catalog>/<entry>``."""

DiceText = Annotated[str, StringConstraints(pattern=r"^\s*\d{1,3}\s*[dD]\s*\d{1,4}\s*$")]
"""A plain ``NdS`` expression, as ``rolls``, ``count`` and ``limited`` write dice."""


# --- currencies (ITM-BLOCK-14..19, ITM-MONEY) ------------------------------------------------


class CoinUnit(Strict):
    """ITM-BLOCK-14/18: one coin; ``label`` names any number of pieces, ``one`` a single piece."""

    id: ItemId
    """The coin's id, unique across all families, as costs and purses name it."""
    label: Label
    """The coin's name for any number of pieces (``pennies``)."""
    value: int = Field(ge=1)
    """What one piece is worth in the family's smallest coin (which is worth 1)."""
    one: Label | None = None
    """The coin's name for a single piece (``penny``); ``label`` when absent."""

    def name_for(self, count: int) -> str:
        """ITM-BLOCK-18 / ITM-MONEY-17: ``one`` for exactly one piece (else ``label``)."""
        return self.one if count == 1 and self.one else self.label


class Currency(Strict):
    """ITM-BLOCK-14..16/19: a family of 1..10 coins that exchange with each other by ``value``."""

    id: ItemId
    """The family's id."""
    label: Label
    """The family's name (``Coin``)."""
    per_weight: float | None = Field(default=None, alias="perWeight", gt=0)
    """How many of its coins weigh one unit of the carry stat (needs ``carry``)."""
    units: tuple[CoinUnit, ...] = Field(min_length=1, max_length=10)
    """The family's coins (1 to 10), no two of the same value."""

    @property
    def smallest(self) -> CoinUnit:
        """The coin every value of the family is counted in (ITM-BLOCK-15)."""
        return min(self.units, key=lambda u: u.value)


class Cost(Strict):
    """ITM-ENTRY-07: a whole ``amount`` of one coin named by ``unit`` (a coin id)."""

    amount: int = Field(ge=0)
    """How many coins (a whole number, 0 or more)."""
    unit: ItemId
    """The coin, by id."""


# --- filters, loot tables (ITM-LOOT, ITM-IMPORT-11) ------------------------------------------


class ItemFilter(Strict):
    """ITM-MARKET-08 / ITM-LOOT-06: items that have all of the named rarity, category and tag."""

    rarity: ItemId | None = None
    """Items of this rarity."""
    category: ItemId | None = None
    """Items of this category."""
    tag: ItemId | None = None
    """Items with this tag."""

    @model_validator(mode="after")
    def _names_something(self) -> ItemFilter:
        if self.rarity is None and self.category is None and self.tag is None:
            raise ValueError("a filter names at least one of rarity, category, tag")
        return self


Amount = Annotated[int, Field(ge=0, le=999_999)] | DiceText


class LootEntry(Strict):
    """ITM-LOOT-05..07: exactly one of ``item``, ``filter``, ``coins``; ``weight`` and ``count``."""

    item: Ref | None = None
    """A ruleset item (``<catalog>/<entry>``)."""
    filter: ItemFilter | None = None
    """Any item the filter selects, drawn evenly among them."""
    coins: ItemId | None = None
    """Coins, by coin id."""
    weight: int = Field(default=1, ge=1, le=1000)
    """How likely a draw is to pick this entry, relative to the others (1 to 1000; 1 by
    default)."""
    count: Amount = 1
    """How many pieces: a number or dice (``1d6``); 1 by default."""

    @model_validator(mode="after")
    def _one_source(self) -> LootEntry:
        given = [k for k in ("item", "filter", "coins") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a loot entry is exactly one of item, filter, coins")
        return self


class LootTable(Strict):
    """ITM-LOOT-03/04: ``rolls`` draws (0..20 or dice, default 1) from weighted ``entries``."""

    id: ItemId
    """The table's id, as ``[loot:]`` and seller ``stock`` name it."""
    label: Label
    """The table's name (``Grave goods``)."""
    rolls: Annotated[int, Field(ge=0, le=20)] | DiceText = 1
    """How many draws: 0 to 20 or dice (``1d2``); 1 by default."""
    entries: tuple[LootEntry, ...] = Field(min_length=1, max_length=100)
    """What a draw may give (1 to 100), each with its weight."""


# --- the market (ITM-MARKET, ITM-DAY, ITM-FAKE-05/16) ----------------------------------------


class PriceLevel(Strict):
    """ITM-MARKET-02: a multiplier of an item's cost; exactly one level is the default."""

    id: ItemId
    """The level's id, as ``level=`` names it on a buy."""
    label: Label
    """The level's name (``dear``)."""
    times: float = Field(gt=0, le=1000)
    """What an item's cost is multiplied by (above 0, at most 1000)."""
    default: bool = False
    """Whether this is the level used when a buy names none (exactly one is)."""


class PlaceSize(Strict):
    """ITM-MARKET-07 / ITM-DAY-09: a place size, smallest first, with an optional daily purse."""

    id: ItemId
    """The size's id, as ``[place: size=...]`` names it."""
    label: Label
    """The size's name (``market town``)."""
    purse: Cost | None = None
    """The most the place's sellers pay out in all on one market day."""


class SoldRule(Strict):
    """ITM-MARKET-08 / ITM-DAY-04/05: the smallest place selling what ``filter`` selects."""

    filter: ItemFilter
    """The items the rule is about."""
    place: ItemId | None = None
    """The smallest place size that sells them."""
    limited: Amount | None = None
    """How many pieces a place has for sale each day: a number or dice."""

    @model_validator(mode="after")
    def _says_something(self) -> SoldRule:
        if self.place is None and self.limited is None:
            raise ValueError("a sold rule gives a place, a limited count or both")
        return self


class Threshold(Strict):
    """A sheet value that must reach ``atLeast`` (seller ``only``, gear ``fits``, ``advantageIf``)."""

    value: ValueRef
    """The sheet value read."""
    at_least: float = Field(alias="atLeast")
    """The least it must reach."""
    label: Label | None = None
    """What the Game Master is told about it (``wardens of Nerve 3 or more``)."""


class Stock(Strict):
    """ITM-DAY-07: a loot table a seller draws once per market day."""

    table: ItemId
    """The loot table drawn once per market day for the seller's stock."""


class GateCheck(Strict):
    """ITM-USE-16 / ITM-FAKE-14: a skill, an attribute or a sheet value (exactly one)."""

    skill: str | None = None
    """A skill checked."""
    ability: str | None = None
    """An ability checked."""
    value: ValueRef | None = None
    """A sheet value used as the check's number."""

    @model_validator(mode="after")
    def _exactly_one(self) -> GateCheck:
        if sum(v is not None for v in (self.skill, self.ability, self.value)) != 1:
            raise ValueError("a check names exactly one of skill, ability, value")
        return self


class Carries(Strict):
    """ITM-FAKE-15: an item the checker must hold in their own bag (any one of them)."""

    any_of: tuple[Ref, ...] = Field(alias="anyOf", min_length=1, max_length=12)
    """Items (``<catalog>/<entry>``), any one of which the checker must hold (1 to 12)."""


class Tell(Strict):
    """ITM-FAKE-14..16: a check that may betray a fake (or a dishonest seller's ``manner``)."""

    check: GateCheck
    """The check made: a skill, an ability or a sheet value."""
    dc: int = Field(ge=1, le=100)
    """Its difficulty (1 to 100)."""
    says: str = Field(min_length=1, max_length=400)
    """What a success reveals, told to the Game Master (up to 400 characters)."""
    needs: tuple[Threshold, ...] = Field(default=(), max_length=8)
    """Requirements the checker's sheet must all meet to try at all."""
    needs_any: tuple[Threshold, ...] = Field(default=(), alias="needsAny", max_length=8)
    """Requirements of which the checker's sheet must meet one to try at all."""
    carries: Carries | None = None
    """An item the checker must hold, e.g. the kit for a tool check."""
    advantage_if: tuple[Threshold, ...] = Field(default=(), alias="advantageIf", max_length=8)
    """The check has advantage when any of these is met."""
    disadvantage_if: tuple[Threshold, ...] = Field(default=(), alias="disadvantageIf",
                                                   max_length=8)
    """The check has disadvantage when any of these is met."""


class Seller(Strict):
    """ITM-MARKET-09/10, ITM-DAY-07, ITM-FAKE-05/16: a kind of seller in a place."""

    id: ItemId
    """The seller's id, as ``seller=`` names it."""
    label: Label
    """The seller's name (``Smith``)."""
    sells: tuple[ItemFilter, ...] = Field(default=(), max_length=24)
    """Filters, any of which selects what the seller sells."""
    place: ItemId | None = None
    """The smallest place size where the seller is found; everywhere when absent."""
    only: Threshold | None = None
    """The seller deals only with buyers whose sheet value reaches this."""
    stock: Stock | None = None
    """A loot table drawn each market day for what the seller has besides the usual wares."""
    honest: bool = True
    """Whether the seller is honest (true by default); a dishonest one sells fakes as the real
    thing."""
    manner: Tell | None = None
    """A check that may betray a dishonest seller."""


class Market(Strict):
    """ITM-MARKET-01..13, ITM-DAY-08/09: price levels, place sizes, sold rules and sellers."""

    prices: tuple[PriceLevel, ...] = Field(min_length=1, max_length=8)
    """The price levels (1 to 8), one of them the default."""
    places: tuple[PlaceSize, ...] = Field(min_length=1, max_length=12)
    """The place sizes, smallest first (1 to 12)."""
    sold: tuple[SoldRule, ...] = Field(default=(), max_length=48)
    """Rules giving the smallest place that sells what a filter selects; the first match
    decides."""
    sellers: tuple[Seller, ...] = Field(default=(), max_length=24)
    """Kinds of seller (up to 24); without any, everyone in a place sells everything it sells."""
    unsold: tuple[ItemFilter, ...] = Field(default=(), max_length=24)
    """Filters for items no seller keeps among its regular wares."""
    buy_back: float | None = Field(default=None, alias="buyBack", gt=0, le=1)
    """The share of an item's default price a seller pays for it (above 0, at most 1); without it
    nobody buys."""

    @property
    def default_level(self) -> PriceLevel:
        """ITM-MARKET-02: the level used when ``level=`` is absent."""
        return next((p for p in self.prices if p.default), self.prices[0])
