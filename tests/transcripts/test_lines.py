"""Reading a transcript line: every lone surrogate replaced, bounds kept, whatever the line's
form (escaped, raw, or plain text that only looks like an escape)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from middleware.errors import TranscriptError, UnreadableTranscript
from middleware.json_input import MAX_DEPTH, JsonInputError, read_json
from middleware.transcript.lines import (
    GameLine,
    GmLine,
    UserLine,
    _read_checked,
    _read_directly,
    _read_directly_safe,
    read_line,
)


def test_an_escaped_lone_surrogate_is_replaced_in_text_and_keys() -> None:
    line = read_line('{"type": "gm", "text": "She climbs \\ud800.", '
                     '"expect": {"state": {"Ad\\udc00a": 1}}}', 3)
    assert isinstance(line, GmLine) and line.expect is not None
    assert "She climbs \ufffd." == line.text
    assert {"Ad\ufffda": 1} == line.expect.state


def test_a_raw_lone_surrogate_is_replaced() -> None:
    line = read_line('{"type": "user", "text": "I climb \ud800 up."}', 2)
    assert UserLine(type="user", text="I climb \ufffd up.") == line


def test_a_backslash_u_that_is_only_text_stays_as_written() -> None:
    line = read_line(json.dumps({"type": "user", "text": "C:\\ud800\\new"}), 2)
    assert UserLine(type="user", text="C:\\ud800\\new") == line


def test_a_plain_line_reads_as_json_loads_reads_it() -> None:
    raw = json.dumps({"type": "game", "id": "g", "ruleset": "lantern-and-ledger", "seed": 7,
                      "party": [{"name": "Ada", "player": True, "notes": [1.5, None]}]})
    assert GameLine.model_validate(json.loads(raw)) == read_line(raw, 1)


def test_a_line_starting_with_a_byte_order_mark_is_not_json() -> None:
    with pytest.raises(UnreadableTranscript, match=r"line 1.*BOM"):
        read_line('\ufeff{"type": "user", "text": "hi"}', 1)


def test_nesting_is_bounded_with_or_without_brackets_in_strings() -> None:
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert isinstance(read_json(deep), list)
    inner = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)  # in an object: MAX_DEPTH deep
    assert isinstance(read_json(json.dumps({"t": "[" * 500, "v": json.loads(inner)})), dict)
    with pytest.raises(JsonInputError, match=f"nests deeper than {MAX_DEPTH}"):
        read_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(TranscriptError, match="nests deeper"):
        read_line('{"type": "user", "text": "hi", "x": ' + "[" * 200 + "]" * 200 + "}", 4)


TRANSCRIPTS = Path(__file__).parents[2] / "transcripts"
BUNDLED = [line for path in sorted(TRANSCRIPTS.glob("*.jsonl"))
           for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

EDGE_LINES = [
    '{"type": "gm", "text": "a", "seed": ' + "9" * 199 + "}",
    '{"type": "gm", "text": "a", "seed": ' + "9" * 200 + "}",
    '{"type": "gm", "text": "a", "seed": ' + "9" * 401 + "}",
    '{"type": "edit", "who": "Ada", "live": {"x": ' + "9" * 199 + "." + "9" * 199 + "}}",
    '{"type": "edit", "who": "Ada", "live": {"x": ' + "9" * 250 + "." + "9" * 250 + "}}",
    '{"type": "edit", "who": "Ada", "live": {"x": 1e308, "y": 2.5E-3}}',
    '{"type": "edit", "who": "Ada", "live": {"x": 1e309}}',
    '{"type": "edit", "who": "Ada", "live": {"x": NaN}}',
    '{"type": "edit", "who": "Ada", "live": {"x": -Infinity}}',
    '{"type": "user", "text": "NaN and Infinity, said as words", "text": 1e999}',
    '{"type": "user", "text": "caf\\u00e9 \\ud83d\\ude00 \\uD800\\uDC00"}',
    '{"type": "user", "text": "half a pair \\ud800 and \\udc00"}',
    '{"type": "user", "text": "raw half \ud800 here"}',
    '{"type": "user", "text": "a", "text": "b"}',
    '{"type": "edit", "who": "Ada", "live": {"a": 1, "b": [2, 3.25, -0.0], "a": 3}}',
    '{"type": "game", "id": "g", "ruleset": "lantern-and-ledger", "seed": -7, '
    '"party": [{"name": "Ada", "player": true, "notes": [1.5, null, "x"]}]}',
    '{"type": "select", "candidate": "1"}',
    '{"type": "gm", "text": "a", "seed": true}',
    '{"type": "gm", "text": "a", "dice": [1.0, 6]}',
    '{"type": "gm", "text": "a", "dice": [1.5]}',
    '{"type": "gm", "text": "a", "dice": [1000001]}',
    '{"type": "user", "text": "tab\there"}',
    '{"type": "user", "text": "hi"}\n',
    '\ufeff{"type": "user", "text": "hi"}',
    '{"type": "user", "text": "hi",}',
    '{"type": "user", "text": "hi"} x',
    '{"type": "user"}',
    '{"type": "user", "text": "hi", "mood": "calm"}',
    '{"type": "user", "text": "hi", "x": ' + "[" * 100 + "]" * 100 + "}",
    '{"type": "user", "text": "hi", "x": ' + "[" * 200 + "]" * 200 + "}",
]


def _long_way(raw: str) -> object:
    try:
        return _read_checked(raw, 1)
    except TranscriptError as exc:
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize("raw", [*BUNDLED, *EDGE_LINES])
def test_a_line_read_in_one_pass_is_what_the_long_way_reads(raw: str) -> None:
    """Pydantic's one-pass reading of a line is used only where it gives the very line the
    bounded decoder and ``clean_json`` give (the same values, floats, key order and last of two
    keys); wherever the long way refuses the line, its error is the one raised."""
    expected = _long_way(raw)
    direct = _read_directly(raw)
    if direct is not None:
        assert (expected, repr(expected)) == (direct, repr(direct))
    try:
        got: object = read_line(raw, 1)
    except TranscriptError as exc:
        got = (type(exc).__name__, str(exc))
    assert expected == got


def test_plain_lines_are_read_in_one_pass() -> None:
    """A bundled line takes the one pass unless its text, strings too, has a digit just before
    an "e" (it may be an exponent), ``NaN`` or ``Infinity``: nearly all of them do."""
    unsure = re.compile(r"[0-9][eE]|NaN|Infinity")
    plain = [raw for raw in BUNDLED if unsure.search(raw) is None]
    assert len(plain) > 0.9 * len(BUNDLED)
    assert all(_read_directly(raw) is not None for raw in plain)


@given(st.text(alphabet="0123456789eE.-+[]{}NaInfty \"", max_size=420))
def test_a_line_is_judged_safe_by_the_rule_its_docstring_gives(raw: str) -> None:
    """No ``NaN``, no ``Infinity``, at most ``MAX_DEPTH`` brackets, no digit before an "e", no
    run of 200 digits: however few searches the check makes for it."""
    rule = ("NaN" not in raw and "Infinity" not in raw
            and raw.count("[") + raw.count("{") <= MAX_DEPTH
            and re.search(r"[0-9][eE]", raw) is None and re.search(r"[0-9]{200}", raw) is None)
    assert _read_directly_safe(raw) == rule


def test_long_runs_of_digits_and_deep_brackets_are_unsafe() -> None:
    assert not _read_directly_safe("1" * 200)
    assert _read_directly_safe("1" * 199 + " " + "1" * 199)
    assert not _read_directly_safe("[" * (MAX_DEPTH + 1))
    assert _read_directly_safe("[" * MAX_DEPTH + " " * 300)
