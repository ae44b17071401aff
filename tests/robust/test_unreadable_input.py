"""Numbers past Python's limits and JSON that cannot be read (issue 16 #6, SPEC §8).

In a tag, a number of thousands of digits is cut to one every reader converts, then clamped like
any large number. In a ruleset, a transcript or a proxy request, JSON nested 5,000 deep, ``NaN``,
a 5,000-digit integer or bytes that are not UTF-8 are refused with a message: the CLI exits 3
("could not read"), apart from 1 (a failed expectation or a refused ruleset) and 2 (a malformed
transcript line); the proxy answers an OpenAI-shaped 400.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from middleware.cli.app import app
from middleware.cli.replay import UNREADABLE
from middleware.json_input import (
    MAX_DEPTH,
    JsonInputError,
    read_json,
    read_object_fast,
    read_objects_fast,
)
from middleware.rules.load import validate_ruleset
from middleware.text import clean_json
from tests.conftest import ROOT
from tests.items.inventory_helpers import bram, juno, reply, state_of
from tests.proxy.conftest import FakeModel, hearth, running_proxy
from tests.rulesets import gravewatch

runner = CliRunner()
DEMO = ROOT / "transcripts" / "lantern-demo.jsonl"
DEEP = "[" * 5000 + "]" * 5000
HUGE = "9" * 5000
UNREADABLE_JSON = {"deep": DEEP, "nan": '{"id": NaN}', "huge": '{"id": ' + HUGE + "}",
                   "infinity": '{"id": 1e999}'}


def test_a_dc_of_five_thousand_digits_is_clamped_not_an_error() -> None:
    """CHK-COMMON: ``dc=`` of 5,000 nines is read as a number past the range and clamped; the
    check resolves (it was an ``error`` record: Python refuses ``int`` of 4,301+ digits)."""
    state = state_of(gravewatch(), bram(), juno())
    done = reply(gravewatch(), state, f'[skill_check: skill="Ward" dc="{HUGE}" who="Juno"]')
    record = done.records[0]
    assert "resolved" == record.status
    assert "clamped" in (record.feedback or "")


@pytest.mark.parametrize("kind", sorted(UNREADABLE_JSON))
def test_validate_could_not_read_exits_3(tmp_path: Path, kind: str) -> None:
    """``gm-middleware validate`` on JSON past the bounds: a one-line message, exit 3."""
    bad = tmp_path / "bad.json"
    bad.write_text(UNREADABLE_JSON[kind])
    result = runner.invoke(app, ["validate", str(bad)])
    assert UNREADABLE == result.exit_code, result.output
    assert "could not read" in result.stderr
    assert ["$"] == [p.path for p in validate_ruleset(bad)]


def test_validate_of_bytes_that_are_not_utf8_exits_3(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"id": "\xff"}')
    result = runner.invoke(app, ["validate", str(bad)])
    assert (UNREADABLE, True) == (result.exit_code, "not UTF-8" in result.stderr)


@pytest.mark.parametrize("line", [DEEP, '{"type": "user", "text": NaN}',
                                  '{"type": "user", "text": ' + HUGE + "}"])
def test_replay_of_a_line_that_cannot_be_read_exits_3(tmp_path: Path, line: str) -> None:
    """``gm-middleware replay`` stops at the line with its number, exit 3, nothing on stdout."""
    lines = DEMO.read_text().splitlines()
    lines.insert(2, line)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines))
    result = runner.invoke(app, ["replay", str(bad), "--json"])
    assert (UNREADABLE, "") == (result.exit_code, result.stdout), result.output
    assert "line 3" in result.stderr and "could not read" in result.stderr


def test_replay_of_invalid_utf8_names_the_line_and_exits_3(tmp_path: Path) -> None:
    lines = DEMO.read_bytes().splitlines()
    lines.insert(1, b'{"type": "user", "text": "\xc3\x28"}')
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(lines))
    result = runner.invoke(app, ["replay", str(bad)])
    assert UNREADABLE == result.exit_code, result.output
    assert "line 2" in result.stderr and "not UTF-8" in result.stderr


async def test_the_proxy_answers_400_to_bodies_it_cannot_read() -> None:
    """JSON nested 5,000 deep, ``NaN``, a 5,000-digit integer, invalid UTF-8: each is an
    OpenAI-shaped 400 (they were 500s), and the model is never asked."""
    model = FakeModel()
    messages = '[{"role": "user", "content": "hi"}]'
    bodies = [('{"messages": ' + messages + ', "x": ' + DEEP + "}").encode(),
              ('{"messages": ' + messages + ', "temperature": NaN}').encode(),
              ('{"messages": ' + messages + ', "max_tokens": ' + HUGE + "}").encode(),
              b'{"messages": [{"role": "user", "content": "\xff"}]}']
    async with running_proxy(hearth(), model) as proxy:
        for body in bodies:
            response = await proxy.client.post("/v1/chat/completions", content=body,
                                               headers={"Content-Type": "application/json"})
            assert (400, "invalid_request_error") == (
                response.status_code, response.json()["error"]["type"]), body[:60]
    assert [] == model.seen


@pytest.mark.parametrize("opener", ["[", '{"a": '])
def test_nesting_is_refused_past_128_wherever_the_brackets_stand(opener: str) -> None:
    """128 arrays or objects deep is read, 129 refused, 100,000 refused alike; brackets inside
    strings (a chat history full of tags) are text and never count, however many."""
    def nested(depth: int) -> str:
        closer = "]" if opener == "[" else "}"
        return opener * depth + "1" + closer * depth
    assert read_json(nested(128)) is not None
    for depth in (129, 100_000):
        with pytest.raises(JsonInputError, match="nests deeper than 128"):
            read_json(nested(depth))
    history = [{"role": "assistant", "content": "[skill_check: dc=8] [[" * 300}]
    assert history == read_json(json.dumps(history))


def test_json_in_a_transcript_is_read_as_before() -> None:
    """The bounds change nothing for a real transcript: the demo replays, exit 0."""
    result = runner.invoke(app, ["replay", str(DEMO), "--json"])
    assert 0 == result.exit_code, result.output
    assert all(json.loads(line) for line in result.stdout.splitlines())




_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(_JSON_VALUES, st.booleans(), st.booleans())
def test_read_json_reads_any_json_as_json_loads_does(value: object, ascii_only: bool,
                                                     as_bytes: bool) -> None:
    """Every request body and transcript line goes through ``read_json``: any JSON text, written
    either way, given as text or UTF-8 bytes, reads back as ``json.loads`` reads it, integers past
    64 bits and lone surrogates included."""
    text = json.dumps(value, ensure_ascii=ascii_only)
    raw = text.encode("utf-8", "surrogatepass") if as_bytes else text
    if as_bytes and not text.isascii() and _has_lone_surrogate(text):
        return  # not UTF-8: refused, as ``test_validate_of_bytes_that_are_not_utf8_exits_3`` says
    expected = json.loads(text)
    read = read_json(raw)
    assert json.dumps(expected, sort_keys=True) == json.dumps(read, sort_keys=True)
    assert _types(expected) == _types(read)


@settings(max_examples=400, deadline=None)
@given(_JSON_VALUES | st.dictionaries(st.text(), _JSON_VALUES, max_size=4), st.booleans(),
       st.booleans())
def test_the_fast_read_is_the_exact_read_or_steps_aside(value: object, ascii_only: bool,
                                                        bracketed: bool) -> None:
    """Request bodies and streamed chunks are read by orjson where it reads them exactly
    (``read_object_fast``): any JSON object, written either way, with integers past 64 bits,
    floats, surrogate pairs and lone surrogates, reads as ``clean_json(read_json(...))`` reads
    it, value and types, or is left to that exact read (None); an object with no long number and
    no lone surrogate is read fast. Any other value is left to the exact read. ``bracketed``: the
    object also carries a text of 200 brackets, as a long chat's history of tags does, so the
    value read is walked rather than the text searched, and only a number past 64 bits (or a
    float as large) steps aside, not any 19 digits in a row."""
    if bracketed and isinstance(value, dict):
        value = {**value, "history": "[" * 200}
    text = json.dumps(value, ensure_ascii=ascii_only)
    if not ascii_only and _has_lone_surrogate(text):
        text = json.dumps(value)  # written raw, a lone surrogate is not UTF-8: escaped instead
    raw = text.encode()
    exact = clean_json(read_json(raw))
    fast = read_object_fast(raw)
    if not isinstance(exact, dict):
        assert fast is None  # a request body or a chunk is an object: anything else is refused
        return
    if fast is None:
        walked = raw.count(b"[") + raw.count(b"{") > MAX_DEPTH  # the value walked, not the text
        long_number = _past_64_bits(exact) if walked else \
            b"0" * 19 in raw.translate(bytes.maketrans(b"123456789", b"0" * 9))
        assert long_number or _has_lone_surrogate(json.dumps(json.loads(text),
                                                             ensure_ascii=False))
        return
    assert json.dumps(exact, sort_keys=True) == json.dumps(fast, sort_keys=True)
    assert _types(exact) == _types(fast)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.text(), _JSON_VALUES, max_size=4)
                | st.sampled_from([{"history": "[" * 200}, {"a": 2**70}, {"a": 12345678901},
                                   {"history": "{" * 60}]),
                max_size=12))
def test_a_reads_events_are_read_as_each_alone_would_be(values: list[object]) -> None:
    """A network read's events are read together (``read_objects_fast``: their text's bounds
    looked at once): each is read as ``read_object_fast`` reads it alone, a long number or a
    text of many brackets in one event sending the read's events each its own way, and events
    with more brackets together than one may hold (60 each) counted one by one."""
    raws = [json.dumps(value).encode() for value in values]
    together = read_objects_fast(raws)
    assert [read_object_fast(raw) for raw in raws] == together
    assert [type(v) for v in together] == [type(read_object_fast(raw)) for raw in raws]


def test_a_read_of_many_chunks_is_read_as_each_alone_would_be() -> None:
    """Forty streamed chunks in one read (four opening brackets each: more than one event may
    hold, together), one with an integer past 64 bits: each read as alone."""
    chunk = {"id": "c", "object": "chat.completion.chunk", "choices": [
        {"index": 0, "delta": {"content": "ab"}, "finish_reason": None}]}
    raws = [json.dumps(chunk).encode() for _ in range(40)]
    assert [chunk] * 40 == read_objects_fast(raws)
    raws[7] = json.dumps({**chunk, "usage": {"total_tokens": 2**70}}).encode()
    assert [read_object_fast(raw) for raw in raws] == read_objects_fast(raws)
    assert read_objects_fast(raws)[7] is None


@pytest.mark.parametrize("raw", [
    b'{"a": NaN}', b'{"a": [1e400]}', b'{"a": ' + b"[" * 200 + b"]" * 200 + b"}",
    b'{"a": ' + b"1" * 500 + b"}", b"\xef\xbb\xbf{}", b'{"a": "\xff"}', b'{"a": "\\ud800"}',
    b'{"a": 1180591620717411303424}', b'{"a": 1,}', b"[{}]", b'"text"',
    b'{"a": [-1180591620717411303424], "history": "' + b"[" * 200 + b'"}',
    b'{"a": {"b": 1e19}, "history": "' + b"[" * 200 + b'"}'])
def test_what_the_exact_read_refuses_or_reads_otherwise_is_left_to_it(raw: bytes) -> None:
    """Past a bound, not UTF-8, a lone surrogate, an integer past 64 bits, not JSON, not an
    object: the fast read steps aside, so the exact read refuses it with its reason, or reads it
    exactly."""
    assert read_object_fast(raw) is None


def _past_64_bits(value: object) -> bool:
    """Whether ``value`` holds an integer orjson reads as a float, or a float as large."""
    if isinstance(value, dict):
        return any(_past_64_bits(v) for v in value.values())
    if isinstance(value, list):
        return any(_past_64_bits(v) for v in value)
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not -2**63 <= value < 2**64
    return isinstance(value, float) and abs(value) >= 2**63


def _has_lone_surrogate(text: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def _types(value: object) -> object:
    """The value with each leaf replaced by its type's name (an int read as a float differs)."""
    if isinstance(value, list):
        return [_types(v) for v in value]
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    return type(value).__name__


@pytest.mark.parametrize(("raw", "problem"), [
    ("NaN", "not a number JSON allows"), ("[1e400]", "too large"),
    ("[" * 200 + "]" * 200, "nests deeper"), ("1" * 500, "digits"), ("\ufeff{}", "BOM"),
    (b"{\"a\": \"\xff\"}", "not UTF-8")])
def test_read_json_refuses_what_is_past_its_bounds(raw: str | bytes, problem: str) -> None:
    """Each bound is a clear refusal that says what is wrong."""
    with pytest.raises(JsonInputError, match=problem):
        read_json(raw)


def test_read_json_keeps_integers_past_64_bits_and_lone_surrogates_exact() -> None:
    assert [2**70, -(2**64) - 1] == read_json("[1180591620717411303424, -18446744073709551617]")
    assert ["\ud800"] == read_json('["\\ud800"]')
