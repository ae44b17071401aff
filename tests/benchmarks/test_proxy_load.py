"""The proxy under load: a bounded run of streamed requests, 200 at a time, each a new chat, through
``gm-middleware serve`` run as a process (SQLite store, ``--chats 50``) in front of a fake upstream
on 127.0.0.1 (a process of its own); the clients are the test's.

The same waves are first played against the fake upstream directly, so the throughput through the
proxy is printed beside the upstream's own, measured in one run.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_proxy_load.py -s`` (``GM_LOAD_REQUESTS``
and ``GM_LOAD_CONCURRENCY`` change the size). It asserts what must hold whatever the machine: no
error, every streamed text equal to its stored candidate, and the server's memory flat once its
caches are full (its resident size after the last wave within 10% of it halfway); it prints the
figures and asserts no time.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx

from middleware.display import for_people
from middleware.engine import Engine
from middleware.stores import open_store
from tests.conftest import compat_path
from tests.proxy.conftest import CHECK, chat_for, free_socket

REQUESTS = int(os.environ.get("GM_LOAD_REQUESTS", "2000"))
CONCURRENCY = int(os.environ.get("GM_LOAD_CONCURRENCY", "200"))
REPLY = (f"The rain drums on the roof. {CHECK} The lock gives. "
         '[inventory: action="add" item="Rope" who="Ada"] ' + "Then the road. " * 20)


def resident_mb(pid: int) -> float:
    """The resident set size of process ``pid`` now, in MB (Linux ``/proc``)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines()
                    if line.startswith("VmRSS:"))) / 1000

async def one(http: httpx.AsyncClient, messages: list[dict[str, Any]]) -> str:
    """The streamed text of one request."""
    body = {"model": "m", "messages": messages, "stream": True}
    async with http.stream("POST", "/v1/chat/completions", json=body) as response:
        assert 200 == response.status_code
        raw = (await response.aread()).decode()
    data = [line for line in raw.split("\n") if line.startswith("data:")]
    assert "data: [DONE]" == data[-1]  # a keep-alive comment may still follow it
    events = [json.loads(line[6:]) for line in raw.split("\n") if line.startswith("data: {")]
    return "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])


async def turn(http: httpx.AsyncClient, chats: list[list[dict[str, Any]]]) -> list[str]:
    """Every chat plays its next turn at once: the player speaks, the reply is kept."""
    for messages in chats:
        messages.append({"role": "user", "content": f"Turn {len(messages) // 2 + 1}."})
    texts = await asyncio.gather(*(one(http, list(messages)) for messages in chats))
    for messages, text in zip(chats, texts, strict=True):
        messages.append({"role": "assistant", "content": text})
    return list(texts)


def free_port() -> int:
    sock = free_socket()
    port: int = sock.getsockname()[1]
    sock.close()
    return port


async def started(url: str) -> None:
    """Wait until the server at ``url`` answers."""
    async with httpx.AsyncClient(base_url=url, timeout=5.0) as http:
        for _ in range(300):
            try:
                if (await http.get("/v1/models")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise AssertionError("the proxy did not start")


async def test_streams_under_load_are_stored_as_streamed_with_flat_memory(tmp_path: Path) -> None:
    """CONCURRENCY chats play REQUESTS / CONCURRENCY turns each, every turn of every chat at once,
    streamed, shown as cards (the history put back each turn), with room for a quarter of the
    chats in memory: no error, every streamed text is its stored candidate as shown, and the
    server's resident memory is flat from the second turn to the last."""
    turns = REQUESTS // CONCURRENCY
    store = f"sqlite:///{tmp_path / 'load.db'}"
    port, upstream_port = free_port(), free_port()
    limits = httpx.Limits(max_connections=CONCURRENCY, max_keepalive_connections=CONCURRENCY,
                          keepalive_expiry=1.0)  # below the server's 5 s: never reuse one it closed
    chats = [[{"role": "system", "content": f"Load chat {n}."}] for n in range(CONCURRENCY)]
    shown: list[list[str]] = []
    upstream_url = f"http://127.0.0.1:{upstream_port}"
    with open(tmp_path / "upstream.log", "wb") as log:
        upstream = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.proxy.fake_upstream", str(upstream_port), REPLY,
            stdout=log, stderr=log)
    loop = asyncio.get_running_loop()
    try:
        await started(upstream_url)
        direct = [list(messages) for messages in chats]
        async with httpx.AsyncClient(base_url=upstream_url, timeout=120.0,
                                     limits=limits) as http:
            began = loop.time()
            for _ in range(turns):
                await turn(http, direct)
            took_direct = loop.time() - began
        with open(tmp_path / "serve.log", "wb") as log:
            server = await asyncio.create_subprocess_exec(
                str(Path(sys.executable).parent / "gm-middleware"), "serve",
                "--ruleset", str(compat_path("ember-roads.json")), "--upstream", upstream_url,
                "--store", store, "--port", str(port), "--chats", str(CONCURRENCY // 4),
                "--display", "cards", "--log-level", "warning", stdout=log, stderr=log)
        try:
            url = f"http://127.0.0.1:{port}"
            await started(url)
            async with httpx.AsyncClient(base_url=url, timeout=120.0, limits=limits) as http:
                began = loop.time()
                memory = []
                for _ in range(turns):
                    shown.append(await turn(http, chats))
                    memory.append(resident_mb(server.pid))
                took = loop.time() - began
        finally:
            server.terminate()
            await server.wait()
    finally:
        upstream.terminate()
        await upstream.wait()
    mismatched = await not_as_stored(store, chats, shown)
    streams = turns * CONCURRENCY
    print(f"\n{turns} turns of {CONCURRENCY} chats at once ({streams} streams): direct "
          f"{took_direct:.1f} s ({streams / took_direct:.1f}/s), through the proxy {took:.1f} s "
          f"({streams / took:.1f}/s): {took_direct / took:.2f}x the upstream's throughput; "
          "server RSS after each turn: " + ", ".join(f"{mb:.0f}" for mb in memory) + " MB")
    assert [] == mismatched
    assert memory[-1] <= memory[len(memory) // 2] * 1.10


async def not_as_stored(store: str, chats: list[list[dict[str, Any]]],
                        shown: list[list[str]]) -> list[tuple[str, int]]:
    """(chat, turn) of every streamed text that is not its stored candidate as shown."""
    engine = Engine(await open_store(store))
    wrong: list[tuple[str, int]] = []
    try:
        for number, texts in enumerate(shown, start=1):
            for messages, text in zip(chats, texts, strict=True):
                chat = chat_for(messages[:2])
                stored = [for_people(c.text, c.records)
                          for c in await engine.candidates(chat, number)]
                if stored != [text]:
                    wrong.append((chat, number))
    finally:
        await engine.store.close()
    return wrong
