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
