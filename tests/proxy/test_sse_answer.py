"""The SSE answer a stream goes out in (``sse_answer.EventAnswer``), driven as uvicorn drives an
ASGI app: a ``send`` that records each message with its time, a ``receive`` that says when the
client goes away. Over real HTTP the same answer is tested by every streaming test of the proxy
(``test_retries_and_keepalive``: keep-alive while a tag is held, a client that hangs up)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from typing import Any

import pytest
from starlette.background import BackgroundTask

from middleware.proxy import sse_answer
from middleware.proxy.sse_answer import KEEP_ALIVE, EventAnswer

SCOPE = {"type": "http", "method": "POST", "path": "/v1/chat/completions", "headers": []}


class Client:
    """What the server tells the app: each message sent (with the loop's time), and a disconnect
    once ``leave`` is set."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, dict[str, Any]]] = []
        self.leave = asyncio.Event()

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append((asyncio.get_running_loop().time(), message))

    async def receive(self) -> dict[str, Any]:
        await self.leave.wait()
        return {"type": "http.disconnect"}

    def bodies(self) -> list[bytes]:
        return [m["body"] for _, m in self.sent if m["type"] == "http.response.body"]


class Events:
    """Events written with pauses between them (seconds before each), that note being closed."""

    def __init__(self, *paced: tuple[float, bytes]) -> None:
        self.paced = paced
        self.closed = False

    async def __call__(self) -> AsyncIterator[bytes]:
        try:
            for pause, event in self.paced:
                await asyncio.sleep(pause)
                yield event
        finally:
            self.closed = True


async def test_events_go_out_in_order_between_the_head_and_the_end_then_the_background() -> None:
    client, done = Client(), []
    events = Events((0, b"data: 1\n\n"), (0, b"data: 2\n\n"))
    answer = EventAnswer(events(), keepalive=10, headers={"X-GM-Turn": "3"},
                         background=BackgroundTask(done.append, "released"))
    await answer(SCOPE, client.receive, client.send)
    start = client.sent[0][1]
    assert ("http.response.start", 200) == (start["type"], start["status"])
    assert (b"x-gm-turn", b"3") in start["headers"]
    assert (b"content-type", b"text/event-stream; charset=utf-8") in start["headers"]
    assert [b"data: 1\n\n", b"data: 2\n\n", b""] == client.bodies()
    assert [False] == [m["more_body"] for _, m in client.sent[-1:]]
    assert (["released"], True) == (done, events.closed)


async def test_a_keep_alive_comment_goes_out_only_after_that_long_a_silence() -> None:
    """Events 10 ms apart, then a pause of 300 ms: with ``keepalive`` 50 ms, comments come in the
    pause alone, each at least 50 ms after whatever was sent before it."""
    client = Client()
    quick = [(0.01, b"data: %d\n\n" % n) for n in range(8)]
    events = Events(*quick, (0.3, b"data: late\n\n"))
    await EventAnswer(events(), keepalive=0.05)(SCOPE, client.receive, client.send)
    bodies = client.bodies()
    assert [event for _, event in quick] == bodies[:8]  # no comment while events flow
    assert 3 <= bodies.count(KEEP_ALIVE) <= 6
    times = [t for t, m in client.sent]
    gaps = [now - before for before, now, (_, m) in zip(times, times[1:], client.sent[1:],
                                                          strict=False)
            if m.get("body") == KEEP_ALIVE]
    assert min(gaps) >= 0.05 - 0.005  # the loop's clock may round a timer a little early
    assert [b"data: late\n\n", b""] == bodies[-2:]


async def test_keepalive_zero_sends_no_comment() -> None:
    client = Client()
    events = Events((0.15, b"data: 1\n\n"))
    await EventAnswer(events(), keepalive=0)(SCOPE, client.receive, client.send)
    assert [b"data: 1\n\n", b""] == client.bodies()


async def test_a_client_that_goes_away_stops_the_stream_and_nothing_more_is_sent() -> None:
    """The client leaves while the events wait (the model still writing): the events are closed
    (their ``finally`` runs: the upstream closed, nothing stored), no end is sent, no error comes
    out of the answer, and its background still runs (the retry key released)."""
    client, done = Client(), []
    events = Events((0, b"data: 1\n\n"), (5.0, b"data: never\n\n"))
    answer = EventAnswer(events(), keepalive=10, background=BackgroundTask(done.append, "freed"))
    playing = asyncio.create_task(answer(SCOPE, client.receive, client.send))
    await asyncio.sleep(0.05)
    client.leave.set()
    await asyncio.wait_for(playing, 1.0)
    assert ([b"data: 1\n\n"], True, ["freed"]) == (client.bodies(), events.closed, done)


async def test_a_stream_cancelled_by_the_server_is_cancelled() -> None:
    """Cancelled from outside (the server stopping the request), the answer does not swallow it:
    only the client going away ends a stream quietly."""
    client = Client()
    events = Events((5.0, b"data: never\n\n"))
    playing = asyncio.create_task(EventAnswer(events(), keepalive=10)(
        SCOPE, client.receive, client.send))
    await asyncio.sleep(0.05)
    playing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await playing
    assert events.closed


@pytest.mark.parametrize("events", [0, 1, 3])
async def test_the_cpu_is_given_up_once_right_after_the_first_event(
        monkeypatch: pytest.MonkeyPatch, events: int) -> None:
    """The first event written has woken the client that waits for its first token: the answer
    gives up its CPU then (where the client shares it, the client reads now, not when the
    kernel's slice ends), once a stream, not before the first event nor after the others; a
    stream with no event never does."""
    client, given_up_after = Client(), []
    monkeypatch.setattr(sse_answer, "_GIVE_WAY", lambda: given_up_after.append(client.bodies()))
    written = Events(*((0, b"data: %d\n\n" % n) for n in range(events)))
    await EventAnswer(written(), keepalive=10)(SCOPE, client.receive, client.send)
    assert ([[b"data: 0\n\n"]] if events else []) == given_up_after
    assert len(client.bodies()) == events + 1


def test_on_linux_the_cpu_is_given_up_to_the_kernel() -> None:
    """Where the system has ``sched_yield`` (Linux, the BSDs, macOS), it is what gives the CPU
    up; elsewhere nothing does."""
    if hasattr(os, "sched_yield"):
        assert os.sched_yield is sse_answer._GIVE_WAY
    else:
        assert sse_answer._GIVE_WAY() is None
