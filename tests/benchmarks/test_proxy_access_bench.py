"""What who-may-touch-a-game costs a streamed reply: the same fake upstream behind three ``serve``
apps side by side in one run, one request at a time, alternating: an open proxy with a client
sending no ``Authorization`` (the open namespace, as before scoping), an open proxy with a client
sending its key (the chat scoped by its digest), and a proxy with a 1,000-token tokens file.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_proxy_access_bench.py
--benchmark-only -s``. It prints p50 and p99 of the last byte for each; no time is asserted.
"""

from __future__ import annotations

import asyncio
import os
from contextlib import AsyncExitStack
from typing import Any

import pytest

from middleware.proxy import ServeOptions
from tests.benchmarks.test_proxy_latency_bench import REPLY, percentiles, timed
from tests.proxy.conftest import history
from tests.proxy.fake_upstream import Answer, FakeUpstream, served

ROUNDS = int(os.environ.get("GM_LATENCY_ROUNDS", "200"))
TOKENS = tuple((f"player-token-{n:06d}-abcdef", f"Player {n}") for n in range(1000))
SETUPS: dict[str, tuple[ServeOptions, dict[str, str]]] = {
    "open, no key": (ServeOptions(timeout=60.0), {}),
    "open, client key": (ServeOptions(timeout=60.0), {"Authorization": "Bearer sk-client"}),
    "1000 tokens": (ServeOptions(timeout=60.0, tokens=TOKENS),
                    {"Authorization": f"Bearer {TOKENS[500][0]}"}),
}


async def measure() -> dict[str, float]:
    """p50/p99 of the last byte through each setup, alternating requests."""
    upstream = FakeUpstream(always=Answer(REPLY))
    samples: dict[str, list[float]] = {name: [] for name in SETUPS}
    async with AsyncExitStack() as stack:
        clients = {}
        for name, (options, headers) in SETUPS.items():
            proxy = await stack.enter_async_context(served(upstream, options))
            clients[name] = await stack.enter_async_context(proxy.client(**headers))
        for n in range(ROUNDS + 10):
            body = {"model": "m", "messages": history("Go.", system=f"Bench {n}."), "stream": True}
            for name, http in clients.items():
                last = (await timed(http, body))[1]
                if n >= 10:  # the first ten warm every path up
                    samples[name].append(last)
    figures: dict[str, float] = {}
    for name, taken in samples.items():
        figures[f"{name} p50"], figures[f"{name} p99"] = percentiles(taken)
    return figures


@pytest.mark.benchmark(group="proxy-access")
def test_scoped_chats_and_tokens_side_by_side(benchmark: Any) -> None:
    figures: dict[str, float] = {}

    def run() -> None:
        figures.update(asyncio.run(measure()))

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    print(f"\n{ROUNDS} streams through each, one at a time, last byte (ms):")
    for name in SETUPS:
        print(f"  {name}: p50 {figures[f'{name} p50']:.1f} p99 {figures[f'{name} p99']:.1f}")
    assert len(figures) == 2 * len(SETUPS)
