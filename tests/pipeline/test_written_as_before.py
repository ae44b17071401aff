"""Issue 2 speed-ups around the resolvers that must not show: a resolved tag's values are cleaned
as ``clean_value`` cleans them (SPEC §6), records are stored as pydantic writes them (SPEC §2), a
reply that changes nothing stores the state it started from, and the per-tag log events keep their
keys and order (SPEC §9)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
import structlog
from hypothesis import given
from hypothesis import strategies as st

from middleware import logs
from middleware.engine import Engine
from middleware.records import IgnoredRecord, Record, clean_value, model_json
from middleware.resolve.checks.record import CheckRecord
from middleware.resolve.dispatch import records_json
from middleware.resolve.inventory.record import InventoryRecord
from middleware.rewrite import render_tag
from middleware.stores.memory import MemoryStore

CHECK = '[skill_check: skill="Scrap" dc="8"]'
ODD = ['say "hi"', "a[b]c", "one\r\ntwo", "x\u2028y", "\u2029edge", " Scrap ", "\tTab\n", "", " ",
       "Sneak ✓ ö", '"', "[", "]"]


def written_the_plain_way(name: str, attrs: list[tuple[str, str]]) -> str:
    body = " ".join(f'{key}="{clean_value(value)}"' for key, value in attrs)
    return f"[{name}: {body}]" if body else f"[{name}]"


@given(st.lists(st.tuples(st.sampled_from(["skill", "who", "dc", "with"]),
                          st.one_of(st.sampled_from(ODD), st.text(max_size=12))), max_size=6))
def test_a_resolved_tag_cleans_each_value_as_clean_value_does(attrs: list[tuple[str, str]]) -> None:
    """SPEC §6: ``"``, ``[``, ``]`` and line breaks become a space and every value is trimmed,
    whichever values of a tag hold them."""
    assert written_the_plain_way("skill_check", attrs) == render_tag("skill_check", attrs)


def test_every_odd_value_is_cleaned_in_a_tag_of_safe_ones() -> None:
    """SPEC §6: one unsafe value among safe ones is cleaned; the safe ones are kept as they are."""
    for odd in ODD:
        attrs = [("skill", "Scrap"), ("who", odd), ("dc", "8")]
        assert written_the_plain_way("skill_check", attrs) == render_tag("skill_check", attrs)


def test_records_are_stored_as_pydantic_writes_them() -> None:
    """SPEC §2: each stored record is its class name, then ``model_dump_json(exclude_none=True)``
    of it, nested parts and non-ASCII text included."""
    part = InventoryRecord(status="resolved", action="add", item="Rope ✓", count=1, who="Ada")
    records = [CheckRecord(status="resolved", skill="Sneak ö", rolls=[6, 3], used=9, total=9, dc=10,
                           success=False, dice="2d6", chance=0.1667),
               InventoryRecord(status="resolved", action="add", parts=[part, part]),
               IgnoredRecord(tag="weather", reason="unsupported"),
               Record(tag="loot", status="refused", reason="too-many")]
    expected = [{"record": type(r).__name__, **json.loads(r.model_dump_json(exclude_none=True))}
                for r in records]
    assert expected == json.loads(records_json(records))
    assert [r.model_dump_json(exclude_none=True) for r in records] == [
        model_json(r, exclude_none=True) for r in records]


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    out = io.StringIO()
    logs.configure(logging.INFO, stream=out)
    yield out
    structlog.reset_defaults()


async def test_each_tag_logs_one_json_line_with_its_keys_in_order(
        engine: Engine, json_log: io.StringIO) -> None:
    """SPEC §9: one line per tag: chat, turn, candidate, tag, status, reason, ms, then the event
    name, level and time."""
    await engine.process("chat", 1, f"{CHECK} [place: size=\"town\"]")
    lines = [json.loads(line) for line in json_log.getvalue().splitlines()]
    assert [["chat", "turn", "candidate", "tag", "status", "reason", "ms", "event", "level",
             "timestamp"]] * 2 == [list(line) for line in lines]
    assert [("chat", 1, 0, "skill_check", "resolved", None),
            ("chat", 1, 0, "place", "refused", "no-name")] == [
        (e["chat"], e["turn"], e["candidate"], e["tag"], e["status"], e["reason"]) for e in lines]


async def test_nothing_is_logged_per_tag_at_warning_level(engine: Engine) -> None:
    """SPEC §9: the per-tag events are info; a face at warning level writes none of them."""
    out = io.StringIO()
    logs.configure(logging.WARNING, stream=out)
    try:
        await engine.process("chat", 1, f"{CHECK} {CHECK}")
    finally:
        structlog.reset_defaults()
    assert "" == out.getvalue()


def test_whether_a_level_is_logged_follows_structlog_as_it_stands() -> None:
    """``logs.enabled_for`` answers from the level ``configure`` set only while structlog still
    runs with it; configured otherwise (or reset), structlog's own logger answers."""
    logs.configure(logging.WARNING, stream=io.StringIO())
    try:
        assert (False, True) == (logs.enabled_for(logging.INFO), logs.enabled_for(logging.WARNING))
        structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG))
        assert logs.enabled_for(logging.INFO)
    finally:
        structlog.reset_defaults()
    assert logs.enabled_for(logging.DEBUG)  # structlog's default logs every level


async def test_a_reply_that_changes_nothing_stores_the_state_it_started_from(
        engine: Engine) -> None:
    """SPEC §2, §3: each candidate's stored state reads back as the state the engine returned,
    whether its tags changed the state or not."""
    store = engine.store
    assert isinstance(store, MemoryStore)
    first = await engine.process("chat", 1, CHECK)
    second = await engine.process("chat", 2, "Narration only.")
    third = await engine.process("chat", 2, CHECK)
    for done in (first, second, third):
        row = await store.get_candidate("chat", done.turn, done.candidate)
        assert done.state.model_dump(mode="json") == row.state
    assert second.state is first.state
