"""The proxy over real HTTP (SPEC §7 proxy, §3 turns and retries): a chat client talks to it with
httpx; behind it a fake model server answers from a script."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest.mock import patch

import uvicorn

from middleware.parse import parse
from middleware.pipeline import resolve_reply
from middleware.proxy import GameConfig
from middleware.rules.registry import load_bundled
from middleware.segments import Tag
from middleware.sheet.party import read_party
from tests.branches.helpers import demo_game
from tests.proxy.conftest import (
    CHECK,
    FakeModel,
    Proxy,
    chat_for,
    free_socket,
    hearth,
    history,
    running_proxy,
    streamed_text,
    whole_resolves,
)
from tests.stores.counting import CountingStore

ROPE = '[inventory: action="add" item="Rope" who="Ada"]'
TWO_ROPES = '[inventory: action="add" item="Rope" count="2" who="Ada"]'
REPLY = f"She sets her shoulder to the door. {CHECK} It groans. {ROPE} Done."


def records(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(r["tag"], r["status"]) for r in answer["gm_records"]]


def ropes_now(answer: dict[str, Any]) -> list[int]:
    return [r["now"] for r in answer["gm_records"] if r["tag"] == "inventory"]


async def test_a_reply_comes_back_rewritten_with_its_records(proxy: Proxy) -> None:
    """SPEC §7: the model's tags come back resolved, the records beside the text in
    ``gm_records``; the rest of the upstream's answer (id, usage) is kept."""
    proxy.model.replies = [REPLY]
    response = await proxy.ask(history("I force the door."))
    answer = response.json()
    text = answer["choices"][0]["message"]["content"]
    assert 200 == response.status_code
    assert [("skill_check", "resolved"), ("inventory", "resolved")] == records(answer)
    assert text.startswith('She sets her shoulder to the door. [skill_check: skill="Haul" dc="8" '
                           'rolls="')
    assert text.endswith('[inventory: action="add" item="Rope" count="1" who="Ada" result="ok" '
                         'now="1"] Done.')
    assert ("fake-1", {"total_tokens": 42}) == (answer["id"], answer["usage"])
    stored = await proxy.engine.candidates(answer["gm"]["chat"], 1)
    assert [text] == [c.text for c in stored]


async def test_the_model_is_asked_with_the_request_as_sent(proxy: Proxy) -> None:
    """The request goes upstream with its model and options, as non-streaming; its messages
    carry the GM's view (the rules in the system message, the state before the player's)."""
    proxy.model.replies = ["Fine."]
    messages = history("Hello.")
    await proxy.ask(messages, temperature=0.7)
    [seen] = proxy.model.seen
    assert {"model": "gm", "temperature": 0.7, "stream": False} \
        == {k: v for k, v in seen.items() if k != "messages"}
    assert ["system", "system", "user"] == [m["role"] for m in seen["messages"]]
    assert seen["messages"][0]["content"].startswith(messages[0]["content"] + "\n\nGAME RULES")
    assert messages[1] == seen["messages"][2]


async def test_streamed_text_is_the_stored_candidate_and_no_tag_is_split(
        fair_proxy: Proxy) -> None:
    """SPEC §7: streamed, prose is passed on in pieces and each tag arrives whole, resolved; the
    pieces joined are the stored candidate and, with fair dice (SPEC §5), exactly what the
    non-streaming answer for the same turn says."""
    fair_proxy.model.replies = [REPLY, REPLY]
    messages = history("I force the door.")
    chunks = await fair_proxy.stream(messages)
    pieces = streamed_text(chunks)
    whole = (await fair_proxy.ask(messages)).json()
    text = whole["choices"][0]["message"]["content"]
    stored = await fair_proxy.engine.candidates(whole["gm"]["chat"], 1)
    assert (text, text) == ("".join(pieces), stored[0].text)
    assert len(pieces) > 5  # prose came in pieces, not held for the whole reply
    assert [] == split_tags(pieces)
    assert [("skill_check", "resolved"), ("inventory", "resolved")] == records(chunks[-1])
    assert "stop" == chunks[-1]["choices"][0]["finish_reason"]


async def test_a_streamed_reply_is_resolved_once_and_stored_as_streamed(proxy: Proxy) -> None:
    """SPEC §7: the stream resolves each tag as it closes and the store writes that reading: the
    reply is not resolved again when it ends, and the candidate is what the client was sent; on
    a new chat's first turn and on the turn after it (started from the candidate kept)."""
    proxy.model.replies = [REPLY, REPLY]
    messages = history("I force the door.")
    with whole_resolves() as resolved_again:
        first = await proxy.stream(messages)
        text = "".join(streamed_text(first))
        messages = [*messages, {"role": "assistant", "content": text},
                    {"role": "user", "content": "And the next one."}]
        second = await proxy.stream(messages)
    chat = first[-1]["gm"]["chat"]
    stored = [(await proxy.engine.candidates(chat, turn))[0].text for turn in (1, 2)]
    assert [] == resolved_again
    assert [text, "".join(streamed_text(second))] == stored
    assert (chat, 2) == (second[-1]["gm"]["chat"], second[-1]["gm"]["turn"])
    assert ['now="1"', 'now="2"'] == [t.split(" ")[-2].rstrip("]") for t in stored]


async def test_a_streamed_next_turn_reads_the_turn_it_starts_from_once() -> None:
    """A chat's next streamed turn reads the turn before it once, for the GM's view (the state it
    starts from and the candidate kept there), and not that candidate's records, which the
    proxy holds since it stored it (issue 13); the preview takes the view's state, and the store
    checks it still stands as it writes. The view, the kept candidate's records and the preview
    each read that turn (three reads)."""
    store = CountingStore()
    async with running_proxy(hearth(), FakeModel(), store=store) as proxy:
        proxy.model.replies = [REPLY, REPLY]
        messages = history("I force the door.")
        text = "".join(streamed_text(await proxy.stream(messages)))
        store.calls.clear()
        second = await proxy.stream([*messages, {"role": "assistant", "content": text},
                                     {"role": "user", "content": "And the next one."}])
    assert 2 == second[-1]["gm"]["turn"]
    assert (1, 0) == (store.calls["get_turn"], store.calls["replies"])


async def test_a_streamed_continue_is_resolved_once_and_stored_as_streamed(proxy: Proxy) -> None:
    """A Continue streamed (the history ends with the GM's reply): its added check resolves as
    it closes and the joined candidate stores that reading, the addition not resolved again; the
    candidate is the first reply and the addition exactly as the client was sent them."""
    proxy.model.replies = [REPLY, f" She tries again. {CHECK} It holds."]
    messages = history("I force the door.")
    first = "".join(streamed_text(await proxy.stream(messages)))
    with patch("middleware.pipeline.resolve_reply", side_effect=resolve_reply) as resolved:
        chunks = await proxy.stream([*messages, {"role": "assistant", "content": first}])
    addition, done = "".join(streamed_text(chunks)), chunks[-1]["gm"]
    joined = await proxy.engine.store.get_candidate(done["chat"], 1, done["candidate"])
    assert 0 == resolved.call_count
    assert (first + addition, ["skill_check"]) == (
        joined.text, [r["tag"] for r in chunks[-1]["gm_records"]])
    assert addition.startswith(" She tries again. [skill_check:") and 'rolls="' in addition


async def test_a_streamed_reply_naming_a_place_without_a_market_is_resolved_once(
        proxy: Proxy) -> None:
    """SPEC §3: a reply is resolved knowing the place where it ends, which the tags streamed did
    not; in a game without a market nothing hangs on it, so the stream's reading is stored."""
    reply = f'{REPLY} [place: name="Millbrook"] Later.'
    proxy.model.replies = [reply]
    with whole_resolves() as resolved_again:
        chunks = await proxy.stream(history("I force the door."))
    [stored] = await proxy.engine.candidates(chunks[-1]["gm"]["chat"], 1)
    assert [] == resolved_again
    assert "".join(streamed_text(chunks)) == stored.text
    assert ("place", "resolved") == records(chunks[-1])[-1]


async def test_a_streamed_branch_block_left_open_is_closed_at_the_end_and_resolved_once(
        model: FakeModel) -> None:
    """SPEC §7, ``serve --branches``: a block the model never closed closes where the reply
    ends; the stream keeps the section its check chose, and the store writes that reading, the
    reply resolved once."""
    line = demo_game("branch-demo")
    rules = load_bundled(line["ruleset"])
    games = GameConfig(rules, tuple(read_party(rules, line["party"])), seed=7, branches=True)
    reply = ('Tobiah leans on the counter. [skill_check: skill="Haggle" dc="8" who="Tobiah '
             'Crane"]\n[on success] Through for a groat. [inventory: action="pay" amount="1 groat" '
             'who="Wren Ashby"]\n[on failure] Three groats. [inventory: action="pay" '
             'amount="3 groats" who="Wren Ashby"]')
    model.replies = [reply]
    async with running_proxy(games, model) as proxy:
        with whole_resolves() as resolved_again:
            chunks = await proxy.stream(history("We pay the keeper."))
        [stored] = await proxy.engine.candidates(chunks[-1]["gm"]["chat"], 1)
    assert [] == resolved_again
    assert "".join(streamed_text(chunks)) == stored.text
    assert "[on " not in stored.text and stored.text.count("[inventory:") == 1
    assert ("skill_check", "resolved") == records(chunks[-1])[0]


async def test_a_streamed_buy_waits_for_the_end_and_the_reply_is_resolved_again(
        model: FakeModel) -> None:
    """SPEC §3 / ITM-MARKET-20: where a market prices goods, an ``[inventory:]`` tag and all
    after it wait for the end of the reply, which the store then resolves whole: the client is
    sent exactly that candidate."""
    rules = load_bundled("brass-fair")
    party = read_party(rules, [{"name": "Ada", "player": True,
                                "bag": [{"coins": "crown", "count": 3}]}])
    reply = (f'{CHECK} At the fair. [inventory: action="buy" item="Honey cake" who="Ada"] '
             f'{CHECK} Done.')
    model.replies = [reply]
    async with running_proxy(GameConfig(rules, tuple(party), seed=11), model) as proxy:
        with whole_resolves() as resolved_again:
            chunks = await proxy.stream(history("Shopping."))
        [stored] = await proxy.engine.candidates(chunks[-1]["gm"]["chat"], 1)
    assert [reply] == resolved_again
    assert "".join(streamed_text(chunks)) == stored.text


def split_tags(pieces: list[str]) -> list[str]:
    """The resolved tags of the joined text that straddle a boundary between pieces."""
    bounds, at = set(), 0
    for piece in pieces:
        at += len(piece)
        bounds.add(at)
    tags = [s for s in parse("".join(pieces)) if isinstance(s, Tag)]
    return [t.raw for t in tags if any(t.start < b < t.end for b in bounds)]


async def test_a_tag_written_in_tiny_pieces_is_still_one_tag(proxy: Proxy) -> None:
    """A tag that the model's stream cuts into 1 to 11 character pieces comes out whole once."""
    proxy.model.replies = [f"{CHECK}{CHECK}x{CHECK}"]
    chunks = await proxy.stream(history("Again and again."))
    pieces = streamed_text(chunks)
    assert 3 == sum(p.count("[skill_check:") for p in pieces)
    assert [] == split_tags(pieces)


async def test_a_regenerate_is_candidate_one_from_the_turn_start(proxy: Proxy) -> None:
    """SPEC §3/§7: the same history asked again is a second candidate of the same turn, resolved
    against S(0): the rope candidate 0 added is not in the bag candidate 1 starts from."""
    proxy.model.replies = [ROPE, ROPE]
    messages = history("I look for rope.")
    first = (await proxy.ask(messages)).json()
    second = (await proxy.ask(messages)).json()
    assert ((1, 0), (1, 1)) == ((first["gm"]["turn"], first["gm"]["candidate"]),
                                (second["gm"]["turn"], second["gm"]["candidate"]))
    assert ([1], [1]) == (ropes_now(first), ropes_now(second))


async def test_the_next_turn_builds_on_the_candidate_the_client_kept(proxy: Proxy) -> None:
    """SPEC §3: the client kept candidate 0 (one rope), not the newer candidate 1 (two ropes);
    its history says so, and turn 2 starts from candidate 0: one more rope makes two."""
    proxy.model.replies = [ROPE, TWO_ROPES, ROPE]
    first = (await proxy.ask(history("I look for rope."))).json()
    await proxy.ask(history("I look for rope."))
    kept = first["choices"][0]["message"]["content"]
    turn_two = (await proxy.ask(history("I look for rope.", kept, "And more rope."))).json()
    assert (2, [2]) == (turn_two["gm"]["turn"], ropes_now(turn_two))


async def test_the_next_turn_tells_the_model_what_the_kept_candidate_did(proxy: Proxy) -> None:
    """The state block of turn 2 carries the feedback of the candidate the client kept (here
    candidate 0, a check; candidate 1 added a rope), the model never told of the other."""
    proxy.model.replies = [CHECK, ROPE, "The road."]
    first = (await proxy.ask(history("I push the door."))).json()
    second = (await proxy.ask(history("I push the door."))).json()
    kept = first["choices"][0]["message"]["content"]
    await proxy.ask(history("I push the door.", kept, "I go on."))
    state = proxy.model.seen[-1]["messages"][-2]
    check, rope = first["gm_records"][0]["feedback"], second["gm_records"][0]["feedback"]
    assert "system" == state["role"]
    assert f"- skill_check: {check}" in state["content"].splitlines()
    assert rope not in state["content"]


async def test_a_kept_reply_edited_to_hold_no_tag_is_an_edited_candidate(proxy: Proxy) -> None:
    """A history whose assistant text matches no candidate (edited by hand, its tags gone) is an
    edited candidate of turn 1 read from the turn's start: no rope, so turn 2's rope is the
    first; the response says so in ``X-GM-Edited``."""
    proxy.model.replies = [ROPE, TWO_ROPES, ROPE]
    await proxy.ask(history("I look for rope."))
    await proxy.ask(history("I look for rope."))
    answer = await proxy.ask(history("I look for rope.", "(edited)", "More."))
    assert [1] == ropes_now(answer.json())
    assert "1:2" == answer.headers["x-gm-edited"]


async def test_a_retry_with_the_same_key_returns_the_stored_result(proxy: Proxy) -> None:
    """SPEC §3: an ``Idempotency-Key`` seen on this turn returns the stored candidate: the model
    is not asked again, no dice are thrown, no second candidate is stored."""
    proxy.model.replies = [REPLY]
    messages = history("I force the door.")
    first = (await proxy.ask(messages, headers={"Idempotency-Key": "k-1"})).json()
    again = (await proxy.ask(messages, headers={"Idempotency-Key": "k-1"})).json()
    chunks = await proxy.stream(messages, headers={"Idempotency-Key": "k-1"})
    text = first["choices"][0]["message"]["content"]
    assert (text, first["gm_records"]) == (again["choices"][0]["message"]["content"],
                                           again["gm_records"])
    assert (False, True) == (first["gm"]["replayed"], again["gm"]["replayed"])
    assert ([text], first["gm_records"]) == (streamed_text(chunks), chunks[-1]["gm_records"])
    assert 1 == len(proxy.model.seen)
    assert 1 == len(await proxy.engine.candidates(first["gm"]["chat"], 1))


async def test_a_streamed_retry_with_the_same_key_returns_the_stored_result(proxy: Proxy) -> None:
    """SPEC §3: a streamed answer is stored under its key too; the retry gets it back."""
    proxy.model.replies = [REPLY]
    messages = history("I force the door.")
    first = await proxy.stream(messages, headers={"Idempotency-Key": "k-2"})
    again = (await proxy.ask(messages, headers={"Idempotency-Key": "k-2"})).json()
    assert "".join(streamed_text(first)) == again["choices"][0]["message"]["content"]
    assert 1 == len(proxy.model.seen)


async def test_the_chat_header_names_the_game(proxy: Proxy) -> None:
    """SPEC §7: ``X-GM-Chat`` names the chat; without it, the conversation's start does, so two
    conversations that begin differently are two games."""
    proxy.model.replies = ["One.", "Two.", "Three."]
    named = (await proxy.ask(history("Hi."), headers={"X-GM-Chat": "table-7"})).json()
    one = (await proxy.ask(history("Hi.", system="Game A"))).json()
    two = (await proxy.ask(history("Hi.", system="Game B"))).json()
    assert "table-7" == named["gm"]["chat"]
    assert (1, 1) == (one["gm"]["turn"], two["gm"]["turn"])
    assert one["gm"]["chat"] != two["gm"]["chat"]


async def test_a_chat_met_mid_way_opens_its_turns_from_the_history(proxy: Proxy) -> None:
    """A chat the proxy first sees at its third player message starts a game at turn 3."""
    proxy.model.replies = [ROPE]
    answer = (await proxy.ask(history("a", "b", "c", "d", "e"))).json()
    assert (3, 0, [1]) == (answer["gm"]["turn"], answer["gm"]["candidate"], ropes_now(answer))


async def test_an_upstream_error_is_a_clean_502(proxy: Proxy) -> None:
    """An upstream that answers 500 gives the client a 502 with an OpenAI-style error body,
    streamed or not; nothing is stored."""
    proxy.model.replies = [500, 500]
    messages = history("Hello.")
    plain = await proxy.ask(messages)
    streamed = await proxy.ask(messages, stream=True)
    for response in (plain, streamed):
        assert (502, "upstream_error") == (response.status_code, response.json()["error"]["type"])
        assert "upstream answered 500" in response.json()["error"]["message"]
    assert [] == await proxy.engine.candidates(chat_for(messages), 1)


async def test_an_unreachable_upstream_is_a_502() -> None:
    """A model server that is not there: 502, not a crash."""
    sock = free_socket()
    dead = f"http://127.0.0.1:{sock.getsockname()[1]}"  # bound, never listening
    try:
        async with running_proxy(hearth(), FakeModel(), upstream_url=dead) as proxy:
            response = await proxy.ask(history("Hello."))
    finally:
        sock.close()
    assert (502, "upstream_error") == (response.status_code, response.json()["error"]["type"])
    assert "unreachable" in response.json()["error"]["message"]


async def test_an_upstream_that_opens_a_moment_late_is_connected_to_and_answers() -> None:
    """A model server still starting refuses the first connect: the proxy connects again (a
    request whose connection never opened was never sent) and the turn is played once."""
    sock = free_socket()
    late = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"  # bound, listening only in a moment
    model = FakeModel()

    async def opens() -> None:
        await asyncio.sleep(0.2)
        config = uvicorn.Config(model.app(), log_level="warning", log_config=None, ws="none",
                                lifespan="off")
        await uvicorn.Server(config).serve(sockets=[sock])

    async with running_proxy(hearth(), FakeModel(), upstream_url=late) as proxy:
        server = asyncio.create_task(opens())
        try:
            model.replies.append(f"The door holds. {CHECK}")
            response = await proxy.ask(history("Hello."))
            stored = await proxy.engine.candidates(chat_for(history("Hello.")), 1)
        finally:
            server.cancel()
            sock.close()
    assert 200 == response.status_code, response.text
    assert 1 == len(model.seen)
    assert [response.json()["choices"][0]["message"]["content"]] == [c.text for c in stored]


async def test_an_upstream_failing_mid_stream_ends_with_an_error_and_stores_nothing(
        proxy: Proxy) -> None:
    """The stream has begun, so no status can change: it ends with an error event, no
    ``[DONE]``, and no candidate is stored."""
    proxy.model.replies = [REPLY]
    proxy.model.broken_after = 3
    messages = history("I force the door.")
    body = {"messages": messages, "stream": True}
    async with proxy.client.stream("POST", "/v1/chat/completions", json=body) as response:
        lines = [line async for line in response.aiter_lines() if line.startswith("data:")]
    assert "upstream_error" in lines[-1]
    assert "data: [DONE]" not in lines
    assert [] == await proxy.engine.candidates(chat_for(messages), 1)


async def test_a_malformed_request_is_a_400(proxy: Proxy) -> None:
    """Not JSON, no messages, no player message, a bad ``stream``: 400 with the reason; the
    model is never asked."""
    bad = [b"{not json", b"[]", b'{"messages": []}',
           b'{"messages": [{"role": "system", "content": "x"}]}',
           b'{"messages": [{"role": "user", "content": "x"}], "stream": "yes"}',
           b'{"messages": [{"content": "x"}]}']
    for body in bad:
        response = await proxy.client.post("/v1/chat/completions", content=body,
                                           headers={"Content-Type": "application/json"})
        assert (400, "invalid_request_error") == (response.status_code,
                                                  response.json()["error"]["type"]), body
    assert [] == proxy.model.seen


async def test_the_model_list_is_passed_on(proxy: Proxy) -> None:
    """``GET /v1/models`` answers what the upstream lists, so a chat UI can pick a model."""
    response = await proxy.client.get("/v1/models")
    assert ["fake"] == [m["id"] for m in response.json()["data"]]


async def test_the_clients_authorization_is_passed_upstream(proxy: Proxy) -> None:
    """Without a configured key the client's own ``Authorization`` goes to the model server."""
    proxy.model.replies = ["Fine."]
    await proxy.ask(history("Hello."), headers={"Authorization": "Bearer sk-client"})
    assert "Bearer sk-client" == proxy.model.headers[0]["authorization"]
