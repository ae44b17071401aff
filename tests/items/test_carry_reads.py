"""What the carry rules read on Brass Fair (pounds, Load = 4 + 2 x Brawn, limit 8 + 3 x Brawn):
capacity from the bare sheet alone, and a load that follows every change of the bag (ITM-BAG-14,
ITM-BLOCK-11)."""

from __future__ import annotations

from typing import Any

import pytest

from middleware.items.carry import Capacity, capacity, load
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, Stack
from tests import rulesets


@pytest.fixture(scope="module")
def brass() -> Ruleset:
    return rulesets.ruleset("brass-fair")


def test_capacity_reads_the_sheet_without_reading_the_bag(brass: Ruleset,
                                                          monkeypatch: Any) -> None:
    """ITM-BLOCK-11: Load 4 + 2 x Brawn 2 = 8, limit 8 + 3 x 2 = 14, read from Juno's bare sheet;
    her axe and lamp charm (which changes checks when carried) are never looked at (their
    effects are not built for a carry rule)."""
    def no_items(*_: Any, **__: Any) -> Any:
        raise AssertionError("capacity read the bag")

    monkeypatch.setattr("middleware.character.check.held_items", no_items)
    juno = Character.model_validate({
        "name": "Juno", "player": True, "sheet": {"v": 1, "build": {"abilities": {"brawn": 2}}},
        "bag": [{"item": "wares/hand-axe"}, {"item": "wares/lamp-charm"}]})
    assert Capacity(8.0, 14.0) == capacity(brass, juno)


def test_a_load_follows_every_change_of_the_bag(brass: Ruleset) -> None:
    """ITM-BAG-14: a hand axe is 3 lb; with a tin lantern (1) it is 4; the bag before the
    change still weighs 3."""
    ada = Character(name="Ada", player=True, bag=(Stack(item="wares/hand-axe"),))
    laden = ada.model_copy(update={"bag": (*ada.bag, Stack(item="wares/lantern"))})
    assert [3.0, 4.0, 3.0] == [load(brass, ada), load(brass, laden), load(brass, ada)]
