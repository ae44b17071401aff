"""Where the GM's view goes in an upstream request (``middleware.proxy.inject``), in the forms chat
templates accept, and ``--inject off`` leaving the request exactly as the client sent it."""

from __future__ import annotations

from typing import Any

import httpx

from middleware.engine import Engine
from middleware.errors import GMError
from middleware.gm_view import GMView
from middleware.proxy import HttpUpstream, create_app
from middleware.proxy.inject import InjectConfig, chat_view, inject, inject_config
from middleware.stores.memory import MemoryStore
from tests.proxy.conftest import (
    TIMEOUT,
    FakeModel,
    chat_for,
    hearth,
    history,
    running_proxy,
    serving,
    streamed_text,
)
from tests.stores.counting import CountingStore

VIEW = GMView(rules="GAME RULES\nroll nothing yourself", state="GAME STATE\nAda: Haul +3")
SENT_BACK = "She digs. [skill_check: skill=\"Haul\" dc=\"8\" rolls=\"3|4\" result=\"failure\"]"


def body(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {"model": "gm", "messages": messages, "temperature": 0.5}


def test_rules_join_the_first_system_message_and_state_sits_before_the_last_player_message() -> None:
    """The rules block after the client's own system text; the state block a system message of
    its own just before the newest player message; assistant messages exactly as sent."""
    messages = history("Hello.", SENT_BACK, "I dig again.")
    sent = inject(body(messages), VIEW, InjectConfig())
    assert [("system", messages[0]["content"] + "\n\n" + VIEW.rules), ("user", "Hello."),
            ("assistant", SENT_BACK), ("system", VIEW.state), ("user", "I dig again.")] \
        == [(m["role"], m["content"]) for m in sent["messages"]]
    assert 0.5 == sent["temperature"]
    assert history("Hello.", SENT_BACK, "I dig again.") == messages  # the client's body unchanged


def test_a_conversation_without_a_system_message_gets_one_first() -> None:
    sent = inject(body([{"role": "user", "content": "Hi."}]), VIEW, InjectConfig())
    assert ["system", "system", "user"] == [m["role"] for m in sent["messages"]]
    assert VIEW.rules == sent["messages"][0]["content"]


def test_content_parts_get_a_text_part_of_their_own() -> None:
    """A system message written as content parts (OpenAI's list form) keeps its parts."""
    parts = [{"type": "text", "text": "You are the GM."}]
    sent = inject(body([{"role": "system", "content": parts}, {"role": "user", "content": "Hi"}]),
                  VIEW, InjectConfig())
    assert [*parts, {"type": "text", "text": VIEW.rules}] == sent["messages"][0]["content"]
    assert [{"type": "text", "text": "You are the GM."}] == parts  # the client's parts unchanged


def test_the_state_can_go_inside_the_last_player_message_fenced() -> None:
    """For templates that refuse a second system message: one system message, and the state
    fenced in ``<game-state>`` before the player's words."""
    messages = history("Hello.", SENT_BACK, "I dig.")
    sent = inject(body(messages), VIEW, InjectConfig(state_in_user=True))
    assert 1 == sum(m["role"] == "system" for m in sent["messages"])
    assert f"<game-state>\n{VIEW.state}\n</game-state>\n\nI dig." == sent["messages"][-1]["content"]
    assert history("Hello.", SENT_BACK, "I dig.") == messages  # the client's body unchanged


def test_rules_mode_sends_only_the_rules_and_off_sends_the_body_as_it_came() -> None:
    messages = history("Hello.")
    rules_only = inject(body(messages), VIEW, InjectConfig(mode="rules"))
    assert ["system", "user"] == [m["role"] for m in rules_only["messages"]]
    assert VIEW.state not in str(rules_only)
    assert body(messages) == inject(body(messages), VIEW, InjectConfig(mode="off"))


def test_inject_modes_are_checked_when_serve_starts() -> None:
    assert "rules" == inject_config("rules").mode
    try:
        inject_config("some")
    except GMError as exc:
        assert "full, rules, off" in str(exc)
    else:
        raise AssertionError("an unknown mode was accepted")


async def test_inject_off_over_http_sends_the_clients_request_unchanged() -> None:
    """A real proxy with ``--inject off``: the fake model sees exactly the client's body."""
    model = FakeModel(replies=["Fine."])
    engine = Engine(MemoryStore())
    async with serving(model.app()) as model_url:
        upstream = HttpUpstream(model_url + "/v1", timeout=TIMEOUT)
        app = create_app(engine, upstream, hearth(), inject=InjectConfig(mode="off"))
        async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as client:
            await client.post("/v1/chat/completions", json=body(history("Hello.")))
        await upstream.aclose()
    assert [{**body(history("Hello.")), "stream": False}] == model.seen


async def test_the_view_of_the_turn_after_a_stored_reply_shows_its_records_unread() -> None:
    """Issue 13: the GM's view of the next turn tells what the kept reply's tags did; when this
    proxy stored that reply (streamed or not) it reads no candidate's records for it (one store
    read per request before), and the view is the one read from the store."""
    store = CountingStore()
    reply = 'She digs. [skill_check: skill="Haul" dc="8"] [inventory: action="add" item="Rope"]'
    read: list[int] = []
    async with running_proxy(hearth(), FakeModel(replies=[reply, reply, "On."]),
                             store=store) as proxy:
        messages = history("We dig.")
        for stream in (True, False):
            answer = await proxy.stream(messages) if stream else (await proxy.ask(messages)).json()
            read.append(store.calls["replies"])
            text = "".join(streamed_text(answer)) if stream \
                else answer["choices"][0]["message"]["content"]
            messages += [{"role": "assistant", "content": text},
                         {"role": "user", "content": f"On, streamed {stream}."}]
        await proxy.ask(messages)
        read.append(store.calls["replies"])
        expected = await chat_view(proxy.engine, chat_for(messages), 3, InjectConfig())
    assert [0, 0, 0] == read
    assert "LAST TURN" in expected.state and "Rope" in expected.state
    assert expected.state in [m["content"] for m in proxy.model.seen[-1]["messages"]]
