"""A name of punctuation alone names no item (issue 16 #4, SPEC §1b).

Names are compared without case, accents or punctuation, so ``item="?"`` used to compare equal to
the first stack of the bag and add, remove, use or equip it with ``result="ok"``. A name with no
letter or digit is refused ``unknown-item`` and every bag stays as it was.
"""

from __future__ import annotations

import pytest

from middleware.items.name_check import names_something
from tests.items.inventory_helpers import bram, juno, record, reply, state_of
from tests.market.test_buy import buy, coins, party
from tests.rulesets import gravewatch

JUNK = ["?", "—", "...", ";", " - ", "«»"]
ACTIONS = ["add", "remove", "give", "use", "equip", "unequip", "bind", "inspect"]


@pytest.mark.parametrize("name", JUNK)
@pytest.mark.parametrize("action", ACTIONS)
def test_a_junk_name_is_refused_unknown_item(action: str, name: str) -> None:
    """Bram holds a Dawn bell first in his bag: ``item="?"`` reaches none of it."""
    state = state_of(gravewatch(), bram(), juno())
    done = reply(gravewatch(), state, f'[inventory: action="{action}" item="{name}" '
                 'who="Bram the Quiet" to="Juno"]')
    assert ("refused", "unknown-item") == (record(done).status, record(done).reason)
    assert state.party == done.state.party


@pytest.mark.parametrize("action", ["buy", "sell"])
def test_a_junk_name_buys_and_sells_nothing(action: str) -> None:
    """At Millbrook's market, ``item="..."`` is no ware: nothing is paid or sold."""
    state = party(*coins(crown=3))
    done = buy(state, f'[inventory: action="{action}" item="..." who="Ada"]')
    assert "refused" == done.records[-1].status
    assert state.party == done.state.party


def test_names_in_any_script_still_name_things() -> None:
    """A letter or a digit in any script is enough: "Ω", "7", "ß", "кольцо" are names."""
    assert [True] * 4 + [False] * len(JUNK) == [names_something(n) for n in
                                                ["Ω", "7", "ß", "кольцо", *JUNK]]
