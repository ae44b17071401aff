"""Issue 2 speed-ups that must not show: what the engine stores reads back as the values it
returned (SPEC §2 round trip), and a resolved tag's values are cleaned as before (SPEC §6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from middleware.engine import Engine
from middleware.records import clean_value, clean_values
from middleware.resolve.dispatch import record_from_json
from middleware.rules.registry import load_bundled
from middleware.state import Character, Sheet
from middleware.stores import MemoryStore, SQLiteStore, Store
from middleware.stores.codec import Encoded, RulesetTexts, encode_json

REPLY = ('Rain. [skill_check: skill="Climb" dc="8"] Then [skill_check: skill="Sneak ✓ ö" '
         'difficulty="Hard" who="Ada"] and [skill_check: skill="Haggle" dc=10 with="Eye"].')


async def a_store(kind: str, tmp_path: Path) -> Store:
    return MemoryStore() if kind == "memory" else await SQLiteStore.open(tmp_path / "g.db")


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_a_stored_candidate_reads_back_as_the_engine_returned_it(
        kind: str, tmp_path: Path) -> None:
    """SPEC §2: the records and state read from the store equal the processed values; a record is
    kept as its class and the fields that apply, nothing that is None."""
    store = await a_store(kind, tmp_path)
    engine = Engine(store)
    ada = Character(name="Ada", player=True, sheet=Sheet.model_validate(
        {"v": 1, "build": {"abilities": {"hand": 2}, "skills": {"climb": "apprentice"}}}))
    await engine.create_game("c", load_bundled("lantern-and-ledger"), [ada], seed=4)
    done = await engine.process("c", 1, REPLY, seed=11)
    row = await store.get_candidate("c", 1, done.candidate)
    await store.close()
    assert list(done.records) == [record_from_json(r) for r in row.records]
    assert [{"record": "CheckRecord", **r.model_dump(mode="json", exclude_none=True)}
            for r in done.records] == row.records
    assert done.state.model_dump(mode="json") == row.state
    assert 3 == len(row.records)


def test_pre_encoded_json_is_stored_as_written() -> None:
    """The engine's pre-written JSON text goes to the store unchanged."""
    assert '[{"a":1}]' == encode_json(Encoded('[{"a":1}]'), "the records")


def test_clean_values_cleans_each_value_as_clean_value_does() -> None:
    """SPEC §6: ``"``, ``[``, ``]`` and line breaks become one space; values are trimmed."""
    plain = [" Scrap ", 8, "5|3", "0.5833"]
    dirty = [*plain, 'say "hi"', "a[b]c", "one\r\ntwo", "x\u2028y"]
    assert [clean_value(v) for v in plain] == clean_values(plain)
    assert [clean_value(v) for v in dirty] == clean_values(dirty)
    assert ["Scrap", "8", "5|3", "0.5833", "say  hi", "a b c", "one two", "x y"] == \
        clean_values(dirty)


def test_a_ruleset_source_is_encoded_once_per_object_and_as_encode_json_writes_it() -> None:
    """The stores write every new game's ruleset: one source object's text is worked out once
    (the same text object comes back), equal to ``encode_json``'s; an equal source that is
    another object, or a source with another value, gets its own text."""
    texts = RulesetTexts()
    source = load_bundled("hearth-and-haul").source
    first = texts.encoded(source)
    assert encode_json(source, "the ruleset") == first
    assert first is texts.encoded(source)
    other = {**source, "name": "Hearth and Haul, again"}
    assert encode_json(other, "the ruleset") == texts.encoded(other)
    copy = dict(source)
    assert first == texts.encoded(copy) and first is not texts.encoded(copy)
