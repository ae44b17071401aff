"""``replayed`` is true exactly when the answer is a stored one (issue 16 #8, SPEC §3).

Fifty calls with one retry key race on one turn, with fair dice (every candidate of the turn
throws the same, so the losers' answers looked exactly like the winner's: on PostgreSQL 77 of 200
said ``replayed=false`` and logged their tag events). Now one call stores the candidate and says
``replayed=false``; every other says ``replayed=true``, logs nothing, and one candidate is kept.
"""

from __future__ import annotations

import asyncio

from structlog.testing import capture_logs

from middleware.engine import Engine
from middleware.rules.registry import load_bundled
from middleware.stores import Store
from tests.pipeline.conftest import ADA, JUNO

CALLS = 50
REPLY = 'She climbs. [skill_check: skill="Climb" dc="8"]'


async def test_one_key_raced_by_fifty_calls_is_stored_once(store: Store) -> None:
    """On every store: exactly one fresh answer, 49 stored ones, one candidate, one tag event."""
    await Engine(store).create_game("chat", load_bundled("lantern-and-ledger"),
                                    [ADA, JUNO], seed=7, dice="turn")
    await store.start_turn("chat", 1, "I heave at the door.")
    workers = [Engine(store) for _ in range(5)]  # five workers sharing the store
    with capture_logs() as events:
        done = await asyncio.gather(*(workers[i % 5].process("chat", 1, REPLY, key="retry-1")
                                      for i in range(CALLS)))
    assert [False] + [True] * (CALLS - 1) == sorted(d.replayed for d in done)
    assert {0} == {d.candidate for d in done}
    assert 1 == len(await workers[0].candidates("chat", 1))
    assert 1 == sum(1 for e in events if e.get("event") == "tag")
