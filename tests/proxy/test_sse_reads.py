"""Server-sent events read as the network hands them over (``proxy.sse``): wherever the reads cut
the stream — inside a line, inside a UTF-8 character, between the CR and LF of a line end — the
events are the same."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from middleware.proxy.sse import EventReader, EventTooLong

STREAM = ("data: {\"a\": 1}\r\n\r\n"
          ": a keep-alive comment\n\n"
          "event: message\nid: 7\ndata: {\"b\": \"Ada\u2028and\u0085Bram\"}\n\n"
          "data: first line\rdata: second line\r\r"
          "data:no space\r\n\r\n"
          "retry: 100\n\n"
          "data: [DONE]\n\n").encode()
EVENTS = [b'{"a": 1}', '{"b": "Ada\u2028and\u0085Bram"}'.encode(), b"first line\nsecond line",
          b"no space", b"[DONE]"]

LF_STREAM = STREAM.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
"""The same events with LF alone, as most servers end lines (read without the line pattern)."""
STREAMS = pytest.mark.parametrize("stream", [STREAM, LF_STREAM], ids=["cr-crlf-lf", "lf"])


def read_in(cuts: list[int], stream: bytes = STREAM) -> list[bytes]:
    reader = EventReader()
    bounds = [0, *sorted(set(cuts)), len(stream)]
    events: list[bytes] = []
    for start, end in itertools.pairwise(bounds):
        events.extend(reader.feed(stream[start:end]))
    return events


@STREAMS
def test_a_stream_read_whole_gives_each_event_once(stream: bytes) -> None:
    assert EVENTS == read_in([], stream)


@STREAMS
@given(cuts=st.lists(st.integers(min_value=1, max_value=len(LF_STREAM) - 1), max_size=20))
def test_wherever_the_reads_cut_the_stream_the_events_are_the_same(stream: bytes,
                                                                   cuts: list[int]) -> None:
    assert EVENTS == read_in(cuts, stream)


@STREAMS
def test_every_cut_between_two_bytes_gives_the_same_events(stream: bytes) -> None:
    assert all(EVENTS == read_in([cut], stream) for cut in range(1, len(stream)))


def test_an_event_that_never_ends_is_refused_once_past_the_bound() -> None:
    reader = EventReader()
    with pytest.raises(EventTooLong):
        for _ in range(10_000):
            reader.feed(b"data: " + b"x" * 100_000 + b"\n")
