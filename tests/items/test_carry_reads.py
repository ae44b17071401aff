"""What the carry rules read on Ember Roads (bulk, Load = 6 + Brawn, limit 12): capacity from the
bare sheet alone, and a load that follows every change of the bag (ITM-BAG-14, ITM-BLOCK-11)."""

from __future__ import annotations

from typing import Any

import pytest

from middleware.items.carry import Capacity, capacity, load
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, Stack
from tests.conftest import compat_path
from tests.sheet.sheet_helpers import JUNO


@pytest.fixture(scope="module")
def ember() -> Ruleset:
    return load_ruleset(compat_path("ember-roads.json"))


def test_capacity_reads_the_sheet_without_reading_the_bag(ember: Ruleset,
                                                          monkeypatch: Any) -> None:
    """ITM-BLOCK-11: Load 6 + Brawn 1 = 7, limit 12, read from Juno's bare sheet; her coat, axe
    and rations are never looked at (their effects are not built for a carry rule)."""
    def no_items(*_: Any, **__: Any) -> Any:
        raise AssertionError("capacity read the bag")

    monkeypatch.setattr("middleware.character.check.held_items", no_items)
    assert Capacity(7.0, 12.0) == capacity(ember, Character.model_validate(JUNO))


def test_a_load_follows_every_change_of_the_bag(ember: Ruleset) -> None:
    """ITM-BAG-14: a coat is 3 bulk; with a bundle of arrows (1) it is 4; the bag before the
    change still weighs 3."""
    ada = Character(name="Ada", player=True, bag=(Stack(item="outfitter/leather-coat"),))
    laden = ada.model_copy(update={"bag": (*ada.bag, Stack(item="outfitter/arrows"))})
    assert [3.0, 4.0, 3.0] == [load(ember, ada), load(ember, laden), load(ember, ada)]
