"""What a long chat costs before its first byte: a chat UI sends the whole history with every
request, so each request of a chat is longer than the one before. ``CHATS`` chats are played in
turn to ``GM_LONG_TURNS`` turns (default 250) through ``gm-middleware serve`` (SQLite), each turn's
request sent as well to the pass-through (the floor, ``passthrough``) and to the fake upstream
directly, all three with the same history. Both proxies run under ``timed_server``.

For every band of ``BAND`` turns it prints the p50 of what each proxy adds to the direct call's
first byte, as the client sees it, and of each proxy's own time from a request's first bytes read
to its response head written (the upstream's answer to its first read included, which grows with
the history for both): ``serve``'s time there beyond the pass-through's is its own work before the
first byte, routing the history above all. The client runs where the kernel puts it (as the
latency benchmark's ``shared``; ``GM_LONG_PLACEMENT=apart`` gives it a CPU of its own, and puts
the three servers on the other one, where they wait on each other: measured at turns 1-50,
``serve``'s request to head took 3.1 ms more than the pass-through's there, 1.1-1.3 ms more
here). No time is
asserted.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_proxy_long_chat_bench.py
--benchmark-only -s -p no:cacheprovider``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.benchmarks.processes import free_port, running
from tests.benchmarks.test_proxy_latency_bench import (
    REPLY,
    Streamed,
    placed,
    server_moments,
    timed,
    timed_command,
)
from tests.proxy.conftest import history

TURNS = int(os.environ.get("GM_LONG_TURNS", "250"))
CHATS = 3
BAND = 50
PLACEMENT = os.environ.get("GM_LONG_PLACEMENT", "shared")
"""Where the processes run (``test_proxy_latency_bench.placed``): by default where the kernel
puts them, as ``apart`` puts the three servers on one core of two, where they wait on each other
(``proxy_apart`` gives the proxies a core of their own)."""
PATHS = ("direct", "passthrough", "serve")


async def played(folder: Path) -> dict[str, list[Streamed]]:
    """Each path's streams, in the order they were played (turn by turn, chat by chat)."""
    upstream, floor, proxy = free_port(), free_port(), free_port()
    upstream_url = f"http://127.0.0.1:{upstream}"
    streams: dict[str, list[Streamed]] = {path: [] for path in PATHS}
    chats = [history(system=f"Long chat {n}.") for n in range(CHATS)]
    with placed(PLACEMENT) as arrange:
        async with running(upstream, "-m", "tests.proxy.fake_upstream", str(upstream), REPLY,
                           log=folder / "upstream.log") as upstreamed, \
                running(floor, *timed_command(folder / "passthrough.times",
                                              "tests.benchmarks.passthrough", str(floor),
                                              upstream_url, timed=True),
                        log=folder / "passthrough.log") as floored, \
                running(proxy, *timed_command(folder / "serve.times", "serve", "--ruleset",
                                              "hearth-and-haul", "--upstream", upstream_url,
                                              "--port", str(proxy), "--log-level", "warning",
                                              "--store", f"sqlite:///{folder / 'games.db'}",
                                              timed=True),
                        log=folder / "serve.log") as served:
            arrange(upstreamed.pid, (floored.pid, served.pid))
            urls = {"direct": upstream_url, "passthrough": f"http://127.0.0.1:{floor}",
                    "serve": f"http://127.0.0.1:{proxy}"}
            https = {path: httpx.AsyncClient(base_url=url, timeout=60.0)
                     for path, url in urls.items()}
            try:
                for turn in range(TURNS):
                    for number, chat in enumerate(chats):
                        chat.append({"role": "user",
                                     "content": f"Turn {turn + 1} of chat {number}."})
                        await _turn(https, chat, streams)
            finally:
                for http in https.values():
                    await http.aclose()
    return streams


async def _turn(https: dict[str, httpx.AsyncClient], chat: list[dict[str, Any]],
                streams: dict[str, list[Streamed]]) -> None:
    """One turn of ``chat`` on every path; ``serve``'s reply goes on in the history."""
    body = {"model": "m", "stream": True, "messages": chat}
    for path in PATHS:
        streamed = await timed(https[path], body)
        streams[path].append(streamed)
        if path == "serve":
            chat.append({"role": "assistant", "content": streamed.text})


def by_band(values: list[float]) -> list[float]:
    """The p50 of each band of turns (``CHATS`` values a turn)."""
    size = CHATS * BAND
    return [statistics.median(values[start:start + size])
            for start in range(0, len(values), size)]


@pytest.mark.benchmark(group="proxy-long-chat")
def test_first_byte_by_the_chats_length(benchmark: Any, tmp_path: Path) -> None:
    streams: dict[str, list[Streamed]] = {}

    def run() -> None:
        streams.update(asyncio.run(played(tmp_path)))

    benchmark.pedantic(run, rounds=1, iterations=1)
    direct = [s.first for s in streams["direct"]]
    added = {path: by_band([s.first - d for s, d in zip(streams[path], direct, strict=True)])
             for path in PATHS[1:]}
    to_head = {path: by_band([m["head"] * 1000 - m["arrived"] * 1000 for m in
                              server_moments(tmp_path / f"{path}.times")])
               for path in PATHS[1:]}
    benchmark.extra_info.update({"added_ms": added, "to_head_ms": to_head})
    print(f"\n{CHATS} chats played in turn to {TURNS} turns, p50 by turns (ms): added to the "
          "direct first byte; in the server, request to head")
    for n, start in enumerate(range(0, TURNS, BAND)):
        print(f"  turns {start + 1}-{min(start + BAND, TURNS)}: pass-through adds "
              f"{added['passthrough'][n]:.2f}, serve adds {added['serve'][n]:.2f} | in the "
              f"server: pass-through {to_head['passthrough'][n]:.2f}, serve "
              f"{to_head['serve'][n]:.2f} ({to_head['serve'][n] - to_head['passthrough'][n]:+.2f})")
    assert len(streams["serve"]) == CHATS * TURNS
