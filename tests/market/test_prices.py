"""Prices, the coin a price is stated in, buy-back, and the market index (ITM-MARKET-02..13,
ITM-DAY-05/08, SPEC §10) on Gravewatch's market (compat file: penny 1, shilling 12, crown 60;
cheap ×0.75, fair ×1, dear ×1.5) and on the 5e coins (cp 1, sp 10, ep 50, gp 100, pp 1000)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from middleware.items.index import Coin, item_index
from middleware.resolve.market.index import market_index
from middleware.resolve.market.prices import buy_back, half_up, in_coins, price, scaled, stated_in
from middleware.resolve.market.sellers import smallest_place, unsold
from middleware.rules.items_money import Currency
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from tests.conftest import compat_json, compat_path


@cache
def gravewatch() -> Ruleset:
    return load_ruleset(compat_path("gravewatch.json"))


def coin(name: str) -> Coin:
    found = item_index(gravewatch()).coin(name)
    assert found is not None
    return found


GRAVEWATCH_COINS = (coin("crown"), coin("shilling"), coin("penny"))

FIVE_E = Currency.model_validate({"id": "coins", "label": "Coins", "units": [
    {"id": "cp", "label": "copper pieces", "value": 1, "one": "copper piece"},
    {"id": "sp", "label": "silver pieces", "value": 10, "one": "silver piece"},
    {"id": "ep", "label": "electrum pieces", "value": 50, "one": "electrum piece"},
    {"id": "gp", "label": "gold pieces", "value": 100, "one": "gold piece"},
    {"id": "pp", "label": "platinum pieces", "value": 1000, "one": "platinum piece"}]})
FIVE_E_COINS = tuple(Coin(FIVE_E, unit) for unit in FIVE_E.units)


def five_e(unit: str) -> Coin:
    return next(c for c in FIVE_E_COINS if c.unit.id == unit)


def test_a_coat_of_8_shillings_costs_12_shillings_at_dear() -> None:
    """ITM-MARKET-05 (the page's example): 96 pennies × 1.5 = 144 pennies, stated as 12 shillings
    because the cost was written in shillings and they express it exactly (ITM-MARKET-04)."""
    dear = price(96, coin("shilling"), GRAVEWATCH_COINS, 1.5)
    assert (144, "12 shillings") == (dear.value, dear.text)


def test_a_5e_potion_of_50_gp_is_priced_50_gold_pieces_never_5_platinum() -> None:
    """ITM-MARKET-05 (the page's example): the cost's own coin wins when it is exact."""
    assert "50 gold pieces" == price(5000, five_e("gp"), FIVE_E_COINS, 1).text


def test_a_price_the_cost_coin_cannot_state_takes_the_largest_coin_that_can() -> None:
    """ITM-MARKET-04: 1 gp at ×0.5 is 50 cp: not a whole gold piece, so one electrum piece (the
    largest exact coin, and ``one`` names a single coin, ITM-MONEY-17); Gravewatch's spade of 3
    shillings at dear is 54 pennies (4½ shillings, no crown)."""
    assert ("1 electrum piece", "54 pennies") == (
        price(100, five_e("gp"), FIVE_E_COINS, 0.5).text,
        price(36, coin("shilling"), GRAVEWATCH_COINS, 1.5).text)


@pytest.mark.parametrize(("cost", "times", "expected"), [
    (2, 0.75, 2),     # 1.5 rounds half up
    (3, 0.5, 2),      # 1.5 again
    (10, 0.15, 2),    # the decimal the ruleset wrote, 1.5 exactly, not the float below it
    (5, 0.75, 4),     # 3.75 to the nearest
    (1, 0.1, 1),      # never below one coin for anything that costs something
    (0, 1.5, 0),      # a cost of nothing stays nothing
])
def test_prices_round_half_up_in_the_smallest_coin(cost: int, times: float, expected: int) -> None:
    """ITM-MARKET-03, SPEC §10: the smallest coin times the level, halves up, at least 1."""
    assert expected == scaled(cost, times)


def test_half_up_never_rounds_to_even() -> None:
    """SPEC §10: never Python's ``round()`` (which gives 2 for 2.5)."""
    assert (3, 1, 0) == (half_up(Fraction(5, 2)), half_up(Fraction(1, 2)), half_up(Fraction(2, 5)))


def test_several_pieces_cost_the_unit_price_times_the_count() -> None:
    """SPEC §10: 3 spades of 36 pennies at cheap (27 each) cost 81 pennies."""
    cheap = price(36, coin("shilling"), GRAVEWATCH_COINS, 0.75, count=3)
    assert (27, 81, "81 pennies") == (cheap.unit, cheap.value, cheap.text)


def test_the_total_is_stated_like_a_single_price() -> None:
    """ITM-MARKET-04, SPEC §10: 2 spades at dear are 108 pennies, exactly 9 shillings."""
    assert "9 shillings" == price(36, coin("shilling"), GRAVEWATCH_COINS, 1.5, count=2).text


@pytest.mark.parametrize(("default", "fraction", "expected"), [
    (96, 0.5, 48),   # the coat: 4 shillings
    (3, 0.5, 2),     # 1.5 rounds half up
    (1, 0.5, 1),     # half a penny is a penny
    (1, 0.1, 1),     # at least one coin for anything worth something
    (0, 0.5, 0),
])
def test_buy_back_is_worked_in_the_smallest_coin(default: int, fraction: float,
                                                 expected: int) -> None:
    """ITM-DAY-08, SPEC §10: ``buyBack`` of the default price, half up, at least one coin."""
    assert expected == buy_back(default, fraction)


def test_coins_paid_in_go_largest_first() -> None:
    """ITM-DAY-10: 137 pennies are 2 crowns, 1 shilling and 5 pennies."""
    paid = in_coins(137, GRAVEWATCH_COINS)
    assert [("crown", 2), ("shilling", 1), ("penny", 5)] == [(c.unit.id, n) for c, n in paid]


def test_stated_in_keeps_the_written_coin_over_a_larger_exact_one() -> None:
    """ITM-MARKET-04: 120 pennies written in shillings is 10 shillings, not 2 crowns."""
    assert "shilling" == stated_in(120, coin("shilling"), GRAVEWATCH_COINS).unit.id


def test_the_market_index_is_built_once_per_ruleset() -> None:
    """Index once: the same object for every tag of every reply of a ruleset."""
    assert market_index(gravewatch()) is market_index(gravewatch())


def test_levels_and_sellers_are_found_by_id_or_label() -> None:
    """ITM-MARKET-19, Ambiguity 27: ``level=``, ``seller=`` by id or label, any case; no level
    is the default one (ITM-MARKET-02)."""
    market = market_index(gravewatch())
    assert market is not None
    found = (market.level("DEAR"), market.level(None), market.seller("Chapel of the vigil"),
             market.level("haggled"))
    assert ("dear", "fair", "chapel", None) == (
        found[0].id if found[0] else None, found[1].id if found[1] else None,
        found[2].id if found[2] else None, found[3])


def test_listings_read_sold_rules_sellers_and_costs() -> None:
    """ITM-MARKET-08/09/13: the first rule that selects an item gives its smallest place (rare
    before arm), an item's own ``sold`` overrides every rule (the watch pistol: city), an item no
    rule selects is sold everywhere; sellers by ``sells``; an item without cost has no value."""
    market = market_index(gravewatch())
    assert market is not None
    items = item_index(gravewatch())
    rows = {}
    for ref in ("kit/silver-nail", "kit/watch-pistol", "kit/grave-spade", "kit/lantern-coat",
                "kit/dawn-bell"):
        found = items.by_ref(ref)
        assert found is not None
        listing = market.listing(found)
        rows[ref] = (listing.place, listing.sellers, listing.value)
    assert {"kit/silver-nail": (2, ("smith",), 120), "kit/watch-pistol": (3, ("smith",), 180),
            "kit/grave-spade": (1, ("smith",), 36), "kit/lantern-coat": (None, ("chandler",), 96),
            "kit/dawn-bell": (None, (), None)} == rows


def test_a_limit_without_a_place_leaves_the_place_to_the_next_rule() -> None:
    """ITM-DAY-05: the place comes from the first rule that names a place."""
    data = compat_json("gravewatch.json")
    data["items"]["market"]["sold"].insert(0, {"filter": {"category": "arm"}, "limited": 2})
    ruleset = load_ruleset(data)
    spade = item_index(ruleset).by_ref("kit/grave-spade")
    assert spade is not None and ruleset.items is not None and ruleset.items.market is not None
    assert "village" == smallest_place(ruleset.items.market, spade.item)


def test_unsold_keeps_an_item_out_of_every_sellers_regular_wares() -> None:
    """ITM-MARKET-12: ``unsold`` overrides ``sells``, yet sellers still buy it back."""
    data = compat_json("gravewatch.json")
    data["items"]["market"]["unsold"] = [{"tag": "silver"}]
    ruleset = load_ruleset(data)
    market = market_index(ruleset)
    nail = item_index(ruleset).by_ref("kit/silver-nail")
    assert market is not None and nail is not None
    listing = market.listing(nail)
    assert (True, (), ("smith",)) == (unsold(market.market, nail.item), listing.sellers,
                                      listing.dealers)
