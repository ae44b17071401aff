"""The upstream's streamed chunks as the proxy reads them (``HttpUpstream.stream``, then
``pieces_of``): every chunk read as its JSON says, exactly, whatever shape it has, and the
chunks of one read taken together as the general reading takes them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from middleware.proxy import HttpUpstream
from middleware.proxy.chunks import Piece, piece_of, pieces_of
from tests.proxy.conftest import TIMEOUT, serving

BIG = 123456789012345678901234567890
"""An integer past 64 bits: orjson would read it as a float."""


def raw_events(*events: bytes) -> Starlette:
    """A model server that streams ``events`` as they are written, then ``[DONE]``."""

    async def completions(request: Request) -> Response:
        async def body() -> AsyncIterator[bytes]:
            for event in events:
                yield b"data: " + event + b"\n\n"
            yield b"data: [DONE]\n\n"

        return StreamingResponse(body(), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


async def test_numbers_past_64_bits_are_read_exactly() -> None:
    """An upstream's chunk with an integer past 64 bits (a 19-digit one, and one far longer) is
    read as the number written, not as the float orjson would give; a float stays a float."""
    text = (b'{"choices":[{"index":0,"delta":{"content":"Hi","seq":%d,"near":%d,'
            b'"ratio":0.5},"finish_reason":null}]}') % (BIG, 10**18 + 7)
    async with serving(raw_events(text, b'{"choices":[{"index":0,"delta":{"content":"!"}}]}')) \
            as url:
        upstream = HttpUpstream(url + "/v1", timeout=TIMEOUT)
        try:
            chunks = [chunk async for read in upstream.stream({"messages": []}, None)
                      for chunk in read]
        finally:
            await upstream.aclose()
    delta = chunks[0]["choices"][0]["delta"]
    assert (BIG, 10**18 + 7, 0.5) == (delta["seq"], delta["near"], delta["ratio"])
    assert isinstance(delta["seq"], int)
    assert [Piece("Hi", {"seq": BIG, "near": 10**18 + 7, "ratio": 0.5}), Piece("!")] == \
        pieces_of(chunks)  # fields not text are passed on as they came, in a piece of their own


_ANY = st.one_of(st.none(), st.integers(-2, 2), st.text(max_size=3), st.lists(st.none(), max_size=1))
"""A field of the wrong shape."""
_DELTA = st.dictionaries(
    st.sampled_from(["content", "content", "role", "reasoning_content", "tool_calls", "refusal"]),
    st.one_of(st.text(min_size=1, max_size=4), st.text(max_size=4), st.none(), st.integers(0, 1),
              st.lists(st.fixed_dictionaries({"index": st.integers(0, 1)}), max_size=1)),
    max_size=3)
_CHOICE = st.fixed_dictionaries({"delta": st.one_of(_DELTA, _DELTA, _DELTA, _ANY)}, optional={
    "index": st.sampled_from([0, 0, 0, 1, None]),
    "finish_reason": st.one_of(st.none(), st.none(), st.sampled_from(["", "stop", "length"]),
                               st.integers(0, 1))})
_CHUNK = st.fixed_dictionaries({"choices": st.one_of(
    st.lists(_CHOICE, min_size=1, max_size=2), st.lists(_CHOICE, min_size=1, max_size=2), _ANY)},
    optional={"usage": st.one_of(st.none(), st.integers(0, 1),
                                 st.fixed_dictionaries({"total_tokens": st.integers(0, 9)}))})
"""Chunks mostly of a reply's shape, some with a field missing or of the wrong type."""


def read_one_by_one(read: list[dict[str, Any]]) -> list[Piece]:
    """The general reading: each chunk read by ``piece_of``; pieces whose other fields are all
    text joined (text and each field concatenated, the last finish and usage given kept), any
    other piece on its own."""
    out: list[Piece] = []
    run: list[Piece] = []
    for piece in map(piece_of, read):
        if all(isinstance(v, str) for v in piece.others.values()):
            run.append(piece)
            continue
        out += [join(run)] if run else []
        out.append(piece)
        run = []
    return out + ([join(run)] if run else [])


def join(run: list[Piece]) -> Piece:
    if len(run) == 1:
        return run[0]
    others: dict[str, Any] = {}
    for piece in run:
        for key, value in piece.others.items():
            others[key] = others.get(key, "") + value
    return Piece("".join(p.content for p in run), others,
                 next((p.finish for p in reversed(run) if p.finish), None),
                 next((p.usage for p in reversed(run) if p.usage is not None), None))


@settings(max_examples=1000, deadline=None)
@given(st.lists(_CHUNK, max_size=6))
def test_a_read_is_taken_together_as_its_chunks_read_one_by_one(read: list[dict[str, Any]]) -> None:
    """Chunks of any shape (text alone, the role, reasoning, tool calls, a finish, usage,
    fields of the wrong type): the pieces of a read are those of the general reading, so the
    quick look at a chunk of text alone reads it as ``piece_of`` does."""
    assert read_one_by_one(read) == pieces_of(read)
