"""The garbage collector's settings (``middleware.collector``). Reading and replaying a
transcript leave it as they found it: it is on again once the lines are read (read well or not),
the objects a replay froze for its run are given back when it ends, whether it ends well or stops
on a bad line, and a process that froze objects of its own keeps them frozen. A server settles it
for good."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator

import pytest

from middleware.collector import SERVING_THRESHOLDS, settle_for_serving
from middleware.engine import Engine
from middleware.errors import TranscriptError
from middleware.stores.memory import MemoryStore
from middleware.transcript import prepare, replay

GAME = json.dumps({"type": "game", "id": "g", "ruleset": "lantern-and-ledger",
                   "party": [{"name": "Ada", "player": True}]})
TURN = [json.dumps({"type": "user", "text": "I look."}),
        json.dumps({"type": "gm", "text": 'You see. [skill_check: skill="Reckon" dc="8"]'})]


@pytest.fixture(autouse=True)
def _nothing_frozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


async def _played(lines: list[str]) -> int:
    count = 0
    async for _ in replay(prepare(lines), Engine(MemoryStore())):
        count += 1
    return count


async def test_nothing_stays_frozen_after_a_replay() -> None:
    assert 2 == await _played([GAME, *TURN])
    assert 0 == gc.get_freeze_count()


async def test_nothing_stays_frozen_after_a_replay_that_stops() -> None:
    bad = json.dumps({"type": "select", "candidate": 5})
    with pytest.raises(TranscriptError):
        await _played([GAME, *TURN, bad])
    assert 0 == gc.get_freeze_count()


async def test_what_the_process_froze_stays_frozen() -> None:
    mine = [object()]  # a list: an object the collector tracks
    gc.freeze()
    assert 2 == await _played([GAME, *TURN])
    assert not any(held is mine for held in gc.get_objects())  # still frozen: out of its sight


def test_reading_a_transcript_leaves_the_collector_on() -> None:
    prepare([GAME, *TURN])
    assert gc.isenabled()


def test_reading_a_transcript_leaves_the_collector_off_when_it_was() -> None:
    gc.disable()
    try:
        prepare([GAME, *TURN])
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_reading_a_bad_transcript_leaves_the_collector_on() -> None:
    with pytest.raises(TranscriptError):
        prepare([GAME, *TURN, json.dumps({"type": "gm", "text": "x", "extra": 1})])
    assert gc.isenabled()


def test_the_lines_read_are_not_walked_again_once_the_collector_is_back() -> None:
    """They are in the oldest generation: the next young collection does not walk them."""
    prepared = prepare([GAME, *TURN * 300])
    line = prepared.lines[1][1]
    assert any(held is line for held in gc.get_objects(generation=2))
    assert 0 == gc.get_freeze_count()


def test_what_the_process_froze_stays_frozen_while_lines_are_read() -> None:
    mine = [object()]
    gc.freeze()
    prepare([GAME, *TURN])
    assert gc.isenabled()
    assert not any(held is mine for held in gc.get_objects())


def test_a_server_settles_the_collector_once_its_app_is_built() -> None:
    """``serve`` freezes what exists once its app is built and collects at the serving
    thresholds (``middleware.collector``); what was made before is out of the collector's sight."""
    before = gc.get_threshold()
    built = [object()]  # a list: an object the collector tracks
    try:
        settle_for_serving()
        assert SERVING_THRESHOLDS == gc.get_threshold()
        assert gc.get_freeze_count() > 0
        assert not any(held is built for held in gc.get_objects())
    finally:
        gc.set_threshold(*before)
