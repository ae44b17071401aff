"""The chat shown a reply people want to read (``--display cards``) while the model keeps reading
the engine's resolved tags (SPEC §7 proxy): ``for_people`` on stored candidates, and the proxy
over real HTTP."""

from __future__ import annotations

import json
from typing import Any

import httpx

from middleware.display import card_line, for_people
from middleware.engine import Engine
from middleware.proxy import ServeOptions
from middleware.rules.registry import load_bundled
from middleware.sheet.party import read_party
from middleware.stores.memory import MemoryStore
from tests.proxy.conftest import ADA, CHECK, TIMEOUT, chat_for, hearth, history
from tests.proxy.fake_upstream import Answer, FakeUpstream, served

ROPE = '[inventory: action="add" item="Rope" who="Ada" count="2"]'
REPLY = f"Ada heaves. {CHECK} It gives. {ROPE} [weird: tag] Onward."
CARDS = ServeOptions(display="cards", timeout=TIMEOUT)


async def test_a_check_and_an_inventory_tag_read_as_one_line_each() -> None:
    """CHK-REC / ITM-BAG records shown to people: the throw and its arithmetic against the
    number, the verdict; who got what and how many they hold. Other bracketed text stays as written."""
    engine = Engine(MemoryStore())
    await engine.create_game("c", hearth().ruleset, [ADA], seed=3)
    await engine.user("c", 1, "Go.")
    done = await engine.process("c", 1, REPLY, dice=[5, 6])
    assert ("Ada heaves. 🎲 Haul 2d6 5+6 +3 = 14 vs 8: success It gives. "
            "🎒 Ada gets 2 × Rope (now 2) [weird: tag] Onward.") == for_people(done.text, done.records)


async def test_a_purchase_a_refusal_and_a_place_read_as_lines() -> None:
    """ITM-MARKET buys priced where the reply ends, a refused buy with its reason, the place."""
    engine = Engine(MemoryStore())
    rules = load_bundled("brass-fair")
    party = read_party(rules, [{"name": "Bram", "player": True,
                                "bag": [{"coins": "crown", "count": 3}]}])
    await engine.create_game("m", rules, party, seed=11)
    await engine.user("m", 1, "Shopping.")
    done = await engine.process("m", 1, '[place: name="Millbrook" size="fair town"] '
                                        '[inventory: action="buy" item="Honey cake" who="Bram"] '
                                        '[inventory: action="buy" item="Warhorse" who="Bram"]')
    assert ["📍 Millbrook (fair town), day 1", "🎒 Bram buys Honey cake for 2 coppers (now 1)",
            "🎒 Bram cannot buy Warhorse: unknown item"] == [card_line(r) for r in done.records]


def content_of(events: list[dict[str, Any]]) -> str:
    return "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])


async def streamed(http: httpx.AsyncClient, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    body = {"model": "m", "messages": messages, "stream": True}
    async with http.stream("POST", "/v1/chat/completions", json=body) as response:
        raw = (await response.aread()).decode()
    return [json.loads(line[6:]) for line in raw.split("\n") if line.startswith("data: {")]


async def test_cards_are_shown_streamed_and_not_with_the_records_beside_them() -> None:
    """With ``--display cards`` the chat sees card lines, streamed or not, exactly
    ``for_people`` of the stored candidate; ``gm_records`` still carries the records."""
    upstream = FakeUpstream([Answer(REPLY), Answer(REPLY)])
    messages = history("I heave.")
    async with served(upstream, CARDS) as proxy, proxy.client() as http:
        plain = (await http.post("/v1/chat/completions",
                                 json={"model": "m", "messages": messages})).json()
        events = await streamed(http, messages)
        stored = await proxy.engine.candidates(chat_for(messages), 1)
    shown = [for_people(c.text, c.records) for c in stored]
    assert shown == [plain["choices"][0]["message"]["content"], content_of(events)]
    assert all("🎲 Haul 2d6" in text and "rolls=" not in text for text in shown)
    assert ["skill_check", "inventory"] == [r["tag"] for r in plain["gm_records"]]


async def test_a_cards_reply_and_a_tags_reply_sent_back_make_the_same_upstream_request() -> None:
    """The chat sends turn 1's reply back as it was shown (cards), or as the stored tags: the
    model is asked with the same messages either way (the resolved tags), and the kept
    candidate is found by it (the first of two, not the newest)."""
    upstream = FakeUpstream([Answer(REPLY), Answer(f"{REPLY} Again."), Answer("Next."),
                             Answer("Next.")])
    first = history("I heave.")
    async with served(upstream, CARDS) as proxy, proxy.client() as http:
        kept = (await http.post("/v1/chat/completions",
                                json={"model": "m", "messages": first})).json()
        await http.post("/v1/chat/completions", json={"model": "m", "messages": first})
        chat = chat_for(first)
        stored = (await proxy.engine.candidates(chat, 1))[0].text
        as_cards = kept["choices"][0]["message"]["content"]
        for reply in (as_cards, stored):
            await http.post("/v1/chat/completions",
                            json={"model": "m", "messages": history("I heave.", reply, "On.")})
        selected = (await proxy.engine.store.get_turn(chat, 1))
    assert "🎲" in as_cards and as_cards != stored
    assert upstream.seen[2]["messages"] == upstream.seen[3]["messages"]
    assert stored == upstream.seen[2]["messages"][2]["content"]
    assert selected is not None and 0 == selected.selected


async def test_a_cards_reply_the_cache_let_go_still_plays_on_its_turn() -> None:
    """With one chat in memory (the shown replies of 16 chats remembered), turn 1's cards come
    back after twenty other chats were shown theirs: the proxy reads the chat's candidates back
    from the store, so the history plays turn 2 of its chat on the candidate it kept — no edited
    candidate, no branch — and the model reads turn 1 as the stored tags."""
    upstream = FakeUpstream(always=Answer(REPLY))
    first = history("I heave.")
    async with served(upstream, ServeOptions(display="cards", timeout=TIMEOUT, chats=1)) as proxy, \
            proxy.client() as http:
        kept = (await http.post("/v1/chat/completions",
                                json={"model": "m", "messages": first})).json()
        for n in range(20):
            others = history(f"Elsewhere {n}.")
            assert 200 == (await http.post("/v1/chat/completions",
                                           json={"model": "m", "messages": others})).status_code
        as_cards = kept["choices"][0]["message"]["content"]
        answer = await http.post("/v1/chat/completions",
                                 json={"model": "m",
                                       "messages": history("I heave.", as_cards, "On.")})
        chat = chat_for(first)
        stored = [c.text for c in await proxy.engine.candidates(chat, 1)]
    assert (chat, "2") == (answer.headers["x-gm-chat"], answer.headers["x-gm-turn"])
    assert "x-gm-edited" not in answer.headers and "x-gm-branch-of" not in answer.headers
    assert 1 == len(stored)
    assert stored[0] == upstream.seen[-1]["messages"][2]["content"]


async def test_a_long_chat_sent_back_whole_is_read_from_the_store_once() -> None:
    """A chat UI sends the whole history, shown as cards, with every turn: with one chat in
    memory (the shown replies of 16 chats remembered), a 24-turn chat never reads its earlier
    turns back from the store to find the stored texts (it did on every request once the chat
    had shown more than 16 replies), and the model reads every turn as the stored tags."""
    upstream = FakeUpstream(always=Answer(REPLY))
    messages: list[dict[str, Any]] = history("Turn 1.")
    async with served(upstream, ServeOptions(display="cards", timeout=TIMEOUT, chats=1)) as proxy, \
            proxy.client() as http:
        store = proxy.engine.store
        turns_read: list[tuple[int, int]] = []
        replies = store.replies

        async def counted(chat: str, first: int, last: int) -> Any:
            turns_read.append((first, last))
            return await replies(chat, first, last)

        store.replies = counted  # type: ignore[method-assign]
        for turn in range(1, 25):
            answer = await http.post("/v1/chat/completions", json={"model": "m",
                                                                    "messages": messages})
            assert (200, str(turn)) == (answer.status_code, answer.headers["x-gm-turn"])
            messages += [{"role": "assistant",
                          "content": answer.json()["choices"][0]["message"]["content"]},
                         {"role": "user", "content": f"Turn {turn + 1}."}]
        chat = chat_for(messages)
        stored = [(await proxy.engine.candidates(chat, turn))[0].text for turn in range(1, 25)]
    assert [] == [read for read in turns_read if read[0] == read[1]]
    sent = [m["content"] for m in upstream.seen[-1]["messages"] if m["role"] == "assistant"]
    assert stored[:23] == sent


async def test_a_continue_is_shown_as_cards_and_comes_back_as_one_reply() -> None:
    """A Continue with ``--display cards``, streamed and not: the addition is shown as card lines
    (its check a 🎲 line, no resolved tag), the UI holds the reply and its addition as one
    message, and sent back so it is the joined candidate: the next turn plays on it, with no
    edited candidate and no branch, and the model reads it as the stored tags."""
    more = f" She heaves again. {CHECK}"
    for stream in (False, True):
        upstream = FakeUpstream([Answer(REPLY), Answer(more), Answer("Next.")])
        first = history("I heave.")
        async with served(upstream, CARDS) as proxy, proxy.client() as http:
            kept = (await http.post("/v1/chat/completions",
                                    json={"model": "m", "messages": first})).json()
            shown = kept["choices"][0]["message"]["content"]
            cont = [*first, {"role": "assistant", "content": shown}]
            if stream:
                added = content_of(await streamed(http, cont))
            else:
                added = (await http.post("/v1/chat/completions", json={
                    "model": "m", "messages": cont})).json()["choices"][0]["message"]["content"]
            answer = await http.post("/v1/chat/completions", json={
                "model": "m", "messages": history("I heave.", shown + added, "On.")})
            chat = chat_for(first)
            joined = (await proxy.engine.candidates(chat, 1))[-1]
        assert added.startswith(" She heaves again. 🎲 Haul 2d6") and "rolls=" not in added
        assert (chat, "2") == (answer.headers["x-gm-chat"], answer.headers["x-gm-turn"])
        assert "x-gm-edited" not in answer.headers and "x-gm-branch-of" not in answer.headers
        assert joined.text == upstream.seen[-1]["messages"][2]["content"]
