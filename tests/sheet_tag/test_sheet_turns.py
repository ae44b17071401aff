"""``[sheet:]`` on the turn-scoped state (SPEC §3, ITM-USE-13, SHEET-REST-08): a regenerated
reply, a retry with a seen key, a swipe back and a fork never apply damage, healing or a
recharge twice. Through the real engine on the in-memory and SQLite stores."""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from middleware.engine import Engine
from middleware.sheet.party import read_party
from middleware.state import GameState
from middleware.stores import open_store
from tests.sheet.sheet_helpers import BRAM
from tests.sheet_tag.helpers import peer

HIT = '[sheet: op="damage" track="harm" kind="knock" amount="1"]'
VIGIL = '[sheet: op="rest" rest="vigil"]'


@pytest.fixture(params=["memory", "sqlite"])
async def engine(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Engine]:
    url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path / 'games.db'}"
    store = await open_store(url)
    engine = Engine(store)
    rules = peer("gravewatch")
    await engine.create_game("watch", rules, read_party(rules, [copy.deepcopy(BRAM)]), seed=3)
    yield engine
    await store.close()


def harm(state: GameState) -> tuple[str, ...]:
    wounds = state.party[0].live.wounds.get("harm")
    return wounds.marks if wounds else ()


def bell(state: GameState) -> int:
    """The Dawn bell's charges: a full bell stores none (3 of 3, ITM-BAG-18)."""
    charges = state.party[0].bag[0].charges
    return 3 if charges is None else charges


async def test_regenerated_damage_is_not_applied_twice(engine: Engine) -> None:
    """SPEC §3: three candidates of turn 1 each take one knock from S(0) (tear, knock): each ends
    on three marks, never four or five."""
    for _ in range(3):
        done = await engine.process("watch", 1, f"A rat bites. {HIT}")
        assert ("tear", "knock", "knock") == harm(done.state)
    assert ("tear", "knock", "knock") == harm(await engine.state("watch", 1))


async def test_regenerated_rest_recharges_once(engine: Engine) -> None:
    """ITM-USE-13 / SHEET-REST-08: the Dawn bell (2 of 3 charges) is full after the vigil; a
    regenerated reply rests again from S(0) and the bell is still 3, not more, and Resolve 6."""
    first = await engine.process("watch", 1, VIGIL)
    second = await engine.process("watch", 1, f"They stand down. {VIGIL}")
    assert (3, 3) == (bell(first.state), bell(second.state))
    assert {} == second.state.party[0].live.pools


async def test_retry_with_a_key_heals_once(engine: Engine) -> None:
    """SPEC §3: a retry with a seen key returns the stored candidate: one heal, no new row."""
    text = '[sheet: op="heal" track="harm" amount="1"]'
    first = await engine.process("watch", 1, text, key="msg-1")
    again = await engine.process("watch", 1, text, key="msg-1")
    assert (("tear",), ("tear",)) == (harm(first.state), harm(again.state))
    assert again.replayed and 1 == len(await engine.candidates("watch", 1))
    assert first.records == again.records  # read back from the store as the records they were


async def test_swipe_back_keeps_the_selected_damage_only(engine: Engine) -> None:
    """SPEC §3 select: candidate 0 took one knock, candidate 1 two; swiping back to 0 makes turn 2
    start from three marks, and turn 2's knock makes four."""
    await engine.process("watch", 1, HIT)
    await engine.process("watch", 1, HIT + HIT)
    assert 4 == len(harm(await engine.state("watch", 1)))
    await engine.select("watch", 1, 0)
    turn_two = await engine.process("watch", 2, HIT)
    assert ("tear", "knock", "knock", "knock") == harm(turn_two.state)


async def test_fork_shares_nothing_after_its_turn(engine: Engine) -> None:
    """SPEC §3 fork: a branch from S(1) rests while the main line is hurt again; neither sees the
    other's turn 2."""
    await engine.process("watch", 1, HIT)
    await engine.fork("watch", 1, "branch")
    main = await engine.process("watch", 2, HIT)
    branch = await engine.process("branch", 2, VIGIL)
    assert (4, ()) == (len(harm(main.state)), harm(branch.state))
    assert 4 == len(harm(await engine.state("watch", 2)))
    assert 2 == bell(main.state) and 3 == bell(branch.state)
