"""The proxy under load: a bounded run of streamed requests, 200 at a time, each a new chat, through
a real ``serve`` app (SQLite store, ``--chats 256``) in front of a fake upstream on 127.0.0.1.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_proxy_load.py -s`` (``GM_LOAD_REQUESTS``
and ``GM_LOAD_CONCURRENCY`` change the size). It asserts what must hold whatever the machine: no
error, every streamed text equal to its stored candidate, and memory that stops growing once the
caches are full (the resident size after the second half within 10% of it after the first half);
it prints the figures and asserts no time.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
from pathlib import Path

import httpx

from middleware.proxy import ServeOptions
from tests.proxy.conftest import CHECK, chat_for, history
from tests.proxy.fake_upstream import Answer, FakeUpstream, served

REQUESTS = int(os.environ.get("GM_LOAD_REQUESTS", "2000"))
CONCURRENCY = int(os.environ.get("GM_LOAD_CONCURRENCY", "200"))
REPLY = (f"The rain drums on the roof. {CHECK} The lock gives. "
         '[inventory: action="add" item="Rope" who="Ada"] ' + "Then the road. " * 20)


def resident_mb() -> float:
    """This process's resident set size now, in MB (Linux ``/proc``)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * resource.getpagesize() / 1e6


async def one(http: httpx.AsyncClient, n: int) -> tuple[str, str]:
    """(chat id, streamed text) of request ``n``: a new chat's first turn, streamed."""
    messages = history("I pick the lock.", system=f"Load chat {n}.")
    body = {"model": "m", "messages": messages, "stream": True}
    async with http.stream("POST", "/v1/chat/completions", json=body) as response:
        assert 200 == response.status_code
        raw = (await response.aread()).decode()
    assert raw.endswith("data: [DONE]\n\n")
    events = [json.loads(line[6:]) for line in raw.split("\n") if line.startswith("data: {")]
    text = "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])
    return chat_for(messages), text


async def wave(http: httpx.AsyncClient, start: int, count: int) -> list[tuple[str, str]]:
    limit = asyncio.Semaphore(CONCURRENCY)

    async def bounded(n: int) -> tuple[str, str]:
        async with limit:
            return await one(http, n)

    return await asyncio.gather(*(bounded(n) for n in range(start, start + count)))


async def test_streams_under_load_are_stored_as_streamed_with_flat_memory(tmp_path: Path) -> None:
    """REQUESTS streamed requests, CONCURRENCY at a time: no error, streamed == stored for every
    one, resident memory flat between the first and the second half."""
    upstream = FakeUpstream([Answer(REPLY) for _ in range(REQUESTS)])
    options = ServeOptions(chats=256, timeout=60.0)
    limits = httpx.Limits(max_connections=CONCURRENCY, max_keepalive_connections=CONCURRENCY)
    async with served(upstream, options, store=f"sqlite:///{tmp_path / 'load.db'}") as proxy, \
            httpx.AsyncClient(base_url=proxy.url, timeout=60.0, limits=limits) as http:
        loop = asyncio.get_running_loop()
        began = loop.time()
        half = REQUESTS // 2
        first = await wave(http, 0, half)
        after_first = resident_mb()
        second = await wave(http, half, REQUESTS - half)
        after_second = resident_mb()
        took = loop.time() - began
        mismatched = [chat for chat, text in first + second
                      if (await proxy.engine.candidates(chat, 1))[0].text != text]
    print(f"\n{REQUESTS} streams, {CONCURRENCY} at a time: {took:.1f} s "
          f"({REQUESTS / took:.0f}/s); RSS {after_first:.1f} MB after {half}, "
          f"{after_second:.1f} MB after {REQUESTS}")
    assert [] == mismatched
    assert after_second <= after_first * 1.10


