"""The latency the proxy adds to a streamed reply, one request at a time: the fake upstream on
127.0.0.1 called directly, through a proxy that does nothing (``passthrough``: the floor of the
stack ``serve`` runs on) and through ``gm-middleware serve`` (SQLite, as a user runs it), each a
process of its own, side by side in one run. Through ``serve``, two kinds of request alternate:
a new chat's first turn (a game is created) and the next turn of a chat that goes on (its history
sent back as a chat UI sends it), in one order and then the other (``in_turn``): the one played
right after ``serve``'s last stream runs warm, and with the upstream paced that was worth 0.4 ms
of the first byte, which a fixed order gave a next turn every time.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_proxy_latency_bench.py --benchmark-only
-s -p no:cacheprovider`` (``GM_LATENCY_ROUNDS``: requests of each kind, default 200). It prints
p50 and p99 of the first byte of the answer and of its last byte on each path, what each adds to
calling the upstream directly, and each proxy's CPU time per stream; the figures are kept in the
benchmark's ``extra_info``. No time is asserted. ``GM_LATENCY_TIMED=1`` runs the pass-through and
``serve`` under ``timed_server`` and prints, for each, the p50 of its time from a request's first
bytes read to its response head written, and of the head's and the first event's trips from the
server's write to the client's read.

The servers are processes of their own, as in use: run in the benchmark's own event loop, the fake
upstream's and the client's work would be counted as the proxy's.

Each test is a placement and an upstream. The placements: ``apart``, the client (this process) on
a CPU of its own and the three servers on the others, as in use, where the chat UI runs on
another machine; ``proxy_apart``, the proxies on a CPU of their own and the client and the fake
upstream on the others, as in use, where the proxy's machine runs the proxy alone; and
``shared``, every process wherever the kernel puts it. The upstreams: ``instant`` writes its
events as fast as it can, ``paced`` one every ``GM_LATENCY_PACE_MS`` (default 1), as a model
writes its reply token by token, so the proxy reads each event on its own and waits between
them. The paced events keep the model's own clock (the n-th due n paces after the first): paced
by a sleep after each write, the upstream's events came later the busier the proxy kept the
cores, and in ``shared`` that lateness, summed over 95 events, was counted as the proxy's (the
last byte 7.3-7.5 ms added through ``serve`` and 5.8 through the pass-through, against 2.1-2.3
and 0.8 on the model's clock, the direct stream 114 ms long against 99).

On 2 CPUs, with the upstream ``instant``, ``shared`` puts three busy processes on two cores
during a stream (the fake upstream writes its events as fast as it can, the proxy reads them,
the client waits for the first), and the client woken by the first event waits for a core until
the proxy gives its own up (``proxy/sse_answer.py`` does so once that event is written; before
it did, the first byte came 2.5-3.7 ms after the direct stream's, 1.2-1.4 after it). In
``proxy_apart`` the client shares its core with the fake upstream, which goes on writing as fast
as it can: there the pass-through's first byte too comes about 2 ms after the direct stream's.
With one CPU, or off Linux, the placements are the same.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

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
TIMED = os.environ.get("GM_LATENCY_TIMED", "") not in ("", "0")
PACE_MS = float(os.environ.get("GM_LATENCY_PACE_MS", "1"))
"""The paced upstream's time between events: a hosted model streams a token every 7-30 ms (30-150
tokens a second), so 1 ms is a model many times faster than any, and still leaves the proxy idle
between events, as in use."""
UPSTREAMS = {"instant": 0.0, "paced": PACE_MS}


class Streamed(NamedTuple):
    """One streamed answer: its first and last byte in ms from sending the request, its text,
    and when (``time.monotonic``) the client had its head and its first body bytes."""

    first: float
    last: float
    text: str
    head_at: float
    first_at: float


async def timed(http: httpx.AsyncClient, body: dict[str, Any]) -> Streamed:
    """One streamed answer, timed from sending the request."""
    began = time.monotonic()
    first_at = 0.0
    raw = bytearray()
    async with http.stream("POST", "/v1/chat/completions", json=body) as response:
        head_at = time.monotonic()
        async for data in response.aiter_raw():
            first_at = first_at or time.monotonic()
            raw += data
    last = time.monotonic() - began
    return Streamed((first_at - began) * 1000, last * 1000, streamed_text(raw.decode()), head_at,
                    first_at)


def streamed_text(raw: str) -> str:
    events = [json.loads(line[6:]) for line in raw.split("\n") if line.startswith("data: {")]
    return "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])


def percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[98]


PLACEMENTS = ("apart", "proxy_apart", "shared")


def can_place() -> bool:
    """Whether a process can have a CPU of its own: Linux's affinity, and two CPUs or more."""
    return hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) > 1


Arrange = Callable[[int, Sequence[int]], None]
"""Puts the running servers where a placement wants them: the upstream's pid, the proxies'."""


@contextmanager
def placed(placement: str) -> Iterator[Arrange]:
    """Within the block, calling what it yields once the servers run places them and this
    process (the client): ``apart``, the client on the first CPU and the servers on the others;
    ``proxy_apart``, the proxies on the last CPU and the client and the upstream on the others;
    ``shared``, every process wherever the kernel puts it. This process's CPUs come back after."""
    cpus = os.sched_getaffinity(0) if can_place() else set()

    def arrange(upstream: int, proxies: Sequence[int]) -> None:
        if not cpus or placement == "shared":
            return
        edge = min(cpus) if placement == "apart" else max(cpus)
        client_apart = placement == "apart"
        alone = (0,) if client_apart else tuple(proxies)
        rest = (upstream, *proxies) if client_apart else (0, upstream)
        for pid in alone:
            _pin(pid, {edge})
        for pid in rest:
            _pin(pid, cpus - {edge})

    try:
        yield arrange
    finally:
        if cpus:
            os.sched_setaffinity(0, cpus)


def _pin(pid: int, cpus: set[int]) -> None:
    """Process ``pid`` (0: this one), every thread of it, on ``cpus``."""
    for thread in os.listdir(f"/proc/{pid or os.getpid()}/task"):
        os.sched_setaffinity(int(thread), cpus)


def timed_command(out: Path, *command: str, timed: bool = TIMED) -> tuple[str, ...]:
    """A proxy's command: under ``timed_server`` (writing to ``out``) when ``timed`` (default:
    ``GM_LATENCY_TIMED``); ``serve`` is ``gm-middleware serve``, anything else a module run with
    ``-m``."""
    if timed:
        return "-m", "tests.benchmarks.timed_server", str(out), *command
    return (gm_middleware(), *command) if command[0] == "serve" else ("-m", *command)


def server_moments(out: Path) -> list[dict[str, float]]:
    """What ``timed_server`` wrote of each ``/v1/chat/completions`` request, in order."""
    lines = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return [moment for moment in lines if moment.get("path") == "/v1/chat/completions"]


def trips(streams: list[Streamed], moments: list[dict[str, float]]) -> dict[str, float]:
    """p50 in ms of a server's time from a request's first bytes to its head written, and of its
    head's and first body's trips from the server's write to the client's read."""
    pairs = list(zip(streams, moments, strict=True))[WARM_UP:]

    def p50(took: Callable[[Streamed, dict[str, float]], float]) -> float:
        return statistics.median(took(s, m) * 1000 for s, m in pairs)

    return {"to_head": p50(lambda s, m: m["head"] - m["arrived"]),
            "head_trip": p50(lambda s, m: s.head_at - m["head"]),
            "first_trip": p50(lambda s, m: s.first_at - m["first_body"])}


async def measure(folder: Path, placement: str, pace_ms: float = 0.0
                  ) -> tuple[dict[str, float], dict[str, float]]:
    """p50/p99 of first and last byte on every path, each proxy's CPU ms per stream; and, with
    ``GM_LATENCY_TIMED``, where the proxies' first bytes spent their time (``trips``). The fake
    upstream writes an event every ``pace_ms`` (0: as fast as it can)."""
    with placed(placement) as arrange:
        return await _measured(folder, arrange, pace_ms)


async def _measured(folder: Path, arrange: Arrange, pace_ms: float
                    ) -> tuple[dict[str, float], dict[str, float]]:
    upstream, floor, proxy = free_port(), free_port(), free_port()
    upstream_url = f"http://127.0.0.1:{upstream}"
    samples: dict[str, list[tuple[float, float]]] = {path: [] for path in PATHS}
    streams: dict[str, list[Streamed]] = {path: [] for path in PATHS}
    cpu = {"passthrough": 0.0, "new_chat": 0.0, "next_turn": 0.0}
    served_order: list[str] = []
    chats = [history(system=f"Long chat {n}.") for n in range(CHATS)]
    async with running(upstream, "-m", "tests.proxy.fake_upstream", str(upstream), REPLY,
                       str(pace_ms), log=folder / "upstream.log") as upstreamed, \
            running(floor, *timed_command(folder / "passthrough.times",
                                          "tests.benchmarks.passthrough", str(floor),
                                          upstream_url),
                    log=folder / "passthrough.log") as floored, \
            running(proxy, *timed_command(folder / "serve.times", "serve", "--ruleset",
                                          "hearth-and-haul", "--upstream", upstream_url,
                                          "--port", str(proxy), "--log-level", "warning",
                                          "--store", f"sqlite:///{folder / 'games.db'}"),
                    log=folder / "serve.log") as served:
        arrange(upstreamed.pid, (floored.pid, served.pid))
        counted = {"passthrough": floored.pid, "new_chat": served.pid, "next_turn": served.pid}
        clients = {"direct": upstream_url, "passthrough": f"http://127.0.0.1:{floor}",
                   "new_chat": f"http://127.0.0.1:{proxy}", "next_turn": f"http://127.0.0.1:{proxy}"}
        https = {path: httpx.AsyncClient(base_url=url, timeout=60.0)
                 for path, url in clients.items()}
        try:
            for n in range(ROUNDS + WARM_UP):
                new = history(said(1, CHATS + n), system=f"Bench {n}.")
                chat = chats[n % CHATS]
                chat.append({"role": "user", "content": said(len(chat) // 2 + 1, n % CHATS)})
                for path in in_turn(n):
                    body = {"model": "m", "stream": True,
                            "messages": chat if path == "next_turn" else new}
                    pid = counted.get(path)
                    before = cpu_seconds(pid) if pid else 0.0
                    streamed = await timed(https[path], body)
                    streams[path].append(streamed)
                    if counted.get(path) == served.pid:
                        served_order.append(path)  # the order of serve.times' lines
                    if path == "next_turn":
                        chat.append({"role": "assistant", "content": streamed.text})
                    if n >= WARM_UP:
                        samples[path].append((streamed.first, streamed.last))
                        if pid:
                            cpu[path] += cpu_seconds(pid) - before
        finally:
            for http in https.values():
                await http.aclose()
    found: dict[str, float] = {}
    if TIMED:
        served_moments = server_moments(folder / "serve.times")
        for path, moments in (("passthrough", server_moments(folder / "passthrough.times")),
                              *((kind, [m for m, was in zip(served_moments, served_order,
                                                            strict=True) if was == kind])
                                for kind in ("new_chat", "next_turn"))):
            found |= {f"{path}_{key}_p50_ms": ms
                      for key, ms in trips(streams[path], moments).items()}
    return figures(samples, cpu), found


def in_turn(round_: int) -> tuple[str, ...]:
    """The paths in the order round ``round_`` plays them: ``serve``'s two kinds swap places
    every other round, so each comes right after ``serve``'s own last stream (its code and data
    in the CPU's caches) as often as after the other paths' streams."""
    return PATHS if round_ % 2 == 0 else (*PATHS[:2], PATHS[3], PATHS[2])


def said(turn: int, chat: int) -> str:
    """The player's message of ``turn`` in ``chat``, of one length whatever the numbers: each
    reply repeats it (``{said}``), and the direct path and the pass-through are sent new chats,
    so a next turn's reply as long as theirs is streamed in as many events (with the upstream
    paced, each longer message cost a next turn 2-3 ms more than the others)."""
    return f"Turn {turn:>3} of chat {chat:>4}."


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
@pytest.mark.parametrize("upstream", list(UPSTREAMS))
@pytest.mark.parametrize("placement", PLACEMENTS)
def test_added_latency_first_and_last_byte(benchmark: Any, tmp_path: Path,
                                           placement: str, upstream: str) -> None:
    found: dict[str, float] = {}
    spent: dict[str, float] = {}

    def run() -> None:
        figures, trips = asyncio.run(measure(tmp_path, placement, UPSTREAMS[upstream]))
        found.update(figures)
        spent.update(trips)

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(found | spent)
    where_client = placement if can_place() else f"{placement} (not placed: one CPU, or not Linux)"
    paced = f"an event every {PACE_MS:g} ms" if UPSTREAMS[upstream] else "as fast as it can"
    print(f"\n{ROUNDS} streams on each path, one at a time, the client {where_client}, the "
          f"upstream writing {paced} (ms):")
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
    for path in PATHS[1:] if spent else ():
        print(f"  {path:<12} in the server, request to head {spent[f'{path}_to_head_p50_ms']:.2f}; "
              f"from the server's write to the client's read: the head "
              f"{spent[f'{path}_head_trip_p50_ms']:.2f}, the first event "
              f"{spent[f'{path}_first_trip_p50_ms']:.2f} (p50)")
    assert 4 * 4 + 3 * 4 + 3 == len(found)
