"""``[inventory: action="buy"]`` on Gravewatch's market (compat file) and variants of it built in
memory (ITM-MARKET-08..23, ITM-DAY-04..07, SPEC §3, §10).

Gravewatch counts pennies (shilling 12, crown 60); prices cheap ×0.75, fair ×1, dear ×1.5; places
hamlet < village < market town < city; rare things from a town up, arms from a village up, the
watch pistol only in a city; the chandler sells coats, tonics, powder and services everywhere, the
smith arms from a village up, the chapel pages from a town up to wardens of Nerve 3 or more.
Ada (the player) has Nerve 2, Bram Nerve 3.
"""

from __future__ import annotations

from typing import Any

import pytest

from middleware.dice import Dice
from middleware.engine import Engine
from middleware.names import normalize_name
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.resolve import Context
from middleware.resolve.inventory.record import InventoryRecord
from middleware.resolve.market.stock import todays_stock
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import (
    Build,
    Character,
    GameState,
    MarketDay,
    Place,
    Sheet,
    Stack,
)
from middleware.stores.memory import MemoryStore
from tests.conftest import compat_json
from tests.items.inventory_helpers import counts as bag
from tests.items.inventory_helpers import record as inventory_record
from tests.market.day_helpers import market_day
from tests.rulesets import by_id, catalog, gravewatch

GRAVEWATCH = gravewatch()
TOWN = Place(name="Millbrook", size="town")
VILLAGE = Place(name="Ashby", size="village")
HAMLET = Place(name="Ashford", size="hamlet")


def variant(edit: Any) -> Ruleset:
    """Gravewatch with its parsed JSON changed by ``edit``."""
    data = compat_json("gravewatch.json")
    edit(data)
    return load_ruleset(data)


def _limited(data: Any) -> None:
    rare = next(s for s in data["items"]["market"]["sold"] if s["filter"] == {"rarity": "rare"})
    rare["limited"] = 1  # one rare piece a day


def _heavy(data: Any, per_weight: int) -> None:
    """A ``carry`` block: spades and coats weigh 1, nobody carries more than 2."""
    items = data["items"]
    items["stats"].append({"id": "weight", "label": "Weight", "type": "number", "min": 0,
                           "max": 100, "default": 0})
    items["carry"] = {"stat": "weight", "encumberedAbove": {"const": 2}, "limit": {"const": 2}}
    by_id(items["currencies"], "coin")["perWeight"] = per_weight
    for entry in catalog(data, "kit")["entries"]:
        if entry["id"] in {"grave-spade", "lantern-coat"}:
            entry["item"].setdefault("stats", {})["weight"] = 1


def warden(name: str, nerve: int, *bag: Stack, player: bool = False) -> Character:
    return Character(name=name, player=player, bag=bag,
                     sheet=Sheet(v=1, build=Build(abilities={"nerve": nerve})))


def coins(**counts: int) -> tuple[Stack, ...]:
    return tuple(Stack(coins=coin, count=n) for coin, n in counts.items())


def party(*bag: Stack, place: Place | None = TOWN) -> GameState:
    """Ada (the player, Nerve 2) holding ``bag`` and Bram (Nerve 3) holding 5 crowns."""
    days = {normalize_name(place.name): place.day} if place else {}
    return GameState(ruleset="gravewatch", place=place, days=days, party=(
        warden("Ada", 2, *bag, player=True), warden("Bram", 3, *coins(crown=5))))


def buy(state: GameState, text: str, ruleset: Ruleset = GRAVEWATCH, seed: int = 7) -> ResolvedReply:
    return resolve_reply(text, state, Context(ruleset=ruleset, dice=Dice(1), seed=seed))


def record(done: ResolvedReply, at: int = -1) -> InventoryRecord:
    """The record at ``at``, by default the last: a purchase is the reply's last tag."""
    return inventory_record(done, at)


COAT = "Lantern-keeper's coat"


def test_a_buy_is_priced_paid_with_change_and_delivered() -> None:
    """ITM-MARKET-19..22: the dear coat costs 12 shillings, paid with 3 crowns and 3 shillings
    back, and lands in Ada's bag; the reply gives the price, the seller and the change."""
    done = buy(party(*coins(crown=3)),
               f'[inventory: action="buy" item="{COAT}" count="1" level="dear" who="Ada"]')
    assert ('[inventory: action="buy" item="Lantern-keeper\'s coat" count="1" who="Ada" '
            'level="dear" seller="chandler" result="ok" now="1" price="12 shillings" '
            'note="Paid with crowns ×3; shillings ×3 back."]') == done.text
    assert {"shilling": 3, "kit/lantern-coat": 1} == bag(done.state)
    assert ({"crown": 3}, {"shilling": 3}) == (record(done).paid, record(done).change)


def test_without_level_or_seller_the_default_level_and_any_local_seller_apply() -> None:
    """ITM-MARKET-19: no ``level=`` is the default (fair), no ``seller=`` any local seller who
    sells the item; no ``who=`` is the player's purse."""
    done = buy(party(*coins(shilling=5)), '[inventory: buy item="grave spade"]')
    found = record(done)
    assert ("fair", "smith", "3 shillings", "Ada") == (found.level, found.seller, found.price,
                                                       found.who)
    assert {"shilling": 2, "kit/grave-spade": 1} == bag(done.state)


def test_several_pieces_cost_the_unit_price_times_the_count() -> None:
    """SPEC §10: 3 warming tonics at cheap cost 3 × 3 pennies (4 × 0.75)."""
    done = buy(party(*coins(shilling=1)),
               '[inventory: action="buy" item="Warming tonic" count="3" level="cheap"]')
    assert ("9 pennies", 3) == (record(done).price, record(done).count)
    assert {"penny": 3, "kit/warming-tonic": 3} == bag(done.state)


def test_a_service_only_pays() -> None:
    """ITM-MARKET-20, ITM-ENTRY-09: a bed at the watch-house is paid for, never carried."""
    done = buy(party(*coins(shilling=1)), '[inventory: action="buy" item="A bed at the watch-house"]')
    assert ("resolved", None, "6 pennies") == (record(done).status, record(done).now,
                                               record(done).price)
    assert {"penny": 6} == bag(done.state)


def test_the_chapel_sells_its_pages_to_wardens_of_nerve_3() -> None:
    """ITM-MARKET-10: ``only`` is read on the buyer's sheet: Bram (Nerve 3) may buy. (Gravewatch's
    shilling has no ``one``, so one piece is named by its ``label``, ITM-BLOCK-18.)"""
    done = buy(party(), '[inventory: action="buy" item="Page of the vigil litany" who="Bram"]')
    assert ("resolved", "chapel", "1 shillings") == (record(done).status, record(done).seller,
                                                    record(done).price)


def test_a_place_named_later_in_the_reply_prices_an_earlier_buy() -> None:
    """ITM-MARKET-20, SPEC §3: the buy is priced at the place in force at the end of the reply:
    a spade (village and up) is bought in a hamlet reply that ends in a village, and refused in a
    village reply that ends in a hamlet."""
    tag = '[inventory: action="buy" item="Grave spade"]'
    up = buy(party(*coins(crown=1), place=HAMLET), f'{tag} [place: name="Ashby" size="village"]')
    down = buy(party(*coins(crown=1), place=VILLAGE), f'{tag} [place: name="Ashford" size="hamlet"]')
    assert ("resolved", "not-here") == (record(up, 0).status, record(down, 0).reason)


async def test_a_regenerated_reply_never_pays_twice() -> None:
    """ITM-MARKET-21, ITM-BAG-21, SPEC §3: every candidate of a turn buys from the turn-start
    purse; the next turn starts from the selected one."""
    engine = Engine(MemoryStore())
    await engine.create_game("chat", GRAVEWATCH, party(*coins(shilling=8)).party)
    tag = f'[place: name="Millbrook" size="market town"] [inventory: buy item="{COAT}"]'
    first = await engine.process("chat", 1, tag)
    second = await engine.process("chat", 1, f"Again. {tag}")
    assert [{"kit/lantern-coat": 1}] * 2 == [bag(first.state), bag(second.state)]
    again = await engine.process("chat", 2, f'[inventory: buy item="{COAT}"]')
    assert "cannot-afford" == again.records[0].reason


@pytest.mark.parametrize(("state", "text", "reason"), [
    (party(*coins(crown=9), place=None), f'[inventory: buy item="{COAT}"]', "no-place"),
    (party(*coins(crown=9), place=Place(name="the moor")), f'[inventory: buy item="{COAT}"]',
     "no-place"),
    (party(*coins(crown=9)), f'[inventory: buy item="{COAT}" who="Zed"]', "unknown-character"),
    (party(*coins(crown=9)), f'[inventory: buy item="{COAT}" level="haggled"]', "unknown-level"),
    (party(*coins(crown=9)), '[inventory: buy item="Moon cheese"]', "unknown-item"),
    (party(*coins(crown=9)), f'[inventory: buy item="{COAT}" seller="baker"]', "no-seller"),
    (party(*coins(crown=9)), '[inventory: buy item="Dawn bell"]', "not-for-sale"),
    (party(*coins(crown=9), place=HAMLET), '[inventory: buy item="Grave spade"]', "not-here"),
    (party(*coins(crown=9)), '[inventory: buy item="Watch pistol"]', "not-here"),
    (party(*coins(crown=9)), f'[inventory: buy item="{COAT}" seller="smith"]', "no-seller"),
    (party(*coins(crown=9), place=HAMLET), '[inventory: buy item="Warming tonic" seller="smith"]',
     "no-seller"),
    (party(*coins(crown=9)), '[inventory: buy item="Page of the vigil litany"]', "not-to-you"),
    (party(*coins(shilling=11)), f'[inventory: buy item="{COAT}" level="dear"]', "cannot-afford"),
    (party(*coins(crown=9)), '[inventory: buy]', "no-item"),
])
def test_every_refusal_changes_nothing(state: GameState, text: str, reason: str) -> None:
    """ITM-MARKET-23, SPEC §10, Ambiguity 4: each refusal with its code; the state is the one
    the tag started from (nothing paid, nothing delivered)."""
    done = buy(state, text)
    assert (reason, state) == (record(done).reason, done.state)


def test_refusals_follow_the_pages_order() -> None:
    """Ambiguity 4: an unknown level is reported before an unknown item, a place too small
    before a seller who does not sell it, ``not-to-you`` before ``cannot-afford``."""
    state = party(place=HAMLET)
    texts = ['[inventory: buy item="Moon cheese" level="haggled"]',
             '[inventory: buy item="Grave spade" seller="chandler"]',
             '[inventory: buy item="Page of the vigil litany"]']
    reasons = [record(buy(state if i < 2 else party(), t)).reason for i, t in enumerate(texts)]
    assert ["unknown-level", "not-here", "not-to-you"] == reasons


def test_a_limited_ware_sells_out_until_a_new_day() -> None:
    """ITM-DAY-04/06: one rare piece a day: the second buy of the reply is ``sold-out`` and
    changes nothing; a new day in the same place sells again."""
    ruleset = variant(_limited)
    tag = '[inventory: buy item="Silver coffin nail" who="Bram"]'
    done = buy(party(), f"{tag} {tag}", ruleset)
    assert ["resolved", "sold-out"] == [r.status if r.status != "refused" else r.reason
                                        for r in done.records]
    market = done.state.market or MarketDay(place="")
    assert ({"crown": 3, "kit/silver-nail": 1}, "millbrook", {"kit/silver-nail": 1}) == (
        bag(done.state, 1), market.place, market.limited)
    fresh = buy(done.state, f'[place: name="Millbrook" size="market town" day="new"] {tag}', ruleset)
    assert "resolved" == record(fresh).status


def test_asking_for_more_than_is_left_today_is_sold_out() -> None:
    """ITM-DAY-06, ITM-MARKET-21: 2 nails when 1 is for sale buys none."""
    state = party()
    done = buy(state, '[inventory: buy item="Silver coffin nail" count="2" who="Bram"]',
               variant(_limited))
    assert ("sold-out", state) == (record(done).reason, done.state)


def test_a_bag_that_cannot_take_the_item_pays_nothing() -> None:
    """ITM-MARKET-21/23, SPEC §10: 3 spades past Ada's limit of 2: ``too-heavy``, no coin paid."""
    state = party(*coins(crown=3))
    done = buy(state, '[inventory: buy item="Grave spade" count="3"]',
               variant(lambda d: _heavy(d, 100)))
    assert ("too-heavy", state) == (record(done).reason, done.state)


def test_change_too_heavy_to_carry_refuses_the_buy() -> None:
    """SPEC §10: with a coin weighing 1, a tonic paid with a crown would give back 8 coins of
    change; Ada (limit 2) cannot carry them, so nothing is paid or delivered."""
    state = party(*coins(crown=1))
    done = buy(state, '[inventory: buy item="Warming tonic"]', variant(lambda d: _heavy(d, 1)))
    assert ("too-heavy", state) == (record(done).reason, done.state)


def test_unsold_items_are_nobodys_regular_wares() -> None:
    """ITM-MARKET-12: with silver things ``unsold``, nobody sells the silver coffin nail."""
    ruleset = variant(lambda d: d["items"]["market"].__setitem__("unsold", [{"tag": "silver"}]))
    done = buy(party(), '[inventory: buy item="Silver coffin nail" who="Bram"]', ruleset)
    assert "no-seller" == record(done).reason


def _seed_with_nails() -> tuple[int, int]:
    """A game seed whose first village day has the smith stocking silver nails, and how many."""
    for seed in range(200):
        wares = todays_stock(market_day(), seed, "Ashby", 1).of("smith")
        nails = [w.count for w in wares if w.ref == "kit/silver-nail"]
        if nails:
            return seed, nails[0]
    raise AssertionError("no seed stocks nails")


def test_a_sellers_stock_sells_what_the_place_would_not_in_the_drawn_quantity() -> None:
    """ITM-DAY-07: nails are rare (town and up), yet the smith's odd lot sells them in a village,
    in the quantity drawn for the day; then they are ``sold-out``."""
    seed, count = _seed_with_nails()
    state = party(*coins(crown=9 * count), place=VILLAGE)
    tag = f'[inventory: buy item="Silver coffin nail" count="{count}"]'
    done = buy(state, f"{tag} {tag}", market_day(), seed)
    assert [("resolved", "smith", None), ("refused", None, "sold-out")] == [
        (r.status, getattr(r, "seller", None) if r.status == "resolved" else None, r.reason)
        for r in done.records]
    assert {"smith:kit/silver-nail": count} == (done.state.market.stock if done.state.market
                                                else {})
