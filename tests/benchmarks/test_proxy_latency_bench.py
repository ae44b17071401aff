"""The latency the proxy adds to a streamed reply: the same fake upstream on 127.0.0.1 streamed
directly and through a real ``serve`` app, side by side in one run, one request at a time.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_proxy_latency_bench.py --benchmark-only
-s``. It prints, for the first byte of the answer and its last byte, p50 and p99 of both, and what
the proxy adds; the figures are kept in the benchmark's ``extra_info``. No time is asserted.
"""

from __future__ import annotations

import asyncio
import os
import statistics
from typing import Any

import httpx
import pytest

from middleware.proxy import ServeOptions
from tests.proxy.conftest import CHECK, history, serving
from tests.proxy.fake_upstream import Answer, FakeUpstream, served

ROUNDS = int(os.environ.get("GM_LATENCY_ROUNDS", "200"))
REPLY = (f"The rain drums on the roof. {CHECK} The lock gives. "
         '[inventory: action="add" item="Rope" who="Ada"] ' + "Then the road. " * 20)


async def timed(http: httpx.AsyncClient, body: dict[str, Any]) -> tuple[float, float]:
    """(first byte, last byte) of one streamed answer, in ms from sending the request."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    first = 0.0
    async with http.stream("POST", "/v1/chat/completions", json=body) as response:
        async for _ in response.aiter_raw():
            first = first or loop.time() - began
    return first * 1000, (loop.time() - began) * 1000


def percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[98]


async def measure() -> dict[str, float]:
    """p50/p99 of first and last byte, direct and through the proxy, alternating requests."""
    upstream = FakeUpstream([Answer(REPLY) for _ in range(2 * ROUNDS + 20)])
    direct: list[tuple[float, float]] = []
    proxied: list[tuple[float, float]] = []
    async with served(upstream, ServeOptions(timeout=60.0)) as proxy, \
            serving(upstream.app()) as fake_url, \
            httpx.AsyncClient(base_url=fake_url) as straight, \
            proxy.client() as through:
        for n in range(ROUNDS + 10):
            body = {"model": "m", "messages": history("Go.", system=f"Bench {n}."), "stream": True}
            pair = (await timed(straight, body), await timed(through, body))
            if n >= 10:  # the first ten warm both paths up
                direct.append(pair[0])
                proxied.append(pair[1])
    figures: dict[str, float] = {}
    for name, samples in (("direct", direct), ("proxy", proxied)):
        for edge, index in (("first", 0), ("last", 1)):
            p50, p99 = percentiles([s[index] for s in samples])
            figures[f"{name}_{edge}_p50_ms"], figures[f"{name}_{edge}_p99_ms"] = p50, p99
    for edge in ("first", "last"):
        for p in ("p50", "p99"):
            figures[f"added_{edge}_{p}_ms"] = (figures[f"proxy_{edge}_{p}_ms"]
                                               - figures[f"direct_{edge}_{p}_ms"])
    return figures


@pytest.mark.benchmark(group="proxy-latency")
def test_added_latency_first_and_last_byte(benchmark: Any) -> None:
    figures: dict[str, float] = {}

    def run() -> None:
        figures.update(asyncio.run(measure()))

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    print(f"\n{ROUNDS} streams each way, one at a time (ms):")
    for edge in ("first", "last"):
        print(f"  {edge} byte: direct p50 {figures[f'direct_{edge}_p50_ms']:.1f} "
              f"p99 {figures[f'direct_{edge}_p99_ms']:.1f} | proxy p50 "
              f"{figures[f'proxy_{edge}_p50_ms']:.1f} p99 {figures[f'proxy_{edge}_p99_ms']:.1f} | "
              f"added p50 {figures[f'added_{edge}_p50_ms']:.1f} "
              f"p99 {figures[f'added_{edge}_p99_ms']:.1f}")
    assert len(figures) == 12
