"""A select at a turn that later turns were built on is refused (issue 16 #9, SPEC §3).

Turn 1 has two candidates (one pebble, two pebbles) and turn 2 was played on the second. Selecting
turn 1's first candidate used to make turn 1 show one pebble while turn 2 still showed what it was
built on. Now it is refused with a ``GameError`` that says which turn was built on what and how to
play the other candidate (a fork); every state stays as it was. Before a later turn is played, or
to the candidate already selected, a select is allowed as always.
"""

from __future__ import annotations

import pytest

from middleware.engine import Engine
from middleware.errors import GameError
from middleware.resolve import dispatch
from tests.pipeline.conftest import pebbles, pocket_resolver


@pytest.fixture(autouse=True)
def pocket(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(dispatch.RESOLVERS, "loot", pocket_resolver)


async def two_turns(engine: Engine) -> None:
    await engine.process("chat", 1, "[loot: a]")
    await engine.process("chat", 1, "[loot: a] [loot: b]")
    await engine.process("chat", 2, "[loot: c]")


async def test_a_select_under_a_played_turn_is_refused(engine: Engine) -> None:
    """Turn 2 (3 pebbles) was played on turn 1's candidate 1 (2 pebbles): selecting candidate 0
    is refused, and turns 1 and 2 still read 2 and 3."""
    await two_turns(engine)
    with pytest.raises(GameError, match=r"turn 2 .* candidate 1 of turn 1.*fork at turn 0"):
        await engine.select("chat", 1, 0)
    assert (2, 3) == (pebbles(await engine.state("chat", 1)), pebbles(await engine.state("chat", 2)))


async def test_selecting_the_selected_candidate_or_before_later_turns_is_allowed(
        engine: Engine) -> None:
    """The candidate already selected may be selected again; and before turn 2 is played, a
    swipe back to candidate 0 is what turn 2 builds on."""
    await two_turns(engine)
    await engine.select("chat", 1, 1)
    await engine.process("chat", 3, "[loot: d]")
    await engine.select("chat", 3, 0)
    other = Engine(engine.store)
    await other.create_game("chat-b", await engine.ruleset("chat"), (await engine.state("chat", 0)).party)
    await other.process("chat-b", 1, "[loot: a]")
    await other.process("chat-b", 1, "[loot: a] [loot: b]")
    await other.select("chat-b", 1, 0)
    assert 2 == pebbles((await other.process("chat-b", 2, "[loot: c]")).state)


async def test_the_other_candidate_is_played_on_a_fork(engine: Engine) -> None:
    """What the refusal suggests: a fork at turn 0 replays turn 1 on its own branch."""
    await two_turns(engine)
    await engine.fork("chat", 0, "chat-other")
    assert 1 == pebbles((await engine.process("chat-other", 1, "[loot: a]")).state)
    assert 3 == pebbles(await engine.state("chat", 2))
