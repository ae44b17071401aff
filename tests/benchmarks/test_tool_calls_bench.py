"""Tool mode's cost per Engine call: a turn of 1, 8 and 24 checks (``MAX_CALLS``), a sentence of
prose before each, answered through ``ToolTurn`` (``text`` then ``answer``: pure, no HTTP, no
request built), against one whole-reply resolve of the same reply, side by side.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_tool_calls_bench.py --benchmark-only
-p no:cacheprovider -s``. No time is asserted: per size, the turn as it is played now (each call
answered from the reply's own reading, ``ReplyStream.read_so_far``), the turn the way before (a
reply that never vouches for its reading, so each call resolves the whole reply so far: 1 + 2 +
... + n tags for n calls) and one whole-reply resolve are timed in turn, round after round, and
the best of the rounds is kept for each. Printed: per call, and the cost per call of a turn of 24
calls against a turn of 1 (1.00× is flat), for both ways; kept in ``extra_info``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any

from middleware.json_input import JsonObject
from middleware.pipeline import Preview
from middleware.proxy.stream import ReplyStream, priced_at_end
from middleware.proxy.tools import MAX_CALLS, ToolTurn, engine_tools
from middleware.proxy.tools.calls import ToolCall
from middleware.rules.ruleset import Ruleset
from tests.benchmarks.processes import cpu_time
from tests.proxy.conftest import ember_turn

SIZES = (1, 8, MAX_CALLS)
ROUNDS = 15
SEED = 1234
PROSE = "The rain drums on the tin roof while the warden counts coins."
CHECK = ToolCall("call_0", "skill_check", '{"skill": "Scrap", "dc": 8}')
BODY: JsonObject = {"model": "fake-7b", "messages": [{"role": "user", "content": "Go on."}]}


class WholeEachCall(ReplyStream):
    """The way before: each call resolves the whole reply so far (``ToolTurn``'s fallback)."""

    def read_so_far(self) -> None:
        return None


def played(preview: Preview, rules: Ruleset, calls: int, reader: type[ReplyStream]) -> str:
    """A turn of ``calls`` checks, a sentence before each, read by ``reader``: the reply."""
    reply = reader(preview, priced_at_end(rules))
    turn = ToolTurn(BODY, engine_tools(rules), preview, reply)
    for _ in range(calls):
        turn.text(PROSE)
        turn.answer("", [CHECK])
    return reply.reply


async def _measure() -> dict[str, Any]:
    engine = await ember_turn()
    rules = await engine.ruleset("chat")
    preview = await engine.previewer("chat", 1, SEED)
    ms: dict[str, dict[int, float]] = {"now": {}, "before": {}, "whole": {}}
    for calls in SIZES:
        reply = played(preview, rules, calls, ReplyStream)
        assert reply == played(preview, rules, calls, WholeEachCall)
        runs: dict[str, Callable[[], object]] = {
            "now": partial(played, preview, rules, calls, ReplyStream),
            "before": partial(played, preview, rules, calls, WholeEachCall),
            "whole": partial(preview, reply)}
        times: dict[str, list[float]] = {way: [] for way in runs}
        for _ in range(ROUNDS):
            for way, run in runs.items():
                times[way].append(cpu_time(run))
        for way in runs:
            ms[way][calls] = min(times[way]) * 1000
    return {**{f"{way}_ms": figures for way, figures in ms.items()},
            "flat": {way: ms[way][MAX_CALLS] / MAX_CALLS / ms[way][1] for way in ("now", "before")}}


def test_the_cost_per_call_of_a_tool_turn(benchmark: Any) -> None:
    figures = benchmark.pedantic(lambda: asyncio.run(_measure()), rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    now, before, whole = figures["now_ms"], figures["before_ms"], figures["whole_ms"]
    for calls in SIZES:
        print(f"\n{calls:>3} calls: now {now[calls] / calls:.3f} ms a call "
              f"({now[calls] / whole[calls]:.2f}× one whole resolve of the reply), before "
              f"{before[calls] / calls:.3f} ms a call ({before[calls] / whole[calls]:.2f}×)",
              end="")
    flat = figures["flat"]
    print(f"\nper call, {MAX_CALLS} calls against 1: now {flat['now']:.2f}×, "
          f"before {flat['before']:.2f}×")
