"""A proxy you can leave running (SPEC §7, §8, §9): its own bearer token, a body limit, bounded
per-chat memory, and one JSON log stream from ``gm-middleware serve`` itself."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from middleware.engine import Engine
from middleware.proxy import ServeOptions
from middleware.stores import open_store
from middleware.stores.memory import MemoryStore
from tests.proxy.conftest import CHECK, TIMEOUT, chat_for, free_socket, hearth, history, serving
from tests.proxy.fake_upstream import SECRET, Answer, FakeUpstream, served
from tests.rulesets import bundled_path

TOKEN = "proxy-token-123"


async def test_with_a_token_every_route_needs_it_and_it_never_goes_upstream() -> None:
    """``--auth-token``: no token or a wrong one is 401 on every route (known or not); the right
    one is served, and the proxy's token is not sent to the model server."""
    upstream = FakeUpstream([Answer("Fine.")])
    options = ServeOptions(auth_token=TOKEN, timeout=TIMEOUT)
    async with served(upstream, options) as proxy, proxy.client() as http:
        body = {"model": "m", "messages": history("Hello.")}
        refused = [await http.get("/v1/models"),
                   await http.post("/v1/chat/completions", json=body),
                   await http.get("/anything", headers={"Authorization": "Bearer wrong"}),
                   await http.get("/v1/models", headers={"Authorization": TOKEN})]
        good = {"Authorization": f"Bearer {TOKEN}"}
        served_ = [await http.get("/v1/models", headers=good),
                   await http.post("/v1/chat/completions", json=body, headers=good)]
    assert [401] * 4 == [r.status_code for r in refused]
    assert {"authentication_error"} == {r.json()["error"]["type"] for r in refused}
    assert [200, 200] == [r.status_code for r in served_]
    assert "authorization" not in upstream.headers[0]


async def test_a_body_over_the_limit_is_a_413_announced_or_not() -> None:
    """A body longer than ``--max-body`` is refused with 413, whether its ``Content-Length``
    says so up front or it comes chunked; the model is never asked."""
    upstream = FakeUpstream()
    big = json.dumps({"model": "m", "messages": history("x" * 5000)}).encode()

    async def chunked() -> AsyncIterator[bytes]:
        for at in range(0, len(big), 1000):
            yield big[at : at + 1000]

    async with served(upstream, ServeOptions(max_body=4096, timeout=TIMEOUT)) as proxy, \
            proxy.client() as http:
        sized = await http.post("/v1/chat/completions", content=big,
                                headers={"Content-Type": "application/json"})
        streamed = await http.post("/v1/chat/completions", content=chunked(),
                                   headers={"Content-Type": "application/json"})
    assert [413, 413] == [sized.status_code, streamed.status_code]
    assert "longer than 4096 bytes" in streamed.json()["error"]["message"]
    assert [] == upstream.seen


async def test_a_chat_evicted_from_memory_is_read_back_from_the_store_whole() -> None:
    """With room for one chat in memory, three chats take turns; the first one, evicted, goes
    on from its stored state (the Rope it got on turn 1 is there on turn 2)."""
    rope = '[inventory: action="add" item="Rope" who="Ada"]'
    drop = '[inventory: action="remove" item="Rope" who="Ada"]'
    upstream = FakeUpstream([Answer(rope), Answer(CHECK), Answer(CHECK), Answer(drop)])
    chats = [history("Hello.", system=f"Chat {n}.") for n in range(3)]
    async with served(upstream, ServeOptions(chats=1, timeout=TIMEOUT)) as proxy, \
            proxy.client() as http:
        replies = [(await http.post("/v1/chat/completions", json={"model": "m", "messages": m}))
                   .json()["choices"][0]["message"]["content"] for m in chats]
        first = chats[0][1:]
        # the reply sent back as the chat kept it: an edited reply would be another candidate
        again = history(first[0]["content"], replies[0], "Drop it.", system="Chat 0.")
        answer = (await http.post("/v1/chat/completions",
                                  json={"model": "m", "messages": again})).json()
    assert 'now="0"' in answer["choices"][0]["message"]["content"]


async def read_events(stderr: asyncio.StreamReader, until: str, limit: int = 200) -> list[str]:
    """Lines from ``stderr`` up to the first that holds ``until``."""
    lines: list[str] = []
    while len(lines) < limit:
        line = (await asyncio.wait_for(stderr.readline(), TIMEOUT)).decode()
        if not line:
            break
        lines.append(line)
        if until in line:
            break
    return lines


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process handling")
async def test_serve_writes_one_json_stream_with_access_lines_and_upstream_failures() -> None:
    """``gm-middleware serve`` run as a user runs it: every line it writes is JSON (uvicorn's
    own lines included); each request is an ``http-request`` event with its status, and an
    upstream failure is an ``upstream-failed`` event with the upstream's status (and without
    the key its error text echoed)."""
    upstream = FakeUpstream([Answer("Fine."), Answer(status=500)])
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    async with serving(upstream.app()) as upstream_url:
        process = await asyncio.create_subprocess_exec(
            str(Path(sys.executable).parent / "gm-middleware"), "serve",
            "--ruleset", str(bundled_path("hearth-and-haul")), "--upstream", upstream_url,
            "--store", "memory://", "--port", str(port),
            stderr=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "GM_PROXY_TOKEN": TOKEN})
        try:
            assert process.stderr is not None
            lines = await read_events(process.stderr, "Uvicorn running")
            answers = await _ask_twice(f"http://127.0.0.1:{port}")
            lines += await read_events(process.stderr, '"status":500')
        finally:
            if process.returncode is None:
                process.terminate()
            await process.wait()
    events: list[dict[str, Any]] = [json.loads(line) for line in lines]
    assert [200, 502] == answers
    assert {"server", "http-request", "upstream-failed"} <= {e["event"] for e in events}
    assert [200] == [e["status"] for e in events if e["event"] == "http-request"][:1]
    assert [500] == [e["status"] for e in events if e["event"] == "upstream-failed"]
    assert SECRET not in "".join(lines)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
async def test_serve_given_sigterm_mid_stream_finishes_the_stream_and_stores_it(
        tmp_path: Path) -> None:
    """``gm-middleware serve`` gets SIGTERM while a reply streams (the model paused half way):
    the client still gets the whole reply and ``[DONE]``, the candidate is in the store, and
    then the process ends on that signal (uvicorn raises it again once the server has stopped,
    so a process manager sees how it ended)."""
    upstream = FakeUpstream([Answer(f"Ada pulls. {CHECK} It gives.", pause=0.5)])
    store = f"sqlite:///{tmp_path / 'games.db'}"
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    messages = history("I pull the lever.")
    async with serving(upstream.app()) as upstream_url:
        process = await asyncio.create_subprocess_exec(
            str(Path(sys.executable).parent / "gm-middleware"), "serve",
            "--ruleset", str(bundled_path("hearth-and-haul")), "--upstream", upstream_url,
            "--store", store, "--port", str(port),
            stderr=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        try:
            assert process.stderr is not None
            await read_events(process.stderr, "Uvicorn running")
            body = {"model": "m", "messages": messages, "stream": True}
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}",
                                         timeout=TIMEOUT) as http, \
                    http.stream("POST", "/v1/chat/completions", json=body) as response:
                chunks = response.aiter_raw()
                raw = await anext(chunks)
                process.send_signal(signal.SIGTERM)  # the first event is in
                raw += b"".join([data async for data in chunks])
            exit_code = await asyncio.wait_for(process.wait(), TIMEOUT)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    engine = Engine(await open_store(store))
    try:
        stored = await engine.candidates(chat_for(messages), 1)
    finally:
        await engine.store.close()
    events = [json.loads(line[6:]) for line in raw.decode().split("\n")
              if line.startswith("data: {")]
    text = "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])
    assert raw.decode().rstrip("\n").endswith("data: [DONE]")
    assert ([stored[0].text], -signal.SIGTERM) == ([text], exit_code)


async def _ask_twice(url: str) -> list[int]:
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT,
                                 headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        body = {"model": "m", "messages": history("Hello.")}
        return [(await http.post("/v1/chat/completions", json=body)).status_code
                for _ in range(2)]


async def test_games_read_back_after_eviction_share_one_ruleset_object() -> None:
    """With room for one chat, two chats of one ruleset alternate: each time a game is read
    back it gets the same ruleset object, not a new copy per chat (which every per-ruleset
    cache would keep: memory grew by about 1 MB per request before)."""
    engine = Engine(MemoryStore(), chats=1)
    games = hearth()
    for chat in ("a", "b"):
        await engine.create_game(chat, games.ruleset, games.party)
    seen = [await engine.ruleset(chat) for chat in ("a", "b", "a", "b")]
    assert [games.ruleset] * 4 == seen
    assert all(ruleset is games.ruleset for ruleset in seen)
