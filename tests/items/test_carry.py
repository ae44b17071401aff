"""Weight, load, encumbrance and the shared view's carry rule on Ember Roads (bulk, Load = 6 +
Brawn, limit 12) and Gravewatch (no carry block) (ITM-BAG-14..16, ITM-BLOCK-13, ITM-MONEY-02)."""

from __future__ import annotations

from typing import Any

import pytest

from middleware.items.bag import Goods
from middleware.items.carry import (
    Capacity,
    Share,
    capacity,
    distribute,
    encumbered,
    load,
    piece_weight,
)
from middleware.items.index import item_index
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState, Stack
from tests import rulesets
from tests.sheet.sheet_helpers import BRAM, JUNO


@pytest.fixture(scope="module")
def ember() -> Ruleset:
    return rulesets.ember()


@pytest.fixture(scope="module")
def gravewatch() -> Ruleset:
    return rulesets.gravewatch()


def member(data: dict[str, Any], **update: Any) -> Character:
    return Character.model_validate({**data, **update})


def traveller(name: str, brawn: int, *bag: Stack, player: bool = False) -> Character:
    sheet = {"v": 1, "build": {"abilities": {"brawn": brawn}}}
    return Character.model_validate({"name": name, "player": player, "sheet": sheet,
                                     "bag": [s.model_dump() for s in bag]})


def test_an_item_weighs_its_carry_stat_and_plain_things_nothing(ember: Ruleset) -> None:
    """ITM-BAG-14: Leather coat bulk 3; Waystone has no bulk and a plain item no stats: 0."""
    index = item_index(ember)
    assert (3.0, 0.0, 0.0) == (piece_weight(index, Goods(item="outfitter/leather-coat")),
                               piece_weight(index, Goods(item="outfitter/waystone")),
                               piece_weight(index, Goods(plain="Rope")))


def test_coins_weigh_one_per_per_weight_of_their_family(ember: Ruleset) -> None:
    """ITM-MONEY-02: a hundred coins (marks, bits) or ten pinches of salt weigh one bulk."""
    index = item_index(ember)
    assert (0.01, 0.1) == (piece_weight(index, Goods(coins="mark")),
                           piece_weight(index, Goods(coins="pinch")))


def test_juno_loads_her_bag_and_reads_her_capacity_from_her_sheet(ember: Ruleset) -> None:
    """ITM-BAG-14: coat 3 + axe 1 + two rations 2 + 19 coins 0.19 + 5 pinches 0.5 = 6.69; Load is
    6 + Brawn 1 = 7, the limit 12: she is not encumbered."""
    juno = member(JUNO)
    assert 6.69 == pytest.approx(load(ember, juno))
    assert Capacity(7.0, 12.0) == capacity(ember, juno)
    assert not encumbered(ember, juno)


def test_a_character_without_a_sheet_reads_a_blank_one(ember: Ruleset) -> None:
    """ITM-BLOCK-11 / ITM-BAG-12: no sheet reads the blank sheet (Brawn 0: Load 6)."""
    assert Capacity(6.0, 12.0) == capacity(ember, Character(name="Mule"))


def test_without_a_carry_block_nothing_weighs_and_nobody_is_encumbered(
        gravewatch: Ruleset) -> None:
    """ITM-BLOCK-13: Gravewatch declares no carry."""
    bram = member(BRAM)
    assert (0.0, Capacity(None, None), False) == (load(gravewatch, bram),
                                                  capacity(gravewatch, bram),
                                                  encumbered(gravewatch, bram))


def test_the_whole_lot_goes_to_the_player_when_they_stay_unencumbered(ember: Ruleset) -> None:
    """ITM-BAG-15: the player first."""
    state = GameState(ruleset="ember", party=(traveller("Juno", 1), traveller("Ada", 1,
                                                                              player=True)))
    assert [Share(1, 2)] == distribute(ember, state, Goods(item="outfitter/arrows"), 2)


def test_the_first_who_can_carry_it_all_unencumbered_takes_it_all(ember: Ruleset) -> None:
    """ITM-BAG-15: Ada (Load 6) already carries 5 bulk; Juno (Load 6, empty) takes both coats."""
    ada = traveller("Ada", 0, Stack(item="outfitter/leather-coat"),
                    Stack(item="outfitter/road-rations", count=2), player=True)
    state = GameState(ruleset="ember", party=(ada, traveller("Juno", 0)))
    assert [Share(1, 2)] == distribute(ember, state, Goods(item="outfitter/leather-coat"), 2)


def test_a_lot_nobody_takes_whole_is_split_by_free_room(ember: Ruleset) -> None:
    """ITM-BAG-15, Ambiguity 8: 8 arrows-bundles (bulk 1); Ada has room for 3 below Load, Juno
    for 6: nobody takes 8 whole, so Ada takes 3 and Juno 5."""
    ada = traveller("Ada", 0, Stack(item="outfitter/leather-coat"), player=True)
    state = GameState(ruleset="ember", party=(ada, traveller("Juno", 0)))
    assert [Share(0, 3), Share(1, 5)] == distribute(ember, state, Goods(item="outfitter/arrows"),
                                                    8)


def test_past_everyone_s_load_the_rest_fills_room_below_the_limit(ember: Ruleset) -> None:
    """ITM-BAG-15/16: 14 bulk for two empty travellers (Load 6, limit 12): 6 + 6 unencumbered,
    then 2 more to the player below her limit."""
    state = GameState(ruleset="ember", party=(traveller("Ada", 0, player=True),
                                              traveller("Juno", 0)))
    assert [Share(0, 8), Share(1, 6)] == distribute(ember, state,
                                                    Goods(item="outfitter/arrows"), 14)


def test_nothing_is_given_past_anyone_s_limit(ember: Ruleset) -> None:
    """ITM-BAG-16: 30 bulk for one traveller with limit 12: 12 taken, the rest stays."""
    state = GameState(ruleset="ember", party=(traveller("Ada", 0, player=True),))
    assert [Share(0, 12)] == distribute(ember, state, Goods(item="outfitter/arrows"), 30)


def test_weightless_goods_go_to_the_player(ember: Ruleset) -> None:
    """ITM-BAG-15: a Waystone weighs nothing, so it encumbers nobody: the player takes it."""
    ada = traveller("Ada", 0, *(Stack(item="outfitter/leather-coat") for _ in range(4)),
                    player=True)
    state = GameState(ruleset="ember", party=(traveller("Juno", 0), ada))
    assert [Share(1, 3)] == distribute(ember, state, Goods(item="outfitter/waystone"), 3)
