"""A chat is a tree of candidates and a request a path through it: the history shapes chat UIs
really send, through a real proxy over HTTP, each asserting the stored tree and the state."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from structlog.testing import capture_logs

from middleware.character.summary import state_summary
from middleware.engine import Engine
from middleware.errors import GameError
from middleware.proxy import GameConfig, ServeOptions
from middleware.proxy.chat import read_request
from middleware.proxy.tree import ChatTree, Route
from middleware.proxy.tree_index import PathIndex
from middleware.stores.base import ReplyRow
from middleware.stores.memory import MemoryStore
from tests.gm_view.helpers import BRASS_PARTY, brass, party
from tests.proxy.conftest import FakeModel, Proxy, chat_for, history, running_proxy, streamed_text
from tests.stores.counting import CountingStore

SYSTEM = "You are the Game Master of the brass road."
CAKE = ('[place: name="Brassford" size="fair town"] The chandler smiles. '
        '[inventory: action="buy" item="Honey cake"]')
ROPE = 'A rope lies in the ditch. [inventory: action="add" item="Coil of rope"]'
CHECK = 'She haggles. [skill_check: skill="Haggle" dc="7"]'


@pytest.fixture
async def fair() -> AsyncIterator[Proxy]:
    games = GameConfig(brass(), party(brass(), BRASS_PARTY), seed=4)
    async with running_proxy(games, FakeModel()) as running:
        yield running


def talk(*turns: str) -> list[dict[str, Any]]:
    return history(*turns, system=SYSTEM)


async def said(proxy: Proxy, reply: str, *turns: str, **extra: Any) -> dict[str, Any]:
    """Ask with the history ``turns`` while the model answers ``reply``; the answer's JSON with
    its headers under ``_headers``."""
    proxy.model.replies.append(reply)
    answer = await proxy.ask(talk(*turns), **extra)
    assert 200 == answer.status_code, answer.text
    return {**answer.json(), "_headers": dict(answer.headers)}


def text(answer: dict[str, Any]) -> str:
    return str(answer["choices"][0]["message"]["content"])


async def held(proxy: Proxy, chat: str, item: str, turn: int | None = None) -> int:
    """How many ``item`` the party holds after ``turn`` (default: the chat's latest) of ``chat``
    (the carry rule may put a second rope in Bram's bag)."""
    state = await proxy.engine.state(chat, turn)
    members = state_summary(brass(), state)["party"].values()
    return sum(int(m["bag"].get(item, 0)) for m in members)


async def tree(proxy: Proxy, chat: str) -> list[tuple[int, int | None]]:
    """Each turn of ``chat``: how many candidates it has and which is selected."""
    rows = []
    for turn in range(1, await proxy.engine.store.last_turn(chat) + 1):
        row = await proxy.engine.store.get_turn(chat, turn)
        rows.append((len(await proxy.engine.store.list_candidates(chat, turn)),
                     row.selected if row else None))
    return rows


async def has_game(proxy: Proxy, chat: str) -> bool:
    try:
        await proxy.engine.game(chat)
    except GameError:
        return False
    return True


async def test_a_trimmed_history_keeps_its_game_and_its_turn(fair: Proxy) -> None:
    """The UI drops the oldest messages to fit its context: the reply sent back is a stored
    candidate, so the request is turn 3 of the same game and the first cake is still held
    (honey cakes are limited to two a day: the rope is turn 3's)."""
    one = await said(fair, CAKE, "We reach the fair.")
    two = await said(fair, CAKE, "We reach the fair.", text(one), "Another cake.")
    trimmed = talk("Another cake.", text(two), "And one more.")[1:]
    trimmed.insert(0, {"role": "system", "content": SYSTEM})
    fair.model.replies.append(ROPE)
    three = (await fair.ask(trimmed)).json()
    chat = chat_for(talk("We reach the fair."))
    assert (chat, 3) == (three["gm"]["chat"], three["gm"]["turn"])
    assert (2, 1) == (await held(fair, chat, "Honey cake"), await held(fair, chat, "Coil of rope"))
    assert [(1, 0), (1, 0), (1, 0)] == await tree(fair, chat)
    assert not await has_game(fair, chat_for(trimmed))


async def test_two_chats_with_one_opening_are_two_paths(fair: Proxy) -> None:
    """A second chat opening like the first is no regenerate of it: it becomes a branch from the
    new game, and the first chat's turns, candidates and cakes are untouched."""
    one = await said(fair, CAKE, "We reach the fair.")
    await said(fair, CAKE, "We reach the fair.", text(one), "Another cake.")
    other = await said(fair, ROPE, "We reach the fair.")
    chat = chat_for(talk("We reach the fair."))
    branch = other["gm"]["chat"]
    assert (f"{chat}~branch-1", 1) == (branch, other["gm"]["turn"])
    assert [(1, 0), (1, 0)] == await tree(fair, chat)
    assert (2, 0) == (await held(fair, chat, "Honey cake"), await held(fair, branch, "Honey cake"))
    again = await said(fair, ROPE, "We reach the fair.", text(other), "Look again.")
    assert (branch, 2) == (again["gm"]["chat"], again["gm"]["turn"])
    assert 2 == await held(fair, branch, "Coil of rope")
    first = await said(fair, ROPE, "We reach the fair.", text(one), "Another cake.", CAKE, "On.")
    assert (chat, 3) == (first["gm"]["chat"], first["gm"]["turn"])


async def test_a_swipe_back_to_an_old_turn_and_on_is_a_branch(fair: Proxy) -> None:
    """Turn 1 has two candidates; the chat went on from the second. Swiping back to the first and
    playing on makes a branch from S(0) holding the first candidate; the chat keeps its path."""
    first = await said(fair, CAKE, "We reach the fair.")
    second = await said(fair, ROPE, "We reach the fair.")
    chat = first["gm"]["chat"]
    await said(fair, ROPE, "We reach the fair.", text(second), "On.")
    back = await said(fair, ROPE, "We reach the fair.", text(first), "Buy more.")
    branch = back["gm"]["chat"]
    assert (f"{chat}~branch-1", 2) == (branch, back["gm"]["turn"])
    assert chat == back["_headers"]["x-gm-branch-of"]
    assert [(2, 1), (1, 0)] == await tree(fair, chat)
    assert [(1, 0), (1, 0)] == await tree(fair, branch)
    assert (1, 1) == (await held(fair, branch, "Honey cake"), await held(fair, branch, "Coil of rope"))
    assert (0, 2) == (await held(fair, chat, "Honey cake"), await held(fair, chat, "Coil of rope"))


async def test_an_edited_old_player_message_branches_before_its_turn(fair: Proxy) -> None:
    """Three turns played; the player edits turn 1's message and the UI sends the history on
    (every reply kept as it was): the branch starts before turn 1, holding the edited message and
    the replies copied, and the chat keeps the message as first written."""
    one = await said(fair, CAKE, "We reach the fair.")
    two = await said(fair, ROPE, "We reach the fair.", text(one), "On.")
    three = await said(fair, ROPE, "We reach the fair.", text(one), "On.", text(two), "Rest.")
    chat = one["gm"]["chat"]
    edited = await said(fair, ROPE, "We reach the fair at dusk.", text(one), "On.", text(two),
                        "Rest.", text(three), "Wake.")
    branch = edited["gm"]["chat"]
    assert (f"{chat}~branch-1", 4, chat) == (branch, edited["gm"]["turn"],
                                             edited["_headers"]["x-gm-branch-of"])
    firsts = [(await fair.engine.store.get_turn(c, 1)).user_text for c in (chat, branch)]
    assert ["We reach the fair.", "We reach the fair at dusk."] == firsts
    assert [(1, 0)] * 4 == await tree(fair, branch)


async def test_a_message_rewritten_after_the_model_failed_plays_its_turn_in_place(
        fair: Proxy) -> None:
    """The model fails on turn 2 (the turn was opened, no reply); the player rewrites the message
    and sends again: turn 2 of the same chat is played under the new message, no branch made,
    and the next turn follows it (before: the chat was forked at turn 1 into a branch for a
    turn that held nothing, every time a failed message was rewritten)."""
    one = await said(fair, CAKE, "We reach the fair.")
    chat = one["gm"]["chat"]
    fair.model.replies.append(500)
    failed = await fair.ask(talk("We reach the fair.", text(one), "We rest."))
    two = await said(fair, ROPE, "We reach the fair.", text(one), "We sleep instead.")
    three = await said(fair, CHECK, "We reach the fair.", text(one), "We sleep instead.",
                       text(two), "We haggle.")
    assert 502 == failed.status_code
    assert [(chat, 2), (chat, 3)] == [(a["gm"]["chat"], a["gm"]["turn"]) for a in (two, three)]
    assert "x-gm-branch-of" not in two["_headers"] | three["_headers"]
    assert not await has_game(fair, f"{chat}~branch-1")
    assert "We sleep instead." == (await fair.engine.store.get_turn(chat, 2)).said
    assert "We sleep instead." in [m["content"] for m in fair.model.seen[-2]["messages"]]
    assert [(1, 0)] * 3 == await tree(fair, chat)


async def test_an_edited_first_message_of_a_named_chat_branches(fair: Proxy) -> None:
    """A chat the UI names (Open WebUI's header): the player edits the first message and sends it
    again before any reply is kept. Turn 1 is asked again with another message: a branch from
    S(0), never an error."""
    named = {"X-OpenWebUI-Chat-Id": "owui-edit"}
    first = await said(fair, CAKE, "We reach the fair.", headers=named)
    again = await said(fair, ROPE, "We reach the fair at dusk.", headers=named)
    assert (f"{first['gm']['chat']}~branch-1", 1) == (again["gm"]["chat"], again["gm"]["turn"])
    turn = await fair.engine.store.get_turn(again["gm"]["chat"], 1)
    assert "We reach the fair at dusk." == turn.user_text


async def test_a_swipe_at_the_newest_turn_selects_in_place(fair: Proxy) -> None:
    """Turn 1's latest candidate swiped back to the first before turn 2: no branch, it is
    selected (nothing was built on the other yet)."""
    first = await said(fair, CAKE, "We reach the fair.")
    await said(fair, ROPE, "We reach the fair.")
    on = await said(fair, ROPE, "We reach the fair.", text(first), "On.")
    assert (first["gm"]["chat"], 2) == (on["gm"]["chat"], on["gm"]["turn"])
    assert [(2, 0), (1, 0)] == await tree(fair, on["gm"]["chat"])
    assert 1 == await held(fair, on["gm"]["chat"], "Honey cake")


async def test_continue_extends_the_candidate_and_a_retry_applies_nothing_twice(fair: Proxy) -> None:
    """The client sends the kept reply last and asks for more: the added tags resolve against
    the state after the existing part, the answer carries only the addition, the stored candidate
    is the joined text; the same Continue again stores nothing new; the next turn builds on it."""
    opening = '[place: name="Brassford" size="fair town"] She walks to the stall.'
    one = await said(fair, opening, "We reach the fair.")
    more = ' [inventory: action="buy" item="Honey cake"] Sweet.'
    cont = [*talk("We reach the fair."), {"role": "assistant", "content": text(one)}]
    fair.model.replies += [more, more]
    added = (await fair.ask(cont)).json()
    chat = one["gm"]["chat"]
    assert text(added).startswith(' [inventory: action="buy" item="Honey cake" count="1"')
    assert ["inventory"] == [r["tag"] for r in added["gm_records"]]
    joined = await fair.engine.store.get_candidate(chat, 1, added["gm"]["candidate"])
    assert text(one) + text(added) == joined.text
    again = (await fair.ask(cont)).json()
    assert added["gm"]["candidate"] == again["gm"]["candidate"]
    assert [(2, 1)] == await tree(fair, chat)
    assert 1 == await held(fair, chat, "Honey cake", 1)
    on = await said(fair, ROPE, "We reach the fair.", text(one) + text(added), "On.")
    assert (chat, 2, 1) == (on["gm"]["chat"], on["gm"]["turn"], await held(fair, chat, "Honey cake"))


async def test_a_prose_edit_keeps_the_candidate(fair: Proxy) -> None:
    """The player rewrote the prose of the kept reply, its resolved tags intact: it is still
    candidate 0; nothing new is stored for turn 1 and no edit is signalled."""
    one = await said(fair, CAKE, "We reach the fair.")
    edited = text(one).replace("The chandler smiles.", "The chandler, Old Mag, grins widely.")
    on = await said(fair, ROPE, "We reach the fair.", edited, "On.")
    assert [(1, 0), (1, 0)] == await tree(fair, on["gm"]["chat"])
    assert "x-gm-edited" not in on["_headers"]
    assert 1 == await held(fair, on["gm"]["chat"], "Honey cake")


async def test_a_tag_edit_is_an_edited_candidate_with_the_dice_it_showed(fair: Proxy) -> None:
    """The player removed the bought cake from the kept reply and kept the check: an edited
    candidate of turn 1, read from the turn's start (no cake, the purse whole) with the check's
    shown dice (no new throw); logged and named in ``X-GM-Edited``."""
    one = await said(fair, f"{CAKE} {CHECK}", "We reach the fair.")
    chat = one["gm"]["chat"]
    shown = next(r for r in one["gm_records"] if r["tag"] == "skill_check")
    kept = text(one)
    start = kept.index('[inventory: action="buy"')
    edited = kept[:start] + kept[kept.index("]", start) + 1:]
    with capture_logs() as logged:
        on = await said(fair, ROPE, "We reach the fair.", edited, "On.")
    assert "1:1" == on["_headers"]["x-gm-edited"]
    assert {"event": "proxy-edited-candidate", "chat": chat, "turn": 1, "candidate": 1} in [
        {k: e[k] for k in ("event", "chat", "turn", "candidate") if k in e} for e in logged]
    assert [(2, 1), (1, 0)] == await tree(fair, chat)
    again = await fair.engine.store.get_candidate(chat, 1, 1)
    assert edited == again.text
    check = next(r for r in again.records if r["tag"] == "skill_check")
    assert (shown["rolls"], shown["total"]) == (check["rolls"], check["total"])
    assert 0 == await held(fair, chat, "Honey cake")
    assert 30 == await held(fair, chat, "brass rings")


async def test_a_title_generation_request_passes_straight_through(fair: Proxy) -> None:
    """Open WebUI's title task: no game, no injection, nothing stored; the model's answer comes
    back as it was (its tag-like text unresolved)."""
    task = ("### Task:\nGenerate a concise, 3-5 word title summarizing the chat history.\n"
            "### Chat History:\n<chat_history>\nUSER: We reach the fair.\n</chat_history>")
    messages = [{"role": "user", "content": task}]
    fair.model.replies.append('{"title": "[inventory: the fair]"}')
    answer = await fair.ask(messages, metadata={"task": "title_generation"},
                            headers={"X-OpenWebUI-Chat-Id": "owui-1"})
    body = answer.json()
    assert '{"title": "[inventory: the fair]"}' == text(body) and "gm_records" not in body
    assert [{"model": "gm", "messages": messages, "metadata": {"task": "title_generation"},
             "stream": False}] == fair.model.seen
    assert not await has_game(fair, "owui-1") and not await has_game(fair, chat_for(messages))


async def test_open_webuis_chat_id_and_the_user_field_name_the_game(fair: Proxy) -> None:
    """Two chats with one opening told apart by ``X-OpenWebUI-Chat-Id``, and by ``user``."""
    a = await said(fair, CAKE, "We reach the fair.", headers={"X-OpenWebUI-Chat-Id": "owui-a"})
    b = await said(fair, ROPE, "We reach the fair.", headers={"X-OpenWebUI-Chat-Id": "owui-b"})
    c = await said(fair, ROPE, "We reach the fair.", user="player-7")
    assert ["owui-a", "owui-b", "player-7"] == [x["gm"]["chat"] for x in (a, b, c)]
    assert (1, 0) == (await held(fair, "owui-a", "Honey cake"), await held(fair, "owui-b", "Honey cake"))


async def test_a_streamed_continue_sends_only_the_addition(fair: Proxy) -> None:
    """Streaming, the Continue's added tag arrives resolved and whole; the stored candidate is
    the joined text, and the next turn's history finds it."""
    opening = '[place: name="Brassford" size="fair town"] She walks to the stall.'
    one = await said(fair, opening, "We reach the fair.")
    fair.model.replies.append(' [inventory: action="buy" item="Honey cake"] Sweet.')
    cont = [*talk("We reach the fair."), {"role": "assistant", "content": text(one)}]
    chunks = await fair.stream(cont)
    added = "".join(streamed_text(chunks))
    done = chunks[-1]["gm"]
    joined = await fair.engine.store.get_candidate(done["chat"], 1, done["candidate"])
    assert text(one) + added == joined.text
    assert added.startswith(' [inventory: action="buy" item="Honey cake" count="1"')
    assert 'result="ok" now="1"' in added and added.endswith("] Sweet.")
    on = await said(fair, ROPE, "We reach the fair.", joined.text, "On.")
    assert (done["chat"], 1) == (on["gm"]["chat"], await held(fair, done["chat"], "Honey cake"))


async def test_continuing_text_the_proxy_never_stored_keeps_it_as_an_edited_candidate(
        fair: Proxy) -> None:
    """The player wrote the start of the GM's reply (a prefill the proxy never stored): it is
    read as an edited candidate of the turn, then extended; both are named in the headers."""
    prefill = '[place: name="Brassford" size="fair town"] Ada goes to the chandler.'
    cont = [*talk("We reach the fair."), {"role": "assistant", "content": prefill}]
    fair.model.replies.append(' [inventory: action="buy" item="Honey cake"]')
    answer = await fair.ask(cont)
    body = answer.json()
    chat = body["gm"]["chat"]
    assert "1:0" == answer.headers["x-gm-edited"]
    assert [(2, 1)] == await tree(fair, chat)
    assert (1, "Brassford") == (await held(fair, chat, "Honey cake"),
                                (await fair.engine.state(chat)).place.name)  # type: ignore[union-attr]


async def test_a_continue_retried_with_its_key_is_answered_from_the_store(fair: Proxy) -> None:
    """SPEC §3: the same Idempotency-Key on a Continue returns the stored addition; the model is
    not asked again and nothing is applied twice."""
    one = await said(fair, '[place: name="Brassford" size="fair town"] She walks.',
                     "We reach the fair.")
    cont = [*talk("We reach the fair."), {"role": "assistant", "content": text(one)}]
    fair.model.replies.append(' [inventory: action="buy" item="Honey cake"]')
    key = {"Idempotency-Key": "cont-1"}
    first = (await fair.ask(cont, headers=key)).json()
    again = (await fair.ask(cont, headers=key)).json()
    assert 2 == len(fair.model.seen)
    assert (text(first), first["gm"]["candidate"]) == (text(again), again["gm"]["candidate"])
    assert [(2, 1)] == await tree(fair, first["gm"]["chat"])
    assert 1 == await held(fair, first["gm"]["chat"], "Honey cake")


async def test_a_retried_continue_says_it_was_replayed(fair: Proxy) -> None:
    """SPEC §3: a Continue's answer says ``replayed`` exactly when it is the stored one: false
    the first time, true for a retry with its key, asked streamed or not, and for the same
    addition asked again without a key (stored once). Before, every one of them said false."""
    one = await said(fair, "She walks to the stall.", "We reach the fair.")
    cont = [*talk("We reach the fair."), {"role": "assistant", "content": text(one)}]
    fair.model.replies += [" She looks around.", " She sits.", " She sits."]
    key = {"Idempotency-Key": "cont-2"}
    first = (await fair.ask(cont, headers=key)).json()
    again = (await fair.ask(cont, headers=key)).json()
    streamed = (await fair.stream(cont, headers=key))[-1]
    unkeyed = [(await fair.ask(cont)).json() for _ in range(2)]
    assert [False, True, True, False, True] == [a["gm"]["replayed"] for a in
                                                (first, again, streamed, *unkeyed)]
    assert [1, 1, 1, 2, 2] == [a["gm"]["candidate"] for a in (first, again, streamed, *unkeyed)]


async def test_a_retried_continue_that_added_only_whitespace_gets_it_back(fair: Proxy) -> None:
    """SPEC §3: a retry with the same key gets back exactly the first answer, also when the
    Continue added only a line break (the history's tail, stripped, is then both the base and
    the joined candidate)."""
    one = await said(fair, "She walks to the stall.", "We reach the fair.")
    cont = [*talk("We reach the fair."), {"role": "assistant", "content": text(one)}]
    fair.model.replies.append("\n\n")
    key = {"Idempotency-Key": "cont-3"}
    first = (await fair.ask(cont, headers=key)).json()
    again = (await fair.ask(cont, headers=key)).json()
    assert ["\n\n", "\n\n"] == [text(first), text(again)]


async def test_a_reply_stored_at_two_turns_does_not_shift_the_turn(fair: Proxy) -> None:
    """"They rest." is stored at turns 2 and 3; a history holding turns 1 and 2 that asks for
    turn 3 again is aligned on the reply stored at one turn only: turn 3 gets a new candidate."""
    rest = "They rest."
    one = await said(fair, CAKE, "We reach the fair.")
    await said(fair, rest, "We reach the fair.", text(one), "Rest.")
    await said(fair, rest, "We reach the fair.", text(one), "Rest.", rest, "Rest again.")
    again = await said(fair, ROPE, "We reach the fair.", text(one), "Rest.", rest, "Rest again.")
    chat = one["gm"]["chat"]
    assert (chat, 3) == (again["gm"]["chat"], again["gm"]["turn"])
    assert [(1, 0), (1, 0), (2, 1)] == await tree(fair, chat)


async def test_a_reply_the_model_wrote_twice_is_no_reason_to_skip_a_turn(fair: Proxy) -> None:
    """The model said "They rest." at turns 1 and 2; the player regenerates turn 2, sending the
    first of them back: the history is the chat's own from its opening, so turn 2 gets a second
    candidate (aligned where the player's messages are the stored ones), no branch at turn 3."""
    rest = "They rest."
    one = await said(fair, rest, "We make camp.")
    await said(fair, rest, "We make camp.", rest, "Sleep.")
    again = await said(fair, ROPE, "We make camp.", rest, "Sleep.")
    chat = one["gm"]["chat"]
    assert (chat, 2) == (again["gm"]["chat"], again["gm"]["turn"])
    assert [(1, 0), (2, 1)] == await tree(fair, chat)


async def test_two_chats_that_stored_the_same_reply_each_keep_their_own_game(fair: Proxy) -> None:
    """Two chats (different openings, no id) whose model wrote the same untagged reply: their
    stored texts are equal, so the replies sent back match both chats alike, and each history
    plays on in the chat its opening names — no edited candidate, no branch."""
    first, second = (history("We set out.", system=f"{SYSTEM} Table {n}.") for n in (1, 2))
    for messages in (first, second):
        fair.model.replies.append("They walk on.")
        assert 200 == (await fair.ask(messages)).status_code
    for messages in (second, first):
        fair.model.replies.append("The road bends.")
        answer = await fair.ask([*messages, {"role": "assistant", "content": "They walk on."},
                                 {"role": "user", "content": "On we go."}])
        assert (chat_for(messages), "2") == (answer.headers["x-gm-chat"],
                                             answer.headers["x-gm-turn"])
        assert [(1, 0), (1, 0)] == await tree(fair, chat_for(messages))


async def test_a_chat_the_reply_index_let_go_is_read_back_from_the_store_whole() -> None:
    """The index of stored replies holds the chats touched last (here one): a chat it let go
    is read back from the store, whole, the next time it is asked for, and the index holds the
    replies of the chats it holds only; over HTTP, with one chat in the engine's memory, a chat
    played after another plays on its own first turn (the first cake still held)."""
    games = GameConfig(brass(), party(brass(), BRASS_PARTY), seed=4)
    async with running_proxy(games, FakeModel(), options=ServeOptions(chats=1)) as proxy:
        one = await said(proxy, CAKE, "We reach the fair.")
        chat = chat_for(talk("We reach the fair."))
        proxy.model.replies.append(ROPE)
        other_talk = history("Elsewhere.", system="Another table.")
        other = await proxy.ask(other_talk)
        assert 200 == other.status_code
        two = await said(proxy, CAKE, "We reach the fair.", text(one), "Another cake.")
        assert [(1, 0), (1, 0)] == await tree(proxy, chat)
        assert 2 == await held(proxy, chat, "Honey cake")

        index = PathIndex(chats=1)
        await index.seed(proxy.engine, chat)
        assert {chat} == {s.chat for s in index.spots(text(one))}
        await index.seed(proxy.engine, chat_for(other_talk))  # lets the first chat go
        assert set() == index.spots(text(one))
        assert {chat_for(other_talk)} == {s.chat for s in index.spots(other.json()["choices"][0]
                                                                        ["message"]["content"])}
        await index.seed(proxy.engine, chat)  # read back whole: both its turns
        assert [{(chat, 1)}, {(chat, 2)}] == [{(s.chat, s.turn) for s in index.spots(text(answer))}
                                              for answer in (one, two)]


class _Busy(MemoryStore):
    """A store that, each time a chat's stored replies are read, first lets other requests store
    theirs (``meanwhile``): what 200 chats played at once do while one chat is read back."""

    def __init__(self) -> None:
        super().__init__()
        self.meanwhile: Callable[[], None] = lambda: None

    async def replies(self, chat: str, first: int, last: int) -> list[ReplyRow]:
        self.meanwhile()
        return await super().replies(chat, first, last)


async def played(tree: ChatTree, messages: list[dict[str, Any]], reply: str) -> tuple[Route, str]:
    """``messages`` routed through ``tree``, then ``reply`` stored as its turn's candidate: the
    route and the stored text."""
    ask = read_request(json.dumps({"model": "m", "messages": messages}).encode())
    route = await tree.route({}, ask, lambda chat: tree.engine.create_game(chat, brass()))
    done = await tree.engine.process(route.chat, route.turn, reply)
    tree.remember(done.chat, done.turn, done.candidate, done.text)
    return route, done.text


async def test_a_chat_let_go_while_its_own_request_routes_still_routes_right() -> None:
    """The index holds two chats, and while a chat's turns are read back from the store other
    requests store replies of new chats (each read, three more): the chat's request still plays
    its next turn on the candidates it kept — no branch, no edited candidate — and once it has
    routed the index holds two chats again."""
    store = _Busy()
    tree = ChatTree(Engine(store), PathIndex(chats=2))
    messages = talk("We set out.")
    for n in (1, 2, 3):
        _, kept = await played(tree, messages, f"Turn {n}. {CHECK}")
        messages += [{"role": "assistant", "content": kept},
                     {"role": "user", "content": f"On to turn {n + 1}."}]
    others = iter(range(10_000))
    store.meanwhile = lambda: [tree.remember(f"other-{next(others)}", 1, 0, f"Elsewhere {n}.")
                               for n in range(3)]
    tree.index = PathIndex(chats=2)  # the chat let go: read back, under the others' traffic
    route, _ = await played(tree, messages, "Turn 4.")
    store.meanwhile = lambda: None
    assert Route(chat_for(messages), 4) == route
    assert [[0], [0], [0], [0]] == [[c.candidate for c in await tree.engine.candidates(route.chat, n)]
                                    for n in (1, 2, 3, 4)]
    assert 2 == len(tree.index)


async def test_a_request_reads_the_store_as_often_at_turn_twelve_as_at_turn_four() -> None:
    """A chat UI sends the whole history back with every request: routing it reads the stored
    turns it covers at once and selects nothing the history keeps as it is, so a turn's store
    calls (routing and storing its reply) are the same at turn 12 as at turn 4, and none is a
    selection (the history was read turn by turn, and every kept candidate selected again)."""
    store = CountingStore()
    tree = ChatTree(Engine(store))
    messages = talk("We set out.")
    calls: dict[int, Counter[str]] = {}
    for n in range(1, 13):
        store.calls.clear()
        _, kept = await played(tree, messages, f"Turn {n}. {CHECK}")
        calls[n] = Counter(store.calls)
        messages += [{"role": "assistant", "content": kept},
                     {"role": "user", "content": f"On to turn {n + 1}."}]
    assert calls[4] == calls[12]
    assert 0 == calls[12]["select"] == calls[12]["get_turn"] - calls[4]["get_turn"]
    assert 1 == calls[12]["add_candidate"]


async def test_a_reply_many_chats_stored_does_not_make_a_request_read_them_all() -> None:
    """A reply with no tag ("They rest.") is stored alike in every chat that got it: a request
    whose history follows its own chat all along reads that chat only, so its store calls are
    the same with 2 chats holding that reply as with 8 (each was read on every request)."""
    store = CountingStore()
    tree = ChatTree(Engine(store))
    calls: list[Counter[str]] = []
    for chats in (2, 8):
        histories = []
        for n in range(chats):
            messages = talk(f"Table {chats}-{n} sets out.")
            _, kept = await played(tree, messages, "They rest.")
            histories.append([*messages, {"role": "assistant", "content": kept},
                              {"role": "user", "content": "On we go."}])
        store.calls.clear()
        route, _ = await played(tree, histories[-1], "They walk.")
        assert Route(chat_for(histories[-1]), 2) == route
        calls.append(Counter(store.calls))
    assert calls[0] == calls[1]


async def test_routing_a_turn_that_goes_on_reads_the_chat_s_turns_once() -> None:
    """Issue 13: the next turn of a chat that goes on reads the turns its history covers once,
    to recognise the chat, and follows it from that read (it read them again, and where the
    chat ends, right after); regenerating the turn reads no more. A new chat's first turn reads
    none: nothing is stored in it yet."""
    store = CountingStore()
    tree = ChatTree(Engine(store))
    messages = talk("We set out.")
    await played(tree, messages, f"Turn 1. {CHECK}")
    assert (0, 0) == (store.calls["turns"], store.calls["last_turn"])
    store.calls.clear()
    route, kept = await played(tree, messages, f"Turn 1 again. {CHECK}")  # a regeneration
    assert Route(chat_for(messages), 1) == route
    assert (1, 0) == (store.calls["turns"], store.calls["last_turn"])
    messages += [{"role": "assistant", "content": kept}, {"role": "user", "content": "On."}]
    store.calls.clear()
    route, _ = await played(tree, messages, f"Turn 2. {CHECK}")
    assert Route(chat_for(messages), 2) == route
    assert (1, 0) == (store.calls["turns"], store.calls["last_turn"])
    assert [(2, 1), (1, 0)] == await tree_of(store, route.chat)


async def tree_of(store: CountingStore, chat: str) -> list[tuple[int, int | None]]:
    """Each turn of ``chat``: how many candidates it has and which is selected."""
    rows = await store.turns(chat, 1, await store.last_turn(chat))
    return [(len(await store.list_candidates(chat, n)), rows[n].selected) for n in sorted(rows)]
