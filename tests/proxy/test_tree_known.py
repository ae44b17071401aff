"""The route taking the turns a chat's last request followed as known (``tree_known``) finds what
looking every turn up finds (SPEC §3, §7 proxy).

The random runs of a chat UI of ``test_tree_property`` (sending, regenerating, swiping back,
editing old player messages and replies' prose, trimming, Continue) are played on two trees side
by side, each over a store of its own: one keeps the path each chat followed last, the other never
does and looks every turn up on every request. Every request lands on the same chat, turn and
candidate in both, the UI is shown the same, and after each the two stores hold the same turns
(player messages, candidates selected, events) and the same candidates. With an index of one
chat (the chat named), chats are let go and read back between requests.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from middleware.engine import Engine
from middleware.proxy.chat import read_request
from middleware.proxy.history import History, Said
from middleware.proxy.tree import ChatTree
from middleware.proxy.tree_index import PathIndex, Spot, family, root_of
from middleware.proxy.tree_known import KnownPath, KnownPaths, known_path
from middleware.records import Record
from middleware.stores import TurnRow
from middleware.stores.memory import MemoryStore
from tests.gm_view.helpers import BRASS_PARTY, brass, party
from tests.proxy.test_tree_property import _ACT, ACTIONS, Played, Routed, Ui, _named, _play


class NeverKnown(KnownPaths):
    """Known paths never kept: every request looks every turn up."""

    def get(self, chat: str) -> KnownPath | None:
        return None

    def put(self, path: KnownPath) -> None:
        pass


class Seeded(Routed):
    """``Routed``, each reply's dice thrown from ``seed`` (the twins throw the same dice)."""

    seed = 0

    async def answer(self, ui: Ui, reply: str) -> Played:
        route = await self._route(ui, continuing=False)
        done = await self.engine.process(route.chat, route.turn, reply, seed=self.seed)
        self.tree.remember(done.chat, done.turn, done.candidate, done.text)
        return Played(route.chat, route.turn, None, done.text)


class Twin:
    """The same requests routed on two trees: ``known`` keeps known paths, ``looked`` never."""

    def __init__(self, index_size: int) -> None:
        self.known = Seeded(ChatTree(Engine(MemoryStore()), PathIndex(index_size)))
        self.looked = Seeded(ChatTree(Engine(MemoryStore()), PathIndex(index_size),
                                      known=NeverKnown()))
        self.engine = self.known.engine

    async def answer(self, ui: Ui, reply: str) -> Played:
        self.known.seed = self.looked.seed = self.known.seed + 1
        return await self._alike(await self.known.answer(ui, reply),
                                 await self.looked.answer(ui, reply))

    async def extend(self, ui: Ui, more: str) -> Played:
        return await self._alike(await self.known.extend(ui, more),
                                 await self.looked.extend(ui, more))

    def shown(self, text: str, records: Sequence[Record]) -> str:
        return text

    async def _alike(self, known: Played, looked: Played) -> Played:
        assert known == looked
        for chat in await family(self.engine, root_of(known.chat)):
            assert await _held(self.known.engine, chat) == await _held(self.looked.engine, chat)
        return known


async def _held(engine: Engine, chat: str) -> tuple[object, ...]:
    """What the store holds of ``chat``: every turn's row and every candidate's text."""
    last = await engine.store.last_turn(chat)
    rows = await engine.store.turns(chat, 1, last)
    replies = await engine.store.replies(chat, 1, last)
    return (sorted((n, r.user_text, r.selected, json.dumps(r.events)) for n, r in rows.items()),
            sorted((r.turn, r.index, r.text) for r in replies))


LONG_RUNS = st.lists(st.tuples(st.sampled_from(["send"] * 6 + sorted(_ACT)), st.integers(0, 9)),
                    min_size=20, max_size=60)
"""Runs long enough for paths of tens of turns to be known, and left, and known again."""


INDEXES = st.sampled_from([(False, 64), (True, 64), (True, 1)])
"""Whether the UI names the chat, and how many chats the index holds. With one, chats are let go
and read back between requests: only a named chat is (a chat with no id whose history no longer
holds its opening is found by its replies alone, which a chat let go has taken with it)."""


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS, INDEXES)
def test_known_paths_route_as_looking_every_turn_up(actions: list[tuple[str, int]],
                                                    index: tuple[bool, int]) -> None:
    asyncio.run(_play(Twin(index[1]), actions, _named(index[0])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LONG_RUNS, INDEXES)
def test_the_same_over_long_runs(actions: list[tuple[str, int]], index: tuple[bool, int]) -> None:
    asyncio.run(_play(Twin(index[1]), actions, _named(index[0])))


def test_a_chat_going_on_looks_up_only_the_reply_it_sends_back_new() -> None:
    """Six turns of a chat played one after another: from turn 3 on, of its history's replies,
    the route looks up the newest alone, once to align and once to follow (the ones before are
    the path the turn before followed); looking every turn up, it looks up each of them twice.
    Each reply's tags its own (a reply whose tags another of the chat's had changes the index's
    answers, and the route looks every turn up again)."""
    assert [0, 2, 2, 2, 2, 2] == asyncio.run(_look_ups(KnownPaths()))
    assert [0, 2, 4, 6, 8, 10] == asyncio.run(_look_ups(NeverKnown()))


async def _look_ups(known: KnownPaths) -> list[int]:
    """How many replies each of six turns' routes looked up in the index."""
    tree = ChatTree(Engine(MemoryStore()), known=known)
    looked: list[int] = []
    looking = tree.index.spots_in

    def counted(text: str, chat: str) -> set[Spot]:
        looked.append(1)
        return looking(text, chat)

    tree.index.spots_in = counted  # type: ignore[method-assign]
    messages: list[dict[str, str]] = [{"role": "system", "content": "The brass road."}]
    per_turn: list[int] = []
    for turn in range(1, 7):
        messages.append({"role": "user", "content": f"On we go ({turn})."})
        looked.clear()
        ask = read_request(json.dumps({"model": "m", "messages": messages}).encode())
        route = await tree.route({}, ask, _created(tree.engine))
        assert turn == route.turn
        per_turn.append(len(looked))
        done = await tree.engine.process(
            route.chat, route.turn, f'Scene {turn}. [skill_check: skill="Haggle" dc="{turn + 3}"]')
        tree.stored(done)
        messages.append({"role": "assistant", "content": done.text})
    return per_turn


def _created(engine: Engine) -> Callable[[str], Awaitable[bool]]:
    async def create(chat: str) -> bool:
        await engine.create_game(chat, brass(), party(brass(), BRASS_PARTY), seed=4)
        return True
    return create


def test_a_path_another_worker_changed_is_looked_up_again() -> None:
    """Another worker writes a player message over turn 2 of a chat whose path is known here (a
    ``said`` event, as a bot does): the next request, sending turn 2 as the UI shows it, leaves
    the stored path there, and branches as a route looking every turn up does."""
    async def play(known: KnownPaths) -> tuple[str, int, str | None]:
        tree = ChatTree(Engine(MemoryStore()), known=known)
        messages: list[dict[str, str]] = [{"role": "system", "content": "The brass road."}]
        for turn in range(1, 5):
            messages.append({"role": "user", "content": f"On we go ({turn})."})
            ask = read_request(json.dumps({"model": "m", "messages": messages}).encode())
            route = await tree.route({}, ask, _created(tree.engine))
            if turn == 3:  # the path of turns 1-2 is known from here on
                other = Engine(tree.engine.store)
                await other.event(route.chat, 2, {"type": "said", "text": "Somewhere else."})
            done = await tree.engine.process(
                route.chat, route.turn, f'Turn {turn}. [skill_check: skill="Haggle" '
                f'dc="{turn + 3}"]', seed=turn)
            tree.stored(done)
            messages.append({"role": "assistant", "content": done.text})
        return route.chat, route.turn, route.branched_from

    looked = asyncio.run(play(NeverKnown()))
    assert looked[2] is not None, looked  # the branch a route looking every turn up makes
    assert looked == asyncio.run(play(KnownPaths()))


def test_a_known_path_is_taken_only_under_the_same_turns() -> None:
    """``KnownPath.leading``: the history must go on past the known turns with those very
    turns."""
    turns = (Said("Hello.", "Hi."), Said("On.", "On it."))
    path = known_path("c", 0, turns, {1: 0, 2: 1})
    assert path is not None
    assert 2 == path.leading(History((*turns, Said("Next.", None)), None))
    assert 0 == path.leading(History(turns, None))  # nothing past them
    edited = (Said("Hello.", "Hi!"), turns[1], Said("Next.", None))
    assert 0 == path.leading(History(edited, None))
    said_again = (Said("Hello!", "Hi."), turns[1], Said("Next.", None))
    assert 0 == path.leading(History(said_again, None))


def test_a_known_path_stands_while_the_rows_hold_it() -> None:
    """``KnownPath.stands``: each known turn's row has its candidate selected and its player's
    message as said."""
    path = known_path("c", 1, (Said("Hello.", "Hi."), Said("On.", "On it.")), {2: 0, 3: 1})
    assert path is not None
    rows = {2: TurnRow("c", 2, "Hello.", 0), 3: TurnRow("c", 3, "On.", 1)}
    assert path.stands(rows)
    assert not path.stands({**rows, 3: TurnRow("c", 3, "On.", 0)})
    assert not path.stands({**rows, 2: TurnRow("c", 2, "Hello.", 0,
                                               [{"type": "said", "text": "Bye."}])})
    assert not path.stands({2: rows[2]})
