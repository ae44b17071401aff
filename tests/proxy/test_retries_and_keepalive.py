"""Concurrent retries and streams that stay alive (SPEC §3 retries, §7 proxy), over real HTTP
against a real ``serve`` app and a fake upstream."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from middleware.proxy import ServeOptions
from tests.proxy.conftest import CHECK, TIMEOUT, chat_for, history
from tests.proxy.fake_upstream import Answer, FakeUpstream, served, tool_call

REPLY = f"Ada pulls. {CHECK} It gives."


async def ask(http: httpx.AsyncClient, messages: list[dict[str, Any]], stream: bool,
              key: str | None = None) -> tuple[str, dict[str, Any]]:
    """(the reply text, the ``gm`` block) of one answer, streamed or not."""
    headers = {"Idempotency-Key": key} if key else {}
    body = {"model": "m", "messages": messages, "stream": stream}
    if not stream:
        answer = (await http.post("/v1/chat/completions", json=body, headers=headers)).json()
        return answer["choices"][0]["message"]["content"], answer["gm"]
    async with http.stream("POST", "/v1/chat/completions", json=body, headers=headers) as response:
        events = [json.loads(line[6:]) for line in
                  (await response.aread()).decode().split("\n") if line.startswith("data: {")]
    text = "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])
    return text, next(e["gm"] for e in events if "gm" in e)


async def test_concurrent_retries_wait_for_the_first_and_get_its_stored_answer() -> None:
    """Four clients send the same request with the same ``Idempotency-Key`` at once (two of them
    streaming): the model is asked once, one candidate is stored, and every client is shown
    exactly that candidate; only the first is not ``replayed``."""
    gate = asyncio.Event()
    upstream = FakeUpstream([Answer(REPLY, gate=gate)])
    messages = history("I pull the lever.")
    async with served(upstream) as proxy, proxy.client() as http:
        tasks = [asyncio.create_task(ask(http, messages, stream, key="retry-1"))
                 for stream in (True, False, True, False)]
        while not upstream.seen:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)  # let the retries reach the proxy and wait there
        gate.set()
        answers = await asyncio.gather(*tasks)
        stored = await proxy.engine.candidates(chat_for(messages), 1)
    assert (1, 1) == (len(upstream.seen), len(stored))
    assert {stored[0].text} == {text for text, _ in answers}
    assert [False, True, True, True] == sorted(gm["replayed"] for _, gm in answers)
    assert {0} == {gm["candidate"] for _, gm in answers}


async def test_a_retry_after_a_failed_first_asks_the_model_itself() -> None:
    """When the first request stored nothing (its upstream failed), the retry waiting behind it
    asks the model and is answered."""
    gate = asyncio.Event()
    upstream = FakeUpstream([Answer(status=500, gate=gate), Answer(REPLY)])
    messages = history("I pull the lever.")
    async with served(upstream) as proxy, proxy.client() as http:
        body = {"model": "m", "messages": messages}
        first = asyncio.create_task(http.post("/v1/chat/completions", json=body,
                                              headers={"Idempotency-Key": "k"}))
        while not upstream.seen:
            await asyncio.sleep(0.01)
        second = asyncio.create_task(ask(http, messages, False, key="k"))
        await asyncio.sleep(0.3)
        gate.set()
        failed, (text, gm) = await first, await second
    assert (502, False, 2) == (failed.status_code, gm["replayed"], len(upstream.seen))
    assert 'rolls="' in text


async def test_keep_alive_comments_flow_while_a_tag_is_held_and_the_text_still_adds_up() -> None:
    """The model stalls in the middle of a tag: SSE comments keep the connection alive while
    the tag is held; reasoning and tool-call deltas are interleaved with the text; the streamed
    text is still exactly the stored candidate."""
    call = tool_call("map", '{"where": "the grate"}')
    upstream = FakeUpstream([Answer(REPLY, reasoning="Think about the lever first.",
                                    tool_calls=[call], pause=0.6)])
    messages = history("I pull the lever.")
    async with served(upstream, ServeOptions(keepalive=0.05, timeout=TIMEOUT)) as proxy, \
            proxy.client() as http:
        body = {"model": "m", "messages": messages, "stream": True}
        async with http.stream("POST", "/v1/chat/completions", json=body) as response:
            raw = (await response.aread()).decode()
        stored = await proxy.engine.candidates(chat_for(messages), 1)
    lines = [line for line in raw.split("\n") if line]
    events = [json.loads(line[6:]) for line in lines if line.startswith("data: {")]
    text = "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])
    tag_at = next(i for i, line in enumerate(lines) if "rolls=" in line)
    held_from = max(i for i, line in enumerate(lines[:tag_at]) if line.startswith("data: {")
                    and "content" in json.loads(line[6:])["choices"][0]["delta"])
    assert stored[0].text == text
    assert any(line == ": keep-alive" for line in lines[held_from:tag_at])
    assert "Think about the lever first." == "".join(
        e["choices"][0]["delta"].get("reasoning_content") or "" for e in events if e["choices"])


async def test_a_stream_the_client_drops_stores_nothing_and_frees_its_key() -> None:
    """The client goes away while the model is still writing: nothing is stored, and a retry
    with the same key is not left waiting: it asks the model and is answered."""
    upstream = FakeUpstream([Answer(REPLY, pause=1.0), Answer(REPLY)])
    messages = history("I pull the lever.")
    async with served(upstream) as proxy, proxy.client() as http:
        body = {"model": "m", "messages": messages, "stream": True}
        async with http.stream("POST", "/v1/chat/completions", json=body,
                               headers={"Idempotency-Key": "k"}) as response:
            async for _ in response.aiter_bytes():
                break  # the first event came: hang up
        dropped = await proxy.engine.candidates(chat_for(messages), 1)
        text, gm = await ask(http, messages, True, key="k")
        stored = await proxy.engine.candidates(chat_for(messages), 1)
    assert ([], 2) == (dropped, len(upstream.seen))
    assert ([stored[0].text], False) == ([text], gm["replayed"])

