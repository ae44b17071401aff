"""``[inventory: action="sell"]`` on Gravewatch's market day: the compat file with the items page's
market-day keys (``buyBack`` 0.5, a hamlet's purse of 10 shillings, a market town's of 100), and
variants built in memory (ITM-DAY-08..12, ITM-MARKET-12, SPEC §10).

Gravewatch counts pennies (shilling 12, crown 60). The chandler deals in coats, tonics, powder and
services everywhere; the smith in arms from a village up; the chapel in pages from a town up.
"""

from __future__ import annotations

from typing import Any

import pytest

from middleware.dice import Dice
from middleware.names import normalize_name
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.resolve import Context
from middleware.resolve.inventory.record import InventoryRecord
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState, Place, Stack
from tests.items.inventory_helpers import counts as bag
from tests.items.inventory_helpers import record as inventory_record
from tests.market.day_helpers import market_day_data
from tests.rulesets import by_id, entry, gravewatch, item_of

MARKET_DAY = load_ruleset(market_day_data())
NO_BUY_BACK = gravewatch()
TOWN = Place(name="Millbrook", size="town")
HAMLET = Place(name="Ashford", size="hamlet")
COAT = "kit/lantern-coat"


def variant(edit: Any) -> Ruleset:
    data = market_day_data()
    edit(data)
    return load_ruleset(data)


def ada(*bag: Stack, place: Place | None = TOWN) -> GameState:
    """Ada, the player, holding ``bag``, at ``place`` on its first market day."""
    days = {normalize_name(place.name): place.day} if place else {}
    return GameState(ruleset="gravewatch", place=place, days=days,
                     party=(Character(name="Ada", player=True, bag=bag),))


def items(**counts: int) -> tuple[Stack, ...]:
    """Stacks of kit items by entry id (``lantern_coat=2``) and coins by id."""
    out = []
    for name, count in counts.items():
        ref = f"kit/{name.replace('_', '-')}"
        coin = name in {"penny", "shilling", "crown"}
        out.append(Stack(coins=name, count=count) if coin else Stack(item=ref, count=count))
    return tuple(out)


def sell(state: GameState, text: str, ruleset: Ruleset = MARKET_DAY) -> ResolvedReply:
    return resolve_reply(text, state, Context(ruleset=ruleset, dice=Dice(1), seed=7))


def record(done: ResolvedReply, at: int = -1) -> InventoryRecord:
    """The record at ``at``, by default the last: a sale is the reply's last tag."""
    return inventory_record(done, at)


def test_a_coat_sells_for_half_its_default_price() -> None:
    """ITM-DAY-08/10/12: the coat's default price is 8 shillings; the chandler pays half, 4
    shillings, paid in largest coins first; the reply gives ``price="4 shillings"``."""
    done = sell(ada(*items(lantern_coat=1)), '[inventory: action="sell" '
                'item="Lantern-keeper\'s coat" count="1" seller="chandler" who="Ada"]')
    assert ('[inventory: action="sell" item="Lantern-keeper\'s coat" count="1" who="Ada" '
            'seller="chandler" result="ok" now="0" price="4 shillings" '
            'note="Received shillings ×4."]') == done.text
    assert ({"shilling": 4}, {"shilling": 4}) == (bag(done.state), record(done).received)


@pytest.mark.parametrize(("item", "count", "price", "received"), [
    ("Warming tonic", 3, "6 pennies", {"penny": 6}),            # 4 pennies: 2 a piece
    ("Shot and powder", 5, "5 pennies", {"penny": 5}),          # half a penny: 1 a piece
    ("Silver coffin nail", 1, "1 crowns", {"crown": 1}),        # 2 crowns: one (no ``one``)
    ("Lantern-keeper's coat", 3, "12 shillings", {"crown": 2, "shilling": 2}),
])
def test_buy_back_is_per_piece_half_up_times_the_count(item: str, count: int, price: str,
                                                       received: dict[str, int]) -> None:
    """ITM-DAY-08/10, SPEC §10: ``buyBack`` of the default price in the smallest coin, rounded
    half up, at least one coin a piece, times the count; coins come in largest first."""
    state = ada(*items(warming_tonic=3, shot_and_powder=5, silver_nail=1, lantern_coat=3))
    done = sell(state, f'[inventory: action="sell" item="{item}" count="{count}"]')
    assert (price, received) == (record(done).price, record(done).received)


def test_without_a_seller_the_first_local_dealer_buys() -> None:
    """ITM-DAY-08: no ``seller=``: a local seller who deals in such things (the smith)."""
    done = sell(ada(*items(grave_spade=1)), '[inventory: sell item="Grave spade"]')
    assert ("smith", "18 pennies") == (record(done).seller, record(done).price)


def test_sales_count_against_todays_purse() -> None:
    """ITM-DAY-09, Ambiguity 13: the hamlet's sellers pay out at most 10 shillings a day: two
    coats (8 shillings) go through, a third (4 more) is ``purse-spent`` and changes nothing."""
    state = ada(*items(lantern_coat=3), place=HAMLET)
    tag = '[inventory: sell item="Lantern-keeper\'s coat"]'
    done = sell(state, f"{tag} {tag} {tag}")
    assert ["resolved", "resolved", "purse-spent"] == [
        r.status if r.status == "resolved" else r.reason for r in done.records]
    assert ({"kit/lantern-coat": 1, "shilling": 8}, {"coin": 96}) == (
        bag(done.state), done.state.market.paid if done.state.market else {})


def test_a_sale_is_priced_at_the_place_in_force_at_the_end_of_the_reply() -> None:
    """SPEC §3, ITM-MARKET-20: a nail sold before the reply reaches a village is bought by the
    smith there (no smith in a hamlet)."""
    done = sell(ada(*items(silver_nail=1), place=HAMLET),
                '[inventory: sell item="Silver coffin nail"] [place: name="Ashby" size="village"]')
    assert ("resolved", "smith") == (record(done, 0).status, record(done, 0).seller)


def test_asking_for_more_than_is_held_sells_what_is_held() -> None:
    """ITM-DAY-10: 5 tonics asked, 2 held: 2 are sold and the GM is told."""
    done = sell(ada(*items(warming_tonic=2)), '[inventory: sell item="Warming tonic" count="5"]')
    assert (2, "4 pennies") == (record(done).count, record(done).price)
    assert "Only 2 held: 2 sold." in (record(done).note or "")


def _heavy_coins(data: Any) -> None:
    """Coins weigh 1 each; nobody carries more than 2."""
    items_block = data["items"]
    items_block["stats"].append({"id": "weight", "label": "Weight", "type": "number", "min": 0,
                                 "max": 100, "default": 0})
    items_block["carry"] = {"stat": "weight", "encumberedAbove": {"const": 2},
                            "limit": {"const": 2}}
    by_id(items_block["currencies"], "coin")["perWeight"] = 1


def _no_coat_cost(data: Any) -> None:
    del item_of(data, "kit/lantern-coat")["cost"]


def _cursed_ring_for_sale(data: Any) -> None:
    entry(data, "kit/widows-ring")["item"]["cost"] = {"amount": 1, "unit": "crown"}
    by_id(data["items"]["market"]["sellers"], "chandler")["sells"].append({"category": "token"})


TONICS = items(warming_tonic=20)


@pytest.mark.parametrize(("state", "text", "ruleset", "reason"), [
    (ada(*TONICS, place=None), '[inventory: sell item="Warming tonic"]', MARKET_DAY, "no-place"),
    (ada(*TONICS, place=Place(name="the moor")), '[inventory: sell item="Warming tonic"]',
     MARKET_DAY, "no-place"),
    (ada(*TONICS), '[inventory: sell item="Warming tonic" who="Zed"]', MARKET_DAY,
     "unknown-character"),
    (ada(*TONICS), '[inventory: sell item="Moon cheese"]', MARKET_DAY, "unknown-item"),
    (ada(*TONICS), '[inventory: sell item="Warming tonic"]', NO_BUY_BACK, "not-bought"),
    (ada(*items(silver_nail=1), place=HAMLET), '[inventory: sell item="Silver coffin nail"]',
     MARKET_DAY, "not-bought"),
    (ada(*TONICS), '[inventory: sell item="Warming tonic" seller="smith"]', MARKET_DAY,
     "not-bought"),
    (ada(*TONICS), '[inventory: sell item="Warming tonic" seller="baker"]', MARKET_DAY,
     "not-bought"),
    (ada(Stack(plain="Old boot")), '[inventory: sell item="Old boot"]', MARKET_DAY, "not-bought"),
    (ada(*items(dawn_bell=1)), '[inventory: sell item="Dawn bell"]', MARKET_DAY, "not-bought"),
    (ada(*items(lantern_coat=1)), f'[inventory: sell item="{COAT}"]', variant(_no_coat_cost),
     "not-for-sale"),
    (ada(*items(lantern_coat=30), place=HAMLET), f'[inventory: sell item="{COAT}" count="3"]',
     MARKET_DAY, "purse-spent"),
    (ada(*items(penny=1)), '[inventory: sell item="Warming tonic"]', MARKET_DAY, "not-held"),
    (ada(Stack(item="kit/widows-ring", bound=True, equipped=True)),
     '[inventory: sell item="Widow\'s ring"]', variant(_cursed_ring_for_sale), "cursed"),
    (ada(*items(lantern_coat=1)), f'[inventory: sell item="{COAT}"]', variant(_heavy_coins),
     "too-heavy"),
])
def test_every_refusal_changes_nothing(state: GameState, text: str, ruleset: Ruleset,
                                       reason: str) -> None:
    """ITM-DAY-11, Ambiguity 3/4: each refusal with its code; the state is the one the tag
    started from (nothing taken, nothing paid, nothing counted against the purse)."""
    done = sell(state, text, ruleset)
    assert (reason, state) == (record(done).reason, done.state)


def test_unsold_items_are_still_bought_back() -> None:
    """ITM-MARKET-12: an ``unsold`` item is nobody's regular ware, yet sellers buy it back."""
    ruleset = variant(lambda d: d["items"]["market"].__setitem__("unsold", [{"tag": "silver"}]))
    done = sell(ada(*items(silver_nail=1)), '[inventory: sell item="Silver coffin nail"]',
                ruleset)
    assert ("resolved", "smith") == (record(done).status, record(done).seller)
