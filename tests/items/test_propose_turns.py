"""An invented item through the engine, with the add action's own invention seam: kept in S(n),
gone in a regenerate that does not invent it (ITM-PROPOSE-13, ITM-BAG-21, SPEC §3)."""

from __future__ import annotations

import pytest

from middleware.engine import Engine
from middleware.rules.load import load_ruleset
from middleware.state import Character
from middleware.stores.memory import MemoryStore
from tests.conftest import compat_path

INVENT = ('Ada finds it. [inventory: action="add" item="Ember charm" category="gear" '
          'carried="+2 Sway" who="Ada"]')


@pytest.fixture
async def engine() -> Engine:
    engine = Engine(MemoryStore())
    await engine.create_game("chat", load_ruleset(compat_path("ember-roads.json")),
                             [Character(name="Ada", player=True)], seed=7)
    return engine


async def test_an_invented_item_is_in_the_bag_and_kept_in_the_turns_state(engine: Engine) -> None:
    """ITM-PROPOSE-10/12/13: added to Ada's bag under its ref, capped, the reply says so, and
    every later turn starts from a state that still knows it."""
    done = await engine.process("chat", 1, INVENT)
    await engine.process("chat", 2, "The road goes on.")
    later = await engine.state("chat", 2)
    expected = (["invented/ember-charm"], ["Ember charm"], 1,
                'note="carried: +2 on checks (sway) is more than a Common item gives; made +1"')
    item = later.invented[0].entry.item
    carried = item.carried if item else None
    assert expected == ([s.item for s in later.party[0].bag], [i.label for i in later.invented],
                        carried.modifiers[0].flat if carried else None,
                        done.text[done.text.index("note="):-1])


async def test_a_regenerate_that_does_not_invent_it_has_no_such_item(engine: Engine) -> None:
    """ITM-PROPOSE-13, SPEC §3: a regenerated reply starts again from S(n-1)."""
    await engine.process("chat", 1, INVENT)
    again = await engine.process("chat", 1, "Ada finds nothing.")
    assert ((), ()) == (again.state.invented, again.state.party[0].bag)
