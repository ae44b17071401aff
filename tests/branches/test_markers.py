"""Branch markers as the parse front reads them (``scan.py``, ``parse.py``, the label a tag body
to ``grammar/tags.lark``): tolerant of case and spacing, never inside a tag, the same whole and
streamed in any cut, and only when asked for."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from middleware.parse import TagStream, merge_text, parse, parse_pieces, source_of
from middleware.segments import Marker, Tag, Text


def _markers(text: str) -> list[str | None]:
    return [p.label for p in parse_pieces(text, branches=True) if isinstance(p, Marker)]


@pytest.mark.parametrize(("written", "label"), [
    ("[on success]", "success"), ("[ON SUCCESS]", "SUCCESS"), ("[ on   success ]", "success"),
    ("[on: failure]", "failure"), ("[on_failure]", "failure"), ("[on-failure]", "failure"),
    ('[on "Success at a cost"]', "Success at a cost"), ("[on Success  at a cost]",
                                                         "Success at a cost"),
    ("[on ‘Done, at a cost’]", "Done, at a cost"), ('[on outcome="Miss"]', "Miss"),
    ("[/branch]", None), ("[ / Branch ]", None), ("[/BRANCH]", None),
])
def test_markers_read_tolerantly(written: str, label: str | None) -> None:
    """Case, spacing, a colon, underscore or dash after ``on``, quoted labels (any of the tag
    quotes), bare words joined by one space, a ``key=value``; ``[/branch]`` in any case."""
    assert [label] == _markers(f"Before {written} after")


@pytest.mark.parametrize("text", ["[one ring]", "[on]", "[online]", "[/branches]", "[on\nsuccess]",
                                  "[on " + "x" * 130 + "]"])
def test_what_is_not_a_marker(text: str) -> None:
    """``on`` must stand alone; a label is one line of at most 120 characters."""
    assert [] == _markers(text)


def test_a_marker_inside_a_tag_value_is_part_of_the_tag() -> None:
    """``[on success]`` inside a quoted value of a tag is that value, not a marker."""
    pieces = parse_pieces('[inventory: action="add" item="Note: [on success] go"] x', branches=True)
    assert [Tag, Text] == [type(p) for p in pieces]


def test_without_branches_markers_are_prose() -> None:
    """``parse`` (and ``parse_pieces`` with branches off) read markers as text, as before."""
    text = '[skill_check: skill="Climb"] [on success] Up. [/branch]'
    assert parse(text) == parse_pieces(text, branches=False)
    assert [Tag, Text] == [type(p) for p in parse(text)]


_WORDS = st.sampled_from(["[on success]", "[ON Miss]", "[/branch]", "[/ bra", "[o", "[on",
                          '[skill_check: skill="Climb"]', "[on \"x]\"]", " ", "a", "\n", "[",
                          "]", '"', "[on_failure]", "[sheet: op=rest]"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORDS, max_size=20), st.integers(1, 9))
def test_streamed_in_any_cut_the_pieces_are_the_whole_parse(words: list[str], size: int) -> None:
    """Fed in chunks of any size, ``TagStream(branches=True)`` hands out the very pieces the whole
    parse gives (a marker being written is held until it closes or cannot be one), and the pieces
    cover the text byte for byte."""
    text = "".join(words)
    stream = TagStream(branches=True)
    got = [p for i in range(0, len(text), size) for p in stream.feed(text[i:i + size])]
    got += stream.close()
    whole = parse_pieces(text, branches=True)
    assert whole == merge_text(got)
    assert text == source_of(whole)
