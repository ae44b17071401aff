"""The ``MARKET`` block the Game Master reads (ITM-MARKET-08..13/24/25, ITM-DAY-13, ITM-FAKE-04/05)
on Gravewatch's market (compat file) and its market day."""

from __future__ import annotations

from typing import Any

from middleware.pipeline import resolve_reply
from middleware.resolve.market.block import market_block
from middleware.resolve.market.offers import offers
from middleware.resolve.market.stock import todays_stock
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState, MarketDay
from tests.conftest import compat_json
from tests.market.day_helpers import context, market_day, market_day_data, start
from tests.rulesets import catalog, entry, gravewatch
from tests.rulesets import ember as ember_roads

GRAVEWATCH = gravewatch()
TOWN = '[place: name="Millbrook" size="market town"]'


def at(ruleset: Ruleset, reply: str = TOWN) -> GameState:
    """The state after ``reply`` (a ``[place:]``) from a new game."""
    return resolve_reply(reply, start(ruleset), context(ruleset)).state


def lines(ruleset: Ruleset, state: GameState, seed: int = 7) -> list[str]:
    return market_block(ruleset, state, seed).splitlines()


def test_a_ruleset_without_a_market_gets_no_block() -> None:
    """ITM-MARKET-25: only a ruleset with a market gets the ``MARKET`` instructions."""
    ember = ember_roads()
    assert "" == market_block(ember, start(ember), 7)


def test_without_a_market_here_the_block_teaches_place_and_buy_only() -> None:
    """ITM-MARKET-14/25: the instructions teach ``[place:]`` (sizes by label) and ``buy``; no place
    in force, or a place without a size, has no market; without a market day nothing teaches
    ``sell``."""
    block = lines(GRAVEWATCH, start(GRAVEWATCH))
    assert "MARKET" == block[0]
    assert "(sizes: hamlet, village, market town, city;" in block[1]
    assert '[inventory: action="buy" item="…"' in block[1]
    assert "Here (no place named yet) there is no market." == block[-1]
    assert "Here (The north road) there is no market." == lines(
        GRAVEWATCH, at(GRAVEWATCH, '[place: name="The north road"]'))[-1]
    assert not any('action="sell"' in line for line in block)


def test_a_market_town_lists_place_levels_and_each_local_seller() -> None:
    """ITM-MARKET-24/10/08: place and size, price levels, each seller with its wares at the default
    price, cheapest first; the chapel's ``only`` by its label; the watch pistol (sold from a city)
    and items without a cost are not listed."""
    block = lines(GRAVEWATCH, at(GRAVEWATCH))
    expected = [
        "Place: Millbrook, market town.",
        "Price levels: cheap ×0.75, fair ×1 (default), dear ×1.5. Haggling or a seller's mood "
        "changes the level, never the price itself.",
        "Sellers here, a dozen wares each at the default price, cheapest first; anything a seller "
        "sells can be bought by name:",
        "- chandler: Shot and powder 1 pennies; Warming tonic 4 pennies; A bed at the watch-house "
        "6 pennies; Lantern-keeper's coat 8 shillings",
        "- smith: Grave spade 3 shillings; Silver coffin nail 2 crowns",
        "- chapel of the Vigil, sells only to wardens of Nerve 3 or more: Page of the vigil litany "
        "1 shillings",
    ]
    assert expected == block[2:]


def test_a_hamlet_has_only_the_sellers_found_there() -> None:
    """ITM-MARKET-09: the smith is found from a village up and the chapel from a market town up, so
    a hamlet has only the chandler."""
    block = lines(GRAVEWATCH, at(GRAVEWATCH, '[place: name="Ashford" size="hamlet"]'))
    assert ["- chandler"] == [line.split(":")[0] for line in block if line.startswith("- ")]


def test_prices_round_half_up_in_the_smallest_coin_and_name_the_coin_that_states_them() -> None:
    """ITM-MARKET-03/04: with ``cheap`` (×0.75) the default, a 1-penny shot costs 1 penny (never
    below one coin), a 3-shilling spade 27 pennies (no shilling states it), a coat 6 shillings."""
    data = compat_json("gravewatch.json")
    for level in data["items"]["market"]["prices"]:
        level["default"] = level["id"] == "cheap"
    cheap = load_ruleset(data)
    prices = {o.item.label: o.price for _, wares in offers(cheap, "town") for o in wares}
    assert ("1 pennies", "27 pennies", "6 shillings", "90 pennies") == (
        prices["Shot and powder"], prices["Grave spade"], prices["Lantern-keeper's coat"],
        prices["Silver coffin nail"])


def test_a_seller_lists_a_dozen_wares_cheapest_first() -> None:
    """ITM-MARKET-24: fourteen more tonics at the chandler: the block lists the twelve cheapest."""
    data = compat_json("gravewatch.json")
    kit = catalog(data, "kit")
    kit["entries"] += [{"id": f"tonic-{n}", "label": f"Tonic {n:02d}",
                        "item": {"category": "tonic", "cost": {"amount": n, "unit": "penny"}}}
                       for n in range(14, 0, -1)]
    block = lines(load_ruleset(data), at(load_ruleset(data)))
    chandler = next(line for line in block if line.startswith("- chandler"))
    wares = chandler.removeprefix("- chandler: ").split("; ")
    assert 12 == len(wares)
    assert ["Shot and powder 1 pennies", "Tonic 01 1 pennies", "Tonic 02 2 pennies"] == wares[:3]


def test_without_sellers_anyone_sells_what_the_place_sells() -> None:
    """ITM-MARKET-11, Ambiguity 26: a market without ``sellers`` shows one seller, "anyone"."""
    data = compat_json("gravewatch.json")
    del data["items"]["market"]["sellers"]
    ruleset = load_ruleset(data)
    sellers = [line for line in lines(ruleset, at(ruleset)) if line.startswith("- ")]
    assert ["- anyone"] == [line.split(":")[0] for line in sellers]
    assert "Silver coffin nail 2 crowns" in sellers[0]


def test_a_market_day_adds_stock_limited_buy_back_and_purse() -> None:
    """ITM-DAY-13: today's stock per seller, the limited wares left, what sellers pay back and the
    purse left; the instructions teach ``sell`` and ``day="new"``."""
    ruleset = market_day()
    state = at(ruleset)
    stock = todays_stock(ruleset, 7, "Millbrook", 1)
    block = lines(ruleset, state)
    assert 'Start a new market day in the same place with day="new".' in block[2]
    assert "Place: Millbrook, market town (market day 1)." == block[3]
    odd_lot = "; ".join(f"{_label(ruleset, w.ref)} ×{w.count} at {_price(ruleset, w.ref)}"
                        for w in stock.of("smith"))
    assert f"  In stock today: {odd_lot}" == block[block.index(
        "- smith: Grave spade 3 shillings; Silver coffin nail 2 crowns") + 1]
    nail, page = stock.limited["kit/silver-nail"], stock.limited["kit/litany-page"]
    assert [f"Limited today: Silver coffin nail {nail} of {nail} left; Page of the vigil litany "
            f"{page} of {page} left.",
            "Local sellers buy back what they deal in at ×0.5 of the default price.",
            "Today's purse: 100 shillings of 100 shillings left to pay out."] == block[-3:]


def test_what_was_sold_today_shows_in_what_is_left() -> None:
    """ITM-DAY-06/09/13: a limited ware bought counts down; the purse shows what sellers have not
    paid out yet, in the purse's coin when it states it, else the largest coin that does."""
    ruleset = market_day()
    state = at(ruleset)
    nail = todays_stock(ruleset, 7, "Millbrook", 1).limited["kit/silver-nail"]
    sold = MarketDay(place="millbrook", day=1, limited={"kit/silver-nail": nail},
                     paid={"coin": 54})
    block = lines(ruleset, state.model_copy(update={"market": sold}))
    assert f"Silver coffin nail 0 of {nail} left" in block[-3]
    assert "Today's purse: 1146 pennies of 100 shillings left to pay out." == block[-1]
    whole = sold.model_copy(update={"paid": {"coin": 48}})
    assert "Today's purse: 96 shillings of 100 shillings left to pay out." == lines(
        ruleset, state.model_copy(update={"market": whole}))[-1]


def test_a_risky_ware_is_warned_of_and_a_fake_in_a_dishonest_stock_is_shown_truly() -> None:
    """ITM-FAKE-05 and the risky warning: an honest seller's risky ware carries ``(warn the buyer
    first: …)``; a dishonest fence's fake is offered as what it passes for, with the truth for the
    Game Master; the fake is never among regular wares (ITM-FAKE-04)."""
    ruleset = load_ruleset(_with_a_fence())
    block = lines(ruleset, at(ruleset))
    smith = next(line for line in block if line.startswith("- smith"))
    assert "Grave spade 3 shillings (warn the buyer first: the blade turns in wet earth)" in smith
    fence = block[block.index("- Fence: Silver coffin nail 2 crowns") + 1]
    assert "  In stock today: Silver coffin nail ×2 at 2 crowns (FAKE: really Tin coffin " \
        "nail)" == fence
    assert not any("Tin coffin nail 1" in line for line in block)


def _with_a_fence() -> dict[str, Any]:
    data = market_day_data()
    entry(data, "kit/grave-spade")["item"]["risky"] = "the blade turns in wet earth"
    catalog(data, "kit")["entries"].append({"id": "tin-nail", "label": "Tin coffin nail", "item": {
        "category": "arm", "rarity": "rare", "slots": {"hands": 1}, "stack": 12,
        "cost": {"amount": 1, "unit": "shilling"}, "passesFor": "kit/silver-nail"}})
    data["items"]["lootTables"].append({"id": "fences_odd_lot", "label": "Fence's odd lot",
                                        "entries": [{"item": "kit/tin-nail", "count": 2}]})
    data["items"]["market"]["sellers"].append({
        "id": "fence", "label": "Fence", "sells": [{"tag": "silver"}], "place": "town",
        "honest": False, "stock": {"table": "fences_odd_lot"}})
    return data


def _label(ruleset: Ruleset, ref: str) -> str:
    return next(o.item.label for _, wares in offers(ruleset, "city") for o in wares
                if o.item.ref == ref)


def _price(ruleset: Ruleset, ref: str) -> str:
    return next(o.price for _, wares in offers(ruleset, "city") for o in wares
                if o.item.ref == ref)
