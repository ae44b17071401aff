"""An invented item through the engine: kept in S(n), gone in a regenerate that does not invent
it (ITM-PROPOSE-13, ITM-BAG-21, SPEC §3).

The add action's invention seam (``goods.invent``) is wired here to ``propose`` the way the add
action uses it, so these tests hold whether or not the seam is wired in the package yet.
"""

from __future__ import annotations

import pytest

from middleware.items.bag import Goods
from middleware.items.propose import propose
from middleware.pipeline import Engine
from middleware.resolve import Context
from middleware.resolve.inventory import goods
from middleware.resolve.inventory.find import Named
from middleware.resolve.inventory.read import ItemAsk
from middleware.resolve.inventory.record import InventoryRecord, refused
from middleware.rules.load import load_ruleset
from middleware.state import Character, GameState
from middleware.stores.memory import MemoryStore
from tests.conftest import compat_path

INVENT = ('Ada finds it. [inventory: action="add" item="Ember charm" category="gear" '
          'carried="+2 Sway" who="Ada"]')


def invent(ask: ItemAsk, state: GameState, ctx: Context) -> goods.Invented | InventoryRecord | None:
    """The add action's use of ``propose``: a refusal, the item to add, or None for plain."""
    made = propose(ctx.ruleset, state, ask.attrs, ask.item)
    if made.outcome == "refused":
        return refused(ask.action, made.reason or "", made.note or "", item=made.name, who=ask.who)
    if made.item is None:
        return None
    found = made.item
    return goods.Invented(Named(Goods(item=found.ref), found.label, found.stack_limit, found),
                          made.kept_in(state), made.note)


@pytest.fixture
async def engine(monkeypatch: pytest.MonkeyPatch) -> Engine:
    monkeypatch.setattr(goods, "invent", invent)
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
