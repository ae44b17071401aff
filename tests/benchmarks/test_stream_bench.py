"""Streaming cost: a reply of 1, 5, 16 and 64 tags streamed through ``ReplyStream`` in 4-character
pieces (about a token each), against one whole-reply resolve of the same reply, side by side.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_stream_bench.py --benchmark-only
-p no:cacheprovider -s``. No time is asserted: each size is timed whole and streamed in turn,
alternating, and the best of the rounds is kept for each; the ratios are printed and kept in
``extra_info``.

The stream's figure is its own work: every ``feed``, ``finished`` (what is left resolved, the
reply's reading handed to the store, which then resolves nothing again) and the ``tail`` (the
stored candidate it ends on is made once beforehand). A second figure is the store at the end of
a stream: ``Engine.process`` taking the stream's reading, against resolving the reply again as it
did before.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from middleware.engine import Processed
from middleware.proxy.stream import ReplyStream, priced_at_end
from tests.benchmarks.processes import cpu_time
from tests.proxy.conftest import ember_turn

TAGS = ('[skill_check: skill="Scrap" dc="8"]',
        '[inventory: action="add" item="Rope" who="Ada"]',
        "[dice: 2d6+1]",
        '[skill_check: skill="Sneak" difficulty="Hard" who="Ada"]',
        '[place: name="Millbrook"]',
        '[sheet: op="damage" amount="1"]',
        '[loot: table="x"]',
        "[skill_check: skill=]")
PROSE = "The rain drums on the tin roof while the warden counts coins. "
SIZES = (1, 5, 16, 64)
ROUNDS = 15
PIECE = 4
SEED = 1234


def reply_of(tags: int) -> str:
    """``tags`` tags from ``TAGS`` in turn, with a sentence of prose before each."""
    return "".join(PROSE + TAGS[n % len(TAGS)] + " " for n in range(tags)) + PROSE


def pieces(text: str) -> list[str]:
    return [text[i:i + PIECE] for i in range(0, len(text), PIECE)]


def _reported(benchmark: Any, measure: Callable[[], Awaitable[dict[str, Any]]],
              line: Callable[[dict[str, Any], int], str]) -> None:
    """``measure`` run once as the benchmark, its figures kept in ``extra_info`` and printed a
    line per size (``line``), with its ratio."""
    figures = benchmark.pedantic(lambda: asyncio.run(measure()), rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    for tags, ratio in figures["ratios"].items():
        print(f"\n{tags:>3} tags: {line(figures, tags)}, {ratio:.2f}×", end="")
    print()


def test_streaming_against_one_whole_reply_resolve(benchmark: Any) -> None:
    _reported(benchmark, _measure, lambda figures, tags: (
        f"whole {figures['whole_ms'][tags]:.2f} ms, streamed {figures['stream_ms'][tags]:.2f} ms"))


async def _measure() -> dict[str, Any]:
    engine = await ember_turn()
    waits = priced_at_end(await engine.ruleset("chat"))
    whole_ms: dict[int, float] = {}
    stream_ms: dict[int, float] = {}
    for tags in SIZES:
        reply = reply_of(tags)
        preview = await engine.previewer("chat", 1, SEED)
        done = preview(reply)
        stored = Processed("chat", 1, 0, SEED, done.text, done.records, done.state)
        chunks = pieces(reply)

        def streamed(preview: Any = preview, chunks: list[str] = chunks,
                     stored: Processed = stored) -> str:
            stream = ReplyStream(preview, waits)
            sent = "".join([stream.feed(chunk) for chunk in chunks])
            stream.finished()
            return sent + stream.tail(stored)

        assert done.text == streamed()
        whole, flowing = [], []
        for _ in range(ROUNDS):
            whole.append(cpu_time(lambda preview=preview, reply=reply: preview(reply)))
            flowing.append(cpu_time(streamed))
        whole_ms[tags], stream_ms[tags] = min(whole) * 1000, min(flowing) * 1000
    return {"whole_ms": whole_ms, "stream_ms": stream_ms,
            "ratios": {tags: stream_ms[tags] / whole_ms[tags] for tags in SIZES}}


def test_the_store_at_the_end_of_a_stream(benchmark: Any) -> None:
    _reported(benchmark, _measure_store, lambda figures, tags: (
        f"stored resolving again {figures['again_ms'][tags]:.2f} ms, "
        f"from the stream's reading {figures['read_ms'][tags]:.2f} ms"))


async def _measure_store() -> dict[str, Any]:
    """Best of ``ROUNDS`` per size and way, alternating: each store a new candidate of turn 1."""
    engine = await ember_turn()
    waits = priced_at_end(await engine.ruleset("chat"))
    again_ms: dict[int, float] = {}
    read_ms: dict[int, float] = {}
    for tags in SIZES:
        reply = reply_of(tags)
        times: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(ROUNDS):
            for fast in (False, True):
                preview = await engine.previewer("chat", 1, SEED)
                stream = ReplyStream(preview, waits)
                for chunk in pieces(reply):
                    stream.feed(chunk)
                started = time.process_time()
                read = stream.finished() if fast else None
                await engine.process("chat", 1, stream.reply, seed=SEED,
                                     resolved=None if read is None else (preview.start, read))
                times[fast].append(time.process_time() - started)
        again_ms[tags], read_ms[tags] = min(times[False]) * 1000, min(times[True]) * 1000
    return {"again_ms": again_ms, "read_ms": read_ms,
            "ratios": {tags: read_ms[tags] / again_ms[tags] for tags in SIZES}}
