"""The proxy under load: a bounded run of streamed requests, 200 at a time, through
``gm-middleware serve`` run as a process (SQLite store, ``--display cards``, ``--chats 10``) in
front of a fake upstream on 127.0.0.1 (a process of its own); the clients are the test's.

Real use is many chats of bounded length, so each of the 200 slots plays chats of
``GM_LOAD_TURNS`` turns (default 5) and then opens a new one; the slots are staggered (slot ``k``'s
first chat is ``k % GM_LOAD_TURNS`` turns short), so every wave sends the same mix of history
lengths. With the default 3,000 requests the proxy sees 700 chats: 70 times the engine's chats in
memory (``--chats``), over four times its index of stored replies (16 × ``--chats``), and the
200 chats played at once are more than that index holds, so chats are let go and read back while
their requests route. The second test plays the same waves with ``serve``'s own ``--chats``
(1,024), as a server sized for its players runs: every chat played stays in memory, and the
difference between the two is what letting chats go costs.

Each slot has an HTTP client of its own, as each player has (``players``): one client's pool
shared by all the slots cost the test's own process more than the servers it measured.

The same waves are played against the fake upstream directly, through a proxy that does nothing
(``passthrough``, the floor of the stack ``serve`` runs on) and through the proxy, each with slots
and clients of its own, the three in turn wave by wave: the throughput through the proxy is printed
beside the upstream's own and the floor's, measured in one run. Played one path after the other
(all the direct waves, then the floor's, then the proxy's), the ratio for the same code moved
between 0.55x and 0.78x from run to run, as the machine's speed drifted under one path's waves
and not another's; in turn, a drift falls on the three alike.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_proxy_load.py -s``
(``GM_LOAD_REQUESTS``, ``GM_LOAD_CONCURRENCY``, ``GM_LOAD_TURNS`` and ``GM_LOAD_CHATS`` for
``--chats`` change the size; ``GM_LOAD_TURNS=0`` plays one chat per slot all along, so
``GM_LOAD_TURNS=0 GM_LOAD_REQUESTS=4000 GM_LOAD_CHATS=50`` is the run of 200 chats of 20 turns;
``GM_LOAD_ONE_TEXT=1`` gives every chat the same reply (told apart by its dice alone, so each
history matches stored replies of many chats); ``GM_LOAD_TRACE=1`` runs the server under
``tracemalloc``, ``traced_serve``, and prints what it holds after each wave; ``GM_LOAD_FLOOR=aiohttp``
runs the proxy that does nothing on aiohttp's own server, ``passthrough``). It asserts what
must hold whatever the machine: no error, every streamed text equal to its stored candidate,
and the server's memory flat once its caches are full (its resident size after the last wave
within 5% of it halfway; not asserted for the long chats, whose index entries and requests grow
with every turn); it prints the figures (throughput on each path, and the CPU time a stream of
the proxy that does nothing and of the proxy) and asserts no time.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from middleware.display import for_people
from middleware.engine import Engine
from middleware.stores import open_store
from tests.benchmarks.processes import cpu_seconds, free_port, gm_middleware, resident_mb, running
from tests.conftest import compat_path
from tests.proxy.conftest import CHECK, chat_for

REQUESTS = int(os.environ.get("GM_LOAD_REQUESTS", "3000"))
CONCURRENCY = int(os.environ.get("GM_LOAD_CONCURRENCY", "200"))
TURNS = int(os.environ.get("GM_LOAD_TURNS", "5"))
CHATS = int(os.environ.get("GM_LOAD_CHATS", str(max(1, CONCURRENCY // 20))))
TRACE = os.environ.get("GM_LOAD_TRACE", "") not in ("", "0")
FLOOR = ("aiohttp",) if os.environ.get("GM_LOAD_FLOOR") == "aiohttp" else ()
"""The pass-through's stack: ``serve``'s (Starlette under uvicorn), or aiohttp's own server."""
ONE_TEXT = os.environ.get("GM_LOAD_ONE_TEXT", "") not in ("", "0")
REPLY = ("" if ONE_TEXT else "{said} ") + (f"The rain drums on the roof. {CHECK} The lock gives. "
         '[inventory: action="add" item="Rope" who="Ada"] ' + "Then the road. " * 20)


@dataclass
class Slot:
    """One of the clients playing at once: the chat it plays now, and how many chats it opened."""

    number: int
    messages: list[dict[str, Any]] = field(default_factory=list)
    opened: int = 0
    length: int = TURNS

    def next_message(self) -> list[dict[str, Any]]:
        """The history of its next turn: the chat's, or a new chat's once it played its turns
        (``TURNS`` 0: one chat all along)."""
        if not self.messages or (TURNS > 0 and len(self.messages) // 2 >= self.length):
            staggered = self.opened == 0 and TURNS > 0
            self.length = TURNS - self.number % TURNS if staggered else TURNS
            self.opened += 1
            self.messages = [{"role": "system",
                              "content": f"Load chat {self.number}-{self.opened}."}]
        self.messages.append({"role": "user", "content": f"Turn {len(self.messages) // 2 + 1} of "
                                                         f"chat {self.number}-{self.opened}."})
        return list(self.messages)


@dataclass(frozen=True)
class Played:
    """One request: its chat's opening, its turn and the text streamed back."""

    opening: list[dict[str, Any]]
    turn: int
    text: str


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


@asynccontextmanager
async def players(url: str, count: int) -> AsyncIterator[list[httpx.AsyncClient]]:
    """A client of its own for each of ``count`` slots, as each player has: one pool shared by
    200 streams at once costs httpx work in the number of connections at every request and
    every response's end (its pool looks at each connection), which made the test's own process
    the bottleneck, and the more so the slower the server answered."""
    limits = httpx.Limits(max_connections=1, keepalive_expiry=1.0)  # below the server's 5 s
    async with AsyncExitStack() as stack:
        yield [await stack.enter_async_context(
            httpx.AsyncClient(base_url=url, timeout=120.0, limits=limits)) for _ in range(count)]


async def wave(http: list[httpx.AsyncClient], slots: list[Slot]) -> list[Played]:
    """Every slot plays its next turn at once, each with its client: the player speaks, the
    reply is kept."""
    sent = [slot.next_message() for slot in slots]
    texts = await asyncio.gather(*(one(client, messages)
                                   for client, messages in zip(http, sent, strict=True)))
    for slot, text in zip(slots, texts, strict=True):
        slot.messages.append({"role": "assistant", "content": text})
    return [Played(messages[:2], len(messages) // 2, text)
            for messages, text in zip(sent, texts, strict=True)]


@dataclass
class Leg:
    """One path the waves are played on (the upstream directly, the proxy that does nothing, the
    proxy): its slots, their clients, and what its waves took."""

    http: list[httpx.AsyncClient]
    pid: int | None = None
    """The server process whose CPU time is counted (None: the upstream's, not counted)."""
    slots: list[Slot] = field(default_factory=lambda: [Slot(n) for n in range(CONCURRENCY)])
    seconds: float = 0.0
    cpu: float = 0.0

    async def wave(self) -> list[Played]:
        loop = asyncio.get_running_loop()
        cpu = cpu_seconds(self.pid) if self.pid is not None else 0.0
        began = loop.time()
        played = await wave(self.http, self.slots)
        self.seconds += loop.time() - began
        if self.pid is not None:
            self.cpu += cpu_seconds(self.pid) - cpu
        return played


def serve_command() -> list[str]:
    """``gm-middleware serve``, or the traced server in its place (``GM_LOAD_TRACE``)."""
    if TRACE:
        return [sys.executable, "-m", "tests.benchmarks.traced_serve"]
    return [gm_middleware(), "serve"]


async def traced(http: httpx.AsyncClient, number: int) -> None:
    """What the traced server holds after wave ``number``, printed."""
    seen = (await http.get("/debug/memory")).json()
    print(f"\nwave {number}: traced {seen['traced_mb']:.1f} MB (peak {seen['peak_mb']:.1f}), "
          f"{seen['gc_objects']} objects, caches {seen['caches']}")
    for line in seen["grown"][:8]:
        print("   ", line)


async def test_streams_under_load_are_stored_as_streamed_with_flat_memory(tmp_path: Path) -> None:
    """CONCURRENCY slots play REQUESTS / CONCURRENCY waves, each slot a chat of TURNS turns after
    another, every slot's turn at once, streamed, shown as cards (the history put back each
    turn), with CHATS chats in the engine's memory: no error, every streamed text is its stored
    candidate as shown, and the server's resident memory is flat once its caches are full."""
    memory = await under_load(tmp_path, CHATS)
    if TURNS > 0:  # long chats (0) hold more each turn: their index entries and request bodies
        assert memory[-1] <= memory[len(memory) // 2] * 1.05


async def test_streams_under_load_with_every_chat_held(tmp_path: Path) -> None:
    """The same waves with ``serve``'s own ``--chats`` (1,024): every chat played at once stays
    in the engine's memory and the index, as on a server sized for its players, where the test
    above makes it let them go and read them back on nearly every request. No error, every
    streamed text its stored candidate; the caches fill all along, so memory is printed, not
    held to anything."""
    await under_load(tmp_path, None)


async def under_load(tmp_path: Path, chats_held: int | None) -> list[float]:
    """The waves played on the three paths in turn, with ``--chats chats_held`` (None: ``serve``'s
    default); the figures printed, every streamed text checked against the store. The server's
    resident memory after each wave."""
    waves = REQUESTS // CONCURRENCY
    store = f"sqlite:///{tmp_path / 'load.db'}"
    port, upstream_port, floor_port = free_port(), free_port(), free_port()
    upstream_url = f"http://127.0.0.1:{upstream_port}"
    url = f"http://127.0.0.1:{port}"
    held = ("--chats", str(chats_held)) if chats_held is not None else ()
    played: list[Played] = []
    memory: list[float] = []
    async with running(upstream_port, "-m", "tests.proxy.fake_upstream", str(upstream_port),
                       REPLY, log=tmp_path / "upstream.log"), \
            running(floor_port, "-m", "tests.benchmarks.passthrough", str(floor_port),
                    upstream_url, *FLOOR, log=tmp_path / "passthrough.log") as floor, \
            running(port, *serve_command(), "--ruleset", str(compat_path("ember-roads.json")),
                    "--upstream", upstream_url, "--store", store, "--port", str(port), *held,
                    "--display", "cards", "--log-level", "warning",
                    log=tmp_path / "serve.log") as server, \
            players(upstream_url, CONCURRENCY) as direct_http, \
            players(f"http://127.0.0.1:{floor_port}", CONCURRENCY) as floor_http, \
            players(url, CONCURRENCY) as proxy_http:
        direct, passed, proxied = (Leg(direct_http), Leg(floor_http, floor.pid),
                                   Leg(proxy_http, server.pid))
        for number in range(1, waves + 1):  # the legs in turn, so the machine's drift hits each
            await direct.wave()
            await passed.wave()
            played += await proxied.wave()
            memory.append(resident_mb(server.pid))
            if TRACE:
                await traced(proxy_http[0], number)
    took_direct, took_floor, took = direct.seconds, passed.seconds, proxied.seconds
    floor_cpu, serve_cpu, slots = passed.cpu, proxied.cpu, proxied.slots
    mismatched = await not_as_stored(store, played)
    streams = waves * CONCURRENCY
    chats = sum(slot.opened for slot in slots)
    print(f"\n{waves} waves of {CONCURRENCY} streams at once ({streams} streams, {chats} chats of "
          f"up to {TURNS or waves} turns, --chats {chats_held or 'as serve sets it, 1024'}): "
          f"direct {took_direct:.1f} s "
          f"({streams / took_direct:.1f}/s), through a proxy that does nothing {took_floor:.1f} s "
          f"({streams / took_floor:.1f}/s, {took_direct / took_floor:.2f}x: the stack's floor), "
          f"through the proxy {took:.1f} s "
          f"({streams / took:.1f}/s): {took_direct / took:.2f}x the upstream's throughput; CPU "
          f"a stream: the proxy that does nothing {1000 * floor_cpu / streams:.2f} ms, the proxy "
          f"{1000 * serve_cpu / streams:.2f} ms; server RSS after each wave: "
          + ", ".join(f"{mb:.0f}" for mb in memory) + " MB")
    assert [] == mismatched
    return memory


async def not_as_stored(store: str, played: list[Played]) -> list[tuple[str, int]]:
    """(chat, turn) of every streamed text that is not its stored candidate as shown."""
    engine = Engine(await open_store(store))
    wrong: list[tuple[str, int]] = []
    try:
        for one_played in played:
            chat = chat_for(one_played.opening)
            stored = [for_people(c.text, c.records)
                      for c in await engine.candidates(chat, one_played.turn)]
            if stored != [one_played.text]:
                wrong.append((chat, one_played.turn))
    finally:
        await engine.store.close()
    return wrong
