"""Reading a transcript line: every lone surrogate replaced, bounds kept, whatever the line's
form (escaped, raw, or plain text that only looks like an escape)."""

from __future__ import annotations

import json

import pytest

from middleware.errors import TranscriptError, UnreadableTranscript
from middleware.json_input import MAX_DEPTH, JsonInputError, read_json
from middleware.transcript.lines import GameLine, GmLine, UserLine, read_line


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
