"""The latency the proxy adds to a streamed reply, one request at a time: the fake upstream on
127.0.0.1 called directly, through a proxy that does nothing (``passthrough``: the floor of the
stack ``serve`` runs on) and through ``gm-middleware serve`` (SQLite, as a user runs it), each a
process of its own, side by side in one run. Through ``serve``, two kinds of request alternate:
a new chat's first turn (a game is created) and the next turn of a chat that goes on (its history
sent back as a chat UI sends it).

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_proxy_latency_bench.py --benchmark-only
-s -p no:cacheprovider`` (``GM_LATENCY_ROUNDS``: requests of each kind, default 200). It prints
p50 and p99 of the first byte of the answer and of its last byte on each path, what each adds to
calling the upstream directly, and the proxy's CPU time per stream; the figures are kept in the
benchmark's ``extra_info``. No time is asserted.

The servers are processes of their own, as in use: run in the benchmark's own event loop, the fake
upstream's and the client's work would be counted as the proxy's.

Two placements, each a test: ``apart``, the client (this process) on a CPU of its own and the
three servers on the others, as in use, where the chat UI runs on another machine; and
``shared``, every process wherever the kernel puts it. On 2 CPUs, ``shared`` puts three busy
processes on two cores during a stream (the fake upstream writes its events as fast as it can,
the proxy reads them, the client waits for the first), and the client waits for a core: measured
in ``shared``, ``serve``'s response head took 1.5-1.8 ms to reach the client (0.3-0.35 ms in
``apart``, where ``serve`` and the upstream share the other core). With one CPU both are the same.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.benchmarks.processes import cpu_seconds, free_port, gm_middleware, running
from tests.proxy.conftest import CHECK, history

ROUNDS = int(os.environ.get("GM_LATENCY_ROUNDS", "200"))
WARM_UP = 10
CHATS = 10
"""Chats that go on, taking turns: each plays ``ROUNDS / CHATS`` turns."""
REPLY = (f"The rain drums on the roof ({{said}}). {CHECK} The lock gives. "
         '[inventory: action="add" item="Rope" who="Ada"] ' + "Then the road. " * 20)
"""Each reply names the player's message it answers (``{said}``), so, as a model's, each chat's
replies are its own."""
PATHS = ("direct", "passthrough", "new_chat", "next_turn")


async def timed(http: httpx.AsyncClient, body: dict[str, Any]) -> tuple[float, float, str]:
    """(first byte, last byte) of one streamed answer in ms from sending the request, and its
    text."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    first = 0.0
    raw = bytearray()
    async with http.stream("POST", "/v1/chat/completions", json=body) as response:
        async for data in response.aiter_raw():
            first = first or loop.time() - began
            raw += data
    last = loop.time() - began
    return first * 1000, last * 1000, streamed_text(raw.decode())


def streamed_text(raw: str) -> str:
    events = [json.loads(line[6:]) for line in raw.split("\n") if line.startswith("data: {")]
    return "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])


def percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[98]


@contextmanager
def placed(placement: str) -> Iterator[Callable[[], None]]:
    """Within the block, processes this one starts run on every CPU but the first (``apart``; as
    before, ``shared``); calling what it yields moves this process (the client) to that first
    CPU. The CPUs it could run on come back after."""
    cpus = os.sched_getaffinity(0)
    first, rest = min(cpus), cpus - {min(cpus)}
    apart = placement == "apart" and bool(rest)
    if apart:
        os.sched_setaffinity(0, rest)  # the servers started from here inherit it
    try:
        yield (lambda: os.sched_setaffinity(0, {first})) if apart else (lambda: None)
    finally:
        os.sched_setaffinity(0, cpus)


async def measure(folder: Path, placement: str) -> dict[str, float]:
    """p50/p99 of first and last byte on every path; the proxy's CPU ms per stream."""
    with placed(placement) as client_apart:
        return await _measured(folder, client_apart)


async def _measured(folder: Path, client_apart: Callable[[], None]) -> dict[str, float]:
    upstream, floor, proxy = free_port(), free_port(), free_port()
    upstream_url = f"http://127.0.0.1:{upstream}"
    samples: dict[str, list[tuple[float, float]]] = {path: [] for path in PATHS}
    cpu = {"new_chat": 0.0, "next_turn": 0.0}
    chats = [history(system=f"Long chat {n}.") for n in range(CHATS)]
    async with running(upstream, "-m", "tests.proxy.fake_upstream", str(upstream), REPLY,
                       log=folder / "upstream.log"), \
            running(floor, "-m", "tests.benchmarks.passthrough", str(floor), upstream_url,
                    log=folder / "passthrough.log"), \
            running(proxy, gm_middleware(), "serve", "--ruleset", "hearth-and-haul",
                    "--upstream", upstream_url, "--port", str(proxy), "--log-level", "warning",
                    "--store", f"sqlite:///{folder / 'games.db'}",
                    log=folder / "serve.log") as served:
        client_apart()
        clients = {"direct": upstream_url, "passthrough": f"http://127.0.0.1:{floor}",
                   "new_chat": f"http://127.0.0.1:{proxy}", "next_turn": f"http://127.0.0.1:{proxy}"}
        https = {path: httpx.AsyncClient(base_url=url, timeout=60.0)
                 for path, url in clients.items()}
        try:
            for n in range(ROUNDS + WARM_UP):
                new = history(f"Go ({n}).", system=f"Bench {n}.")
                chat = chats[n % CHATS]
                chat.append({"role": "user",
                             "content": f"Turn {len(chat) // 2 + 1} of chat {n % CHATS}."})
                for path in PATHS:
                    body = {"model": "m", "stream": True,
                            "messages": chat if path == "next_turn" else new}
                    before = cpu_seconds(served.pid)
                    first, last, text = await timed(https[path], body)
                    if path == "next_turn":
                        chat.append({"role": "assistant", "content": text})
                    if n >= WARM_UP:
                        samples[path].append((first, last))
                        if path in cpu:
                            cpu[path] += cpu_seconds(served.pid) - before
        finally:
            for http in https.values():
                await http.aclose()
    return figures(samples, cpu)


def figures(samples: dict[str, list[tuple[float, float]]],
            cpu: dict[str, float]) -> dict[str, float]:
    out: dict[str, float] = {}
    for path, pairs in samples.items():
        for edge, index in (("first", 0), ("last", 1)):
            p50, p99 = percentiles([pair[index] for pair in pairs])
            out[f"{path}_{edge}_p50_ms"], out[f"{path}_{edge}_p99_ms"] = p50, p99
    for path in PATHS[1:]:
        for key in ("first_p50", "first_p99", "last_p50", "last_p99"):
            out[f"{path}_added_{key}_ms"] = out[f"{path}_{key}_ms"] - out[f"direct_{key}_ms"]
    for path, seconds in cpu.items():
        out[f"{path}_cpu_ms_per_stream"] = seconds * 1000 / ROUNDS
    return out


@pytest.mark.benchmark(group="proxy-latency")
@pytest.mark.parametrize("placement", ["apart", "shared"])
def test_added_latency_first_and_last_byte(benchmark: Any, tmp_path: Path,
                                           placement: str) -> None:
    found: dict[str, float] = {}

    def run() -> None:
        found.update(asyncio.run(measure(tmp_path, placement)))

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(found)
    print(f"\n{ROUNDS} streams on each path, one at a time, the client {placement} (ms):")
    for path in PATHS:
        line = " | ".join(
            f"{edge} byte p50 {found[f'{path}_{edge}_p50_ms']:.1f} "
            f"p99 {found[f'{path}_{edge}_p99_ms']:.1f}"
            + ("" if path == "direct" else
               f" (adds {found[f'{path}_added_{edge}_p50_ms']:.1f} / "
               f"{found[f'{path}_added_{edge}_p99_ms']:.1f})")
            for edge in ("first", "last"))
        cpu = f" | proxy CPU {found[f'{path}_cpu_ms_per_stream']:.2f} ms a stream" \
            if f"{path}_cpu_ms_per_stream" in found else ""
        print(f"  {path:<12} {line}{cpu}")
    assert 4 * 4 + 3 * 4 + 2 == len(found)
