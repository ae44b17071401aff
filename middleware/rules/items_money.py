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
    label: Label
    value: int = Field(ge=1)
    one: Label | None = None

    def name_for(self, count: int) -> str:
        """ITM-BLOCK-18 / ITM-MONEY-17: ``one`` for exactly one piece (else ``label``)."""
        return self.one if count == 1 and self.one else self.label


class Currency(Strict):
    """ITM-BLOCK-14..16/19: a family of 1..10 coins that exchange with each other by ``value``."""

    id: ItemId
    label: Label
    per_weight: float | None = Field(default=None, alias="perWeight", gt=0)
    units: tuple[CoinUnit, ...] = Field(min_length=1, max_length=10)

    @property
    def smallest(self) -> CoinUnit:
        """The coin every value of the family is counted in (ITM-BLOCK-15)."""
        return min(self.units, key=lambda u: u.value)


class Cost(Strict):
    """ITM-ENTRY-07: a whole ``amount`` of one coin named by ``unit`` (a coin id)."""

    amount: int = Field(ge=0)
    unit: ItemId


# --- filters, loot tables (ITM-LOOT, ITM-IMPORT-11) ------------------------------------------


class ItemFilter(Strict):
    """ITM-MARKET-08 / ITM-LOOT-06: items that have all of the named rarity, category and tag."""

    rarity: ItemId | None = None
    category: ItemId | None = None
    tag: ItemId | None = None

    @model_validator(mode="after")
    def _names_something(self) -> ItemFilter:
        if self.rarity is None and self.category is None and self.tag is None:
            raise ValueError("a filter names at least one of rarity, category, tag")
        return self


Amount = Annotated[int, Field(ge=0, le=999_999)] | DiceText


class LootEntry(Strict):
    """ITM-LOOT-05..07: exactly one of ``item``, ``filter``, ``coins``; ``weight`` and ``count``."""

    item: Ref | None = None
    filter: ItemFilter | None = None
    coins: ItemId | None = None
    weight: int = Field(default=1, ge=1, le=1000)
    count: Amount = 1

    @model_validator(mode="after")
    def _one_source(self) -> LootEntry:
        given = [k for k in ("item", "filter", "coins") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a loot entry is exactly one of item, filter, coins")
        return self


class LootTable(Strict):
    """ITM-LOOT-03/04: ``rolls`` draws (0..20 or dice, default 1) from weighted ``entries``."""

    id: ItemId
    label: Label
    rolls: Annotated[int, Field(ge=0, le=20)] | DiceText = 1
    entries: tuple[LootEntry, ...] = Field(min_length=1, max_length=100)


# --- the market (ITM-MARKET, ITM-DAY, ITM-FAKE-05/16) ----------------------------------------


class PriceLevel(Strict):
    """ITM-MARKET-02: a multiplier of an item's cost; exactly one level is the default."""

    id: ItemId
    label: Label
    times: float = Field(gt=0, le=1000)
    default: bool = False


class PlaceSize(Strict):
    """ITM-MARKET-07 / ITM-DAY-09: a place size, smallest first, with an optional daily purse."""

    id: ItemId
    label: Label
    purse: Cost | None = None


class SoldRule(Strict):
    """ITM-MARKET-08 / ITM-DAY-04/05: the smallest place selling what ``filter`` selects."""

    filter: ItemFilter
    place: ItemId | None = None
    limited: Amount | None = None

    @model_validator(mode="after")
    def _says_something(self) -> SoldRule:
        if self.place is None and self.limited is None:
            raise ValueError("a sold rule gives a place, a limited count or both")
        return self


class Threshold(Strict):
    """A sheet value that must reach ``atLeast`` (seller ``only``, gear ``fits``, ``advantageIf``)."""

    value: ValueRef
    at_least: float = Field(alias="atLeast")
    label: Label | None = None


class Stock(Strict):
    """ITM-DAY-07: a loot table a seller draws once per market day."""

    table: ItemId


class GateCheck(Strict):
    """ITM-USE-16 / ITM-FAKE-14: a skill, an attribute or a sheet value (exactly one)."""

    skill: str | None = None
    ability: str | None = None
    value: ValueRef | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> GateCheck:
        if sum(v is not None for v in (self.skill, self.ability, self.value)) != 1:
            raise ValueError("a check names exactly one of skill, ability, value")
        return self


class Carries(Strict):
    """ITM-FAKE-15: an item the checker must hold in their own bag (any one of them)."""

    any_of: tuple[Ref, ...] = Field(alias="anyOf", min_length=1, max_length=12)


class Tell(Strict):
    """ITM-FAKE-14..16: a check that may betray a fake (or a dishonest seller's ``manner``)."""

    check: GateCheck
    dc: int = Field(ge=1, le=100)
    says: str = Field(min_length=1, max_length=400)
    needs: tuple[Threshold, ...] = Field(default=(), max_length=8)
    needs_any: tuple[Threshold, ...] = Field(default=(), alias="needsAny", max_length=8)
    carries: Carries | None = None
    advantage_if: tuple[Threshold, ...] = Field(default=(), alias="advantageIf", max_length=8)
    disadvantage_if: tuple[Threshold, ...] = Field(default=(), alias="disadvantageIf",
                                                   max_length=8)


class Seller(Strict):
    """ITM-MARKET-09/10, ITM-DAY-07, ITM-FAKE-05/16: a kind of seller in a place."""

    id: ItemId
    label: Label
    sells: tuple[ItemFilter, ...] = Field(default=(), max_length=24)
    place: ItemId | None = None
    only: Threshold | None = None
    stock: Stock | None = None
    honest: bool = True
    manner: Tell | None = None


class Market(Strict):
    """ITM-MARKET-01..13, ITM-DAY-08/09: price levels, place sizes, sold rules and sellers."""

    prices: tuple[PriceLevel, ...] = Field(min_length=1, max_length=8)
    places: tuple[PlaceSize, ...] = Field(min_length=1, max_length=12)
    sold: tuple[SoldRule, ...] = Field(default=(), max_length=48)
    sellers: tuple[Seller, ...] = Field(default=(), max_length=24)
    unsold: tuple[ItemFilter, ...] = Field(default=(), max_length=24)
    buy_back: float | None = Field(default=None, alias="buyBack", gt=0, le=1)

    @property
    def default_level(self) -> PriceLevel:
        """ITM-MARKET-02: the level used when ``level=`` is absent."""
        return next((p for p in self.prices if p.default), self.prices[0])
