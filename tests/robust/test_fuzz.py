"""The fuzz suite (issue 16): hostile replies through the whole reply pipeline, bounded.

Lone surrogates, quote and colon mixes, numbers of thousands of digits, ``count="10000"``, junk
names and stray brackets, in every order, on five rulesets (a d10 pool, 2d6, a market, carry
rules, symbol dice). Each reply is held to ``fuzz_pieces.check_reply``; a few go through real
stores and must read back as written. The longer run is ``tests/fuzz_long.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from middleware.engine import Engine
from middleware.stores import MemoryStore, SQLiteStore, Store
from tests.robust.fuzz_pieces import (
    ACTIONS,
    COLON_QUOTES,
    HUGE,
    NAMES,
    PROSE,
    RULESETS,
    SURROGATES,
    check_reply,
    ruleset,
    start_state,
    tag_templates,
)

tag = st.builds(tag_templates, st.sampled_from((*HUGE, "2", "7")), st.sampled_from(NAMES),
                st.sampled_from(ACTIONS)).flatmap(st.sampled_from)
piece = st.one_of(tag, st.sampled_from(SURROGATES), st.sampled_from(COLON_QUOTES),
                  st.sampled_from(PROSE), st.text(max_size=8))
replies = st.lists(piece, max_size=24).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(RULESETS), reply=replies, seed=st.integers(0, 2**32))
def test_no_hostile_reply_breaks_the_pipeline(name: str, reply: str, seed: int) -> None:
    """Whatever the pieces: no exception, no ``error`` record, valid UTF-8 JSON out, at most
    200 new stacks."""
    check_reply(name, reply, seed)


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(RULESETS), reply=replies, count=st.sampled_from(["10000", HUGE[0]]))
def test_forty_huge_counts_stay_within_the_stack_limits(name: str, reply: str,
                                                        count: str) -> None:
    """Forty adds of ``count`` pieces of the first item of the ruleset, around a fuzzed reply."""
    item = next(iter(e.label for c in ruleset(name).catalogs if c.holds_items
                     for e in c.entries), "Rope")
    adds = f'[inventory: item="{item}" count="{count}" who="Ada"]' * 40
    check_reply(name, reply + adds, 1)


async def _round_trip(store: Store, name: str, reply: str) -> None:
    engine = Engine(store)
    await engine.create_game("fuzz", ruleset(name), start_state(name).party, seed=3)
    await engine.user("fuzz", 1, reply)  # the player's text is stored as well, never parsed
    done = await engine.process("fuzz", 1, reply, key=reply[:40])
    again = (await Engine(store).candidates("fuzz", 1))[0]
    assert (done.text, done.records, done.state) == (again.text, again.records, again.state)
    await store.close()


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(RULESETS), reply=replies)
def test_every_hostile_reply_is_stored_and_read_back_alike(name: str, reply: str) -> None:
    """On the memory store and on SQLite, the candidate reads back exactly as it was answered."""
    with tempfile.TemporaryDirectory() as tmp:
        async def both() -> None:
            await _round_trip(MemoryStore(), name, reply)
            await _round_trip(await SQLiteStore.open(Path(tmp) / "fuzz.db"), name, reply)
        asyncio.run(both())
