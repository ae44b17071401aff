"""A streamed tag that closes is read by itself, as the scanner would find it (SPEC §1b, §7 proxy).

When a "]" comes to an open tag, ``TagStream`` takes the body up to that "]" as the tag's whole
body if it is plain (``parse._plain_parts``), without asking the scanner: in a plain body every
quote opens a value and closes inside it, so the scanner ends it at its first "]" too. Here that
is held true on the plain-body strategies and their near misses.
"""

from __future__ import annotations

from importlib import import_module

from hypothesis import given
from hypothesis import strategies as st

from middleware.parse import TagStream, merge_text, parse
from middleware.scan import find_tags
from tests.parse.test_plain_bodies import FAMILIES, near_miss, plain_body

front = import_module("middleware.parse")  # the module: the package exports its ``parse``

after = st.sampled_from(["", " The rain.", '"', "'", " ]", "x"])


@given(st.sampled_from(FAMILIES), plain_body() | near_miss(), after)
def test_a_plain_body_ends_at_its_first_bracket_for_the_scanner_too(
        family: str, body: str, rest: str) -> None:
    """A body read as plain up to the first "]" is the body the scanner finds, whole or
    streamed."""
    body = body.split("]")[0]
    if front._plain_parts(body) is None:
        return
    text = f"[{family}:{body}]{rest}"
    for final in (False, True):
        found, _ = find_tags(text, final)
        assert len(text) - len(rest) - 1 == found[0].bracket


@given(st.sampled_from(FAMILIES), plain_body() | near_miss(), after,
       st.integers(min_value=1, max_value=6))
def test_a_streamed_tag_reads_as_the_whole_reply_does(
        family: str, body: str, rest: str, size: int) -> None:
    """A tag streamed in pieces of any size reads as in the whole reply, quotes and all."""
    text = f"The lamp gutters. [{family}:{body}]{rest}"
    stream = TagStream()
    pieces = [p for at in range(0, len(text), size) for p in stream.feed(text[at:at + size])]
    assert merge_text(parse(text)) == merge_text([*pieces, *stream.close()])


def test_a_streamed_tag_past_the_reading_budget_reads_as_the_whole_reply_does() -> None:
    """SPEC §8: the tags of a reply are read up to ``READ_BUDGET`` characters of bodies in all;
    a plain tag that closes past it is not read, streamed or whole, and says so alike (each plain
    body is one the stream reads by itself, and the last ones remembered: it must not be
    taken from that memory once the budget is spent)."""
    body = ' skill="Climb" dc="7" note="' + "x" * 200 + '"'
    tag = f"[skill_check:{body}]"
    text = "".join(f"Step {n}. {tag} " for n in range(front.READ_BUDGET // len(body) + 3))
    stream = TagStream()
    pieces = [p for at in range(0, len(text), 7) for p in stream.feed(text[at:at + 7])]
    streamed = merge_text([*pieces, *stream.close()])
    assert merge_text(parse(text)) == streamed
    problems = [p.problems for p in streamed if not isinstance(p, front.Text)]
    assert problems[0] == () and problems[-1] and "not read" in problems[-1][0]
