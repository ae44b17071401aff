"""Weight, load, encumbrance and the shared view's carry rule on Brass Fair (pounds, Load = 4 +
2 x Brawn, limit 8 + 3 x Brawn, fifty coins to the pound, scrip weightless) and Lantern and Ledger
(no carry block) (ITM-BAG-14..16, ITM-BLOCK-13, ITM-MONEY-02)."""

from __future__ import annotations

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

ROPE, LANTERN, AXE = "wares/rope", "wares/lantern", "wares/hand-axe"


@pytest.fixture(scope="module")
def brass() -> Ruleset:
    return rulesets.ruleset("brass-fair")


@pytest.fixture(scope="module")
def ledger() -> Ruleset:
    return rulesets.ruleset("lantern-and-ledger")


def traveller(name: str, brawn: int, *bag: Stack, player: bool = False) -> Character:
    sheet = {"v": 1, "build": {"abilities": {"brawn": brawn}}}
    return Character.model_validate({"name": name, "player": player, "sheet": sheet,
                                     "bag": [s.model_dump() for s in bag]})


def test_an_item_weighs_its_carry_stat_and_plain_things_nothing(brass: Ruleset) -> None:
    """ITM-BAG-14: a Hand axe weighs 3; a bed at the inn has no weight and a plain item no
    stats: 0."""
    index = item_index(brass)
    assert (3.0, 0.0, 0.0) == (piece_weight(index, Goods(item=AXE)),
                               piece_weight(index, Goods(item="wares/inn-bed")),
                               piece_weight(index, Goods(plain="Rope")))


def test_coins_weigh_one_per_per_weight_of_their_family(brass: Ruleset) -> None:
    """ITM-MONEY-02: fifty coins of the purse, coppers or crowns, weigh a pound; fair chits
    (no ``perWeight``) weigh nothing."""
    index = item_index(brass)
    assert (0.02, 0.02, 0.0) == (piece_weight(index, Goods(coins="copper")),
                                 piece_weight(index, Goods(coins="crown")),
                                 piece_weight(index, Goods(coins="chit")))


def test_a_traveller_loads_her_bag_and_reads_her_capacity_from_her_sheet(brass: Ruleset) -> None:
    """ITM-BAG-14: axe 3 + two tonics 2 + rope 2 + 19 coppers 0.38 + 40 chits 0 = 7.38; Load is
    4 + 2 x Brawn 2 = 8, the limit 8 + 3 x 2 = 14: she is not encumbered."""
    juno = traveller("Juno", 2, Stack(item=AXE), Stack(item="wares/tonic", count=2),
                     Stack(item=ROPE), Stack(coins="copper", count=19),
                     Stack(coins="chit", count=40))
    assert 7.38 == pytest.approx(load(brass, juno))
    assert Capacity(8.0, 14.0) == capacity(brass, juno)
    assert not encumbered(brass, juno)


def test_a_character_without_a_sheet_reads_a_blank_one(brass: Ruleset) -> None:
    """ITM-BLOCK-11 / ITM-BAG-12: no sheet reads the blank sheet (Brawn at its default 1: Load
    6, limit 11)."""
    assert Capacity(6.0, 11.0) == capacity(brass, Character(name="Mule"))


def test_without_a_carry_block_nothing_weighs_and_nobody_is_encumbered(
        ledger: Ruleset) -> None:
    """ITM-BLOCK-13: Lantern and Ledger declares no carry."""
    wren = Character(name="Wren", bag=(Stack(item="chandlery/ledger-book"),
                                       Stack(item="chandlery/lamp-oil", count=5)))
    assert (0.0, Capacity(None, None), False) == (load(ledger, wren), capacity(ledger, wren),
                                                  encumbered(ledger, wren))


def test_the_whole_lot_goes_to_the_player_when_they_stay_unencumbered(brass: Ruleset) -> None:
    """ITM-BAG-15: the player first: two ropes (4 lb) keep Ada below her Load of 6."""
    state = GameState(ruleset="brass-fair", party=(traveller("Juno", 1), traveller(
        "Ada", 1, player=True)))
    assert [Share(1, 2)] == distribute(brass, state, Goods(item=ROPE), 2)


def test_the_first_who_can_carry_it_all_unencumbered_takes_it_all(brass: Ruleset) -> None:
    """ITM-BAG-15: Ada (Load 4) already carries a 3 lb axe; Juno (Load 4, empty) takes both
    ropes (4 lb)."""
    ada = traveller("Ada", 0, Stack(item=AXE), player=True)
    state = GameState(ruleset="brass-fair", party=(ada, traveller("Juno", 0)))
    assert [Share(1, 2)] == distribute(brass, state, Goods(item=ROPE), 2)


def test_a_lot_nobody_takes_whole_is_split_by_free_room(brass: Ruleset) -> None:
    """ITM-BAG-15, Ambiguity 8: 7 lanterns (1 lb); Ada (Load 4, a 2 lb rope) has room for 2
    below Load, Juno (Load 6) for 6: nobody takes 7 whole, so Ada takes 2 and Juno 5."""
    ada = traveller("Ada", 0, Stack(item=ROPE), player=True)
    state = GameState(ruleset="brass-fair", party=(ada, traveller("Juno", 1)))
    assert [Share(0, 2), Share(1, 5)] == distribute(brass, state, Goods(item=LANTERN), 7)


def test_past_everyone_s_load_the_rest_fills_room_below_the_limit(brass: Ruleset) -> None:
    """ITM-BAG-15/16: 10 lb for two empty travellers (Load 4, limit 8): 4 + 4 unencumbered,
    then 2 more to the player below her limit."""
    state = GameState(ruleset="brass-fair", party=(traveller("Ada", 0, player=True),
                                                   traveller("Juno", 0)))
    assert [Share(0, 6), Share(1, 4)] == distribute(brass, state, Goods(item=LANTERN), 10)


def test_nothing_is_given_past_anyone_s_limit(brass: Ruleset) -> None:
    """ITM-BAG-16: 30 lb for one traveller with limit 8: 8 taken, the rest stays."""
    state = GameState(ruleset="brass-fair", party=(traveller("Ada", 0, player=True),))
    assert [Share(0, 8)] == distribute(brass, state, Goods(item=LANTERN), 30)


def test_weightless_goods_go_to_the_player(brass: Ruleset) -> None:
    """ITM-BAG-15: a Honey cake weighs nothing, so it encumbers nobody: the player, already at
    her limit of 8 with four ropes, takes it."""
    ada = traveller("Ada", 0, *(Stack(item=ROPE) for _ in range(4)), player=True)
    state = GameState(ruleset="brass-fair", party=(traveller("Juno", 0), ada))
    assert [Share(1, 3)] == distribute(brass, state, Goods(item="wares/honey-cake"), 3)
