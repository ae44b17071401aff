"""A bot's table used every way at once (SPEC §3, §7 bots): random runs of two people playing,
the model failing now and then, redelivered updates, regenerates, swipes and buttons (stale ones
too), edited messages, undo, the bot restarted, and two bot processes on one SQLite store taking
the updates in turn (each with its own engine and caches), the model a fake on 127.0.0.1. A
plain model of the chat says what each step must give; after every step, whatever came before:

- each call answers as the model says (the turn and candidate, replayed or not, ``NotNow`` or
  None where nothing is done) and the model is asked exactly when it must be;
- what is posted is the stored candidate (``resolved``; ``text`` is it as people read it);
- the history a request sends is the player lines and the kept candidates of the turns before;
- a restarted bot, or the other process, plays the same game, and every turn's state read
  cold is the one the engine serving holds.

``GM_HUNT_EXAMPLES`` (default 25) sets how many runs are played, for a longer hunt.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import tempfile
from collections.abc import Awaitable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from middleware.bots import NotNow, Played, Speaker, Table, TableConfig
from middleware.bots.table import RETRY_TURNS
from middleware.display import for_people
from middleware.engine import Engine
from middleware.errors import UpstreamError
from middleware.proxy.upstream import HttpUpstream
from middleware.stores import Store, open_store
from tests.bots.conftest import lantern, lantern_party
from tests.proxy.conftest import FakeModel, serving
from tests.stores.pg import fresh_schema

T = TypeVar("T")

PEOPLE = (Speaker("101", "Ada", "ada"), Speaker("202", "Bob"))
REPLIES = ('Wren climbs [skill_check: skill="Climb" dc="7"].', "The lamp gutters.",
           'Tobiah counts [skill_check: skill="Reckon" dc="8" who="Tobiah Crane"].',
           '[inventory: action="add" item="Rope"] A coil of rope.', "[weird: tag] Odd.")
HISTORY = 3
"""Turns of conversation sent: small, so that runs go past it."""


@dataclass
class Turn:
    """One turn as the chat holds it: the player line, its message id, the candidates' resolved
    texts with their retry keys, and which is kept (None: the model never answered)."""

    text: str
    message: str
    candidates: list[tuple[str, str | None]] = field(default_factory=list)
    kept: int | None = None


@dataclass
class Chat:
    """The model of one chat: each generation's game (an undo starts the next one)."""

    games: list[list[Turn]] = field(default_factory=lambda: [[]])

    @property
    def turns(self) -> list[Turn]:
        return self.games[-1]

    def keyed(self, key: str, generation: int) -> tuple[int, int] | None:
        """Where the table finds ``key`` in that generation's latest turns (turn, candidate)."""
        turns = self.games[generation]
        for n in range(len(turns), max(0, len(turns) - RETRY_TURNS), -1):
            for index, (_, own) in enumerate(turns[n - 1].candidates):
                if own == key:
                    return n, index
        return None


    def opened(self, message: str) -> tuple[int, int] | None:
        """The answered turn among the latest that ``message`` opened, and its kept candidate:
        the message delivered again is that turn."""
        turns = self.turns
        for n in range(max(1, len(turns) - RETRY_TURNS + 1), len(turns) + 1):
            turn = turns[n - 1]
            if turn.message == message and turn.kept is not None:
                return n, turn.kept
        return None


# --- steps ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Play:
    person: int
    text: str
    keyed: bool
    fails: bool


@dataclass(frozen=True)
class Again:
    """The last keyed step delivered again."""


@dataclass(frozen=True)
class Regenerate:
    latest: bool
    keyed: bool


@dataclass(frozen=True)
class Swipe:
    step: int


@dataclass(frozen=True)
class Edit:
    latest: bool
    text: str


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class Press:
    action: str
    stale: bool


@dataclass(frozen=True)
class Restart:
    pass


@dataclass(frozen=True)
class Switch:
    """The next updates go to the other bot process on the same store."""


STEPS = st.one_of(
    st.builds(Play, st.integers(0, 1), st.sampled_from(["I climb.", "I look.", "I count."]),
              st.booleans(), st.sampled_from([False, False, False, True])),
    st.just(Again()), st.builds(Regenerate, st.booleans(), st.booleans()),
    st.builds(Swipe, st.sampled_from([-1, 1])),
    st.builds(Edit, st.booleans(), st.sampled_from(["I hide.", "I run."])),
    st.just(Undo()), st.builds(Press, st.sampled_from(["regenerate", "previous", "next", "dice"]),
                               st.booleans()),
    st.just(Restart()), st.just(Switch()), st.just(Switch()))


# --- the run -------------------------------------------------------------------------------

class Rig:
    """The fake model served on its own event loop, up across examples, and one store: SQLite,
    or PostgreSQL in a schema of its own."""

    def __init__(self, folder: Path, kind: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.stack = AsyncExitStack()
        self.model = FakeModel()
        url = self.run(self.stack.enter_async_context(serving(self.model.app())))
        self.upstream = HttpUpstream(url)
        where = self.run(self.stack.enter_async_context(fresh_schema())) if kind == "postgres" \
            else f"sqlite:///{folder}/games.db"
        self.store: Store = self.run(open_store(where))
        ruleset = lantern()
        self.config = TableConfig(ruleset, lantern_party(ruleset), seed=5, model="fake-gm",
                                  history=HISTORY)
        self.restart()

    def restart(self) -> None:
        """Both bot processes started again: nothing held in memory."""
        self.tables = [self._table(), self._table()]
        self.serving = 0

    def restart_one(self) -> None:
        """The process serving now started again."""
        self.tables[self.serving] = self._table()

    def switch(self) -> None:
        """The other process, its caches as they were, serves the next updates."""
        self.serving = 1 - self.serving

    @property
    def table(self) -> Table:
        return self.tables[self.serving]

    @property
    def engine(self) -> Engine:
        return self.table.engine

    def _table(self) -> Table:
        return Table(Engine(self.store), self.upstream, self.config)

    def run(self, work: Awaitable[T]) -> T:
        return self.loop.run_until_complete(work)

    def close(self) -> None:
        self.run(self.upstream.aclose())
        self.run(self.store.close())
        self.run(self.stack.aclose())  # the schema dropped after the store let go of it
        self.loop.close()


class Run:
    """One example: a chat of its own, played step by step against its model."""

    def __init__(self, rig: Rig, chat: str) -> None:
        self.rig, self.chat, self.model = rig, chat, Chat()
        self.replies = itertools.cycle(REPLIES)
        self.numbers = itertools.count(1)
        self.last_keyed: tuple[Any, str, str] | None = None
        self.started = False
        """Whether anyone has spoken: the first message creates the game."""

    @property
    def generation(self) -> int:
        return len(self.model.games) - 1

    async def step(self, step: object) -> None:
        asked = len(self.rig.model.seen)
        expect_ask = await self._step(step)
        assert asked + expect_ask == len(self.rig.model.seen), step
        assert not self.rig.model.replies, "the model was not asked for a reply it was given"
        await self._agrees()

    async def _step(self, step: object) -> int:
        """Do ``step``; check its answer; return how many times the model had to be asked."""
        if isinstance(step, Play):
            return await self._play(step, f"key-{next(self.numbers)}" if step.keyed else None,
                                    f"m{next(self.numbers)}")
        if isinstance(step, Again):
            return await self._again()
        if isinstance(step, Regenerate):
            return await self._regenerate(step)
        if isinstance(step, Swipe):
            return await self._swipe(step.step)
        if isinstance(step, Edit):
            return await self._edit(step)
        if isinstance(step, Undo):
            return await self._undo()
        if isinstance(step, Press):
            return await self._press(step)
        if isinstance(step, Switch):
            self.rig.switch()
        else:
            self.rig.restart_one()
        return 0

    async def _play(self, step: Play, key: str | None, message: str) -> int:
        self.started = True
        if key is not None:
            self.last_keyed = (step, key, message)
        found = await self._found(key) or self.model.opened(message)
        if found is not None:
            if isinstance(found, str):
                await self._refused(self.rig.table.play(self.chat, PEOPLE[step.person], step.text,
                                                        key=key, message=message), found)
                return 0
            played = await self.rig.table.play(self.chat, PEOPLE[step.person], step.text,
                                               key=key, message=message)
            self._is(played, *found, replayed=True)
            return 0
        turns = self.model.turns
        if turns and turns[-1].kept is None:  # the model never answered it: played again
            turns[-1].text, turns[-1].message = step.text, message
        else:
            turns.append(Turn(step.text, message))
        return await self._asked(self.rig.table.play(self.chat, PEOPLE[step.person], step.text,
                                                     key=key, message=message),
                                 len(turns), key, fails=step.fails)

    async def _again(self) -> int:
        if self.last_keyed is None:
            return 0
        step, key, message = self.last_keyed
        if isinstance(step, Play):
            return await self._play(step, key, message)
        return await self._regenerate(step, key)

    async def _regenerate(self, step: Regenerate, key: str | None = None) -> int:
        if key is None and step.keyed:
            key = f"key-{next(self.numbers)}"
        if key is not None:
            self.last_keyed = (step, key, "")
        turns = self.model.turns
        turn = len(turns) if step.latest else len(turns) - 1
        call = self.rig.table.regenerate(self.chat, turn=turn, key=key)
        found = await self._found(key)
        if isinstance(found, str):
            await self._refused(call, found)
            return 0
        if found is not None:
            self._is(await call, *found, replayed=True)
            return 0
        if not turns:
            await self._refused(call, self._none_yet("No turn has been played yet."))
            return 0
        if not step.latest:
            await self._refused(call, "Only the latest turn can be regenerated.")
            return 0
        return await self._asked(call, turn, key)

    async def _swipe(self, step: int) -> int:
        call = self.rig.table.swipe(self.chat, step)
        turns = self.model.turns
        if not turns:
            await self._refused(call, self._none_yet("No turn has been played yet."))
            return 0
        last = turns[-1]
        to = (last.kept if last.kept is not None else 0) + step
        if not 0 <= to < len(last.candidates):
            await self._refused(call, "There is no other reply that way.")
            return 0
        last.kept = to
        self._is(await call, len(turns), to)
        return 0

    async def _edit(self, step: Edit) -> int:
        turns = self.model.turns
        if not turns:
            await self._refused(self.rig.table.edit(self.chat, "m0", step.text),
                                self._none_yet(None))
            return 0
        target = turns[-1] if step.latest or len(turns) == 1 else turns[-2]
        done = self.rig.table.edit(self.chat, target.message, step.text)
        if target is not turns[-1] or target.text == step.text:
            assert None is await done
            return 0
        target.text = step.text
        return await self._asked(done, len(turns), None)

    async def _undo(self) -> int:
        call = self.rig.table.undo(self.chat)
        if not self.model.turns:
            await self._refused(call, self._none_yet("There is no turn to undo."))
            return 0
        turns = self.model.turns
        kept = [Turn(t.text, t.message, list(t.candidates), t.kept) for t in turns[:-1]]
        self.model.games.append(kept)
        assert len(kept) == await call
        return 0

    async def _press(self, step: Press) -> int:
        turns = self.model.turns
        if not turns or turns[-1].kept is None:
            return 0  # no post carries buttons yet
        last = turns[-1]
        generation = self.generation - 1 if step.stale and self.generation else self.generation
        data = f"gm:{step.action[0]}:{generation}:{len(turns)}:{last.kept}"
        call = self.rig.table.press(self.chat, data)
        if generation != self.generation:
            await self._refused(call, "That turn was undone.")
            return 0
        if step.action == "dice":
            pressed = await call
            assert "card" == pressed.kind
            self._is(pressed.played, len(turns), last.kept, replayed=True)
            return 0
        if step.action == "regenerate":
            return await self._asked(_played_of(call), len(turns), None)
        to = last.kept + (1 if step.action == "next" else -1)
        if not 0 <= to < len(last.candidates):
            await self._refused(call, "There is no other reply that way.")
            return 0
        last.kept = to
        self._is((await call).played, len(turns), to)
        return 0

    # --- what each answer must be ---------------------------------------------------------

    async def _found(self, key: str | None) -> tuple[int, int] | str | None:
        """Where a retry key is found (the turn and candidate it answers with), the refusal it
        gets (a turn undone since), or None: played as new."""
        if key is None:
            return None
        found = self.model.keyed(key, self.generation)
        if found is not None:
            return found
        if self.generation and self.model.keyed(key, self.generation - 1) is not None:
            return "That turn was undone."
        return None

    async def _asked(self, call: Awaitable[Played], turn: int, key: str | None, *,
                     fails: bool = False) -> int:
        """The model is asked once for ``turn``'s next candidate; its answer is stored and
        posted (or, failing, nothing is stored and the turn waits for an answer)."""
        self.rig.model.replies.append(500 if fails else next(self.replies))
        try:
            played = await call
        except UpstreamError:
            assert fails
            return 1
        assert not fails
        last = self.model.turns[turn - 1]
        last.candidates.append((played.resolved, key))
        last.kept = len(last.candidates) - 1
        self._is(played, turn, last.kept)
        self._sent_history(turn)
        return 1

    def _sent_history(self, turn: int) -> None:
        """The request just made: the kept replies of the turns before, the player's lines."""
        sent = self.rig.model.seen[-1]["messages"]
        talk = [m for m in sent if m["role"] != "system"]
        wanted = self.model.turns[max(0, turn - HISTORY):turn]
        lines = [m["content"] for m in talk if m["role"] == "user"]
        replies = [m["content"] for m in talk if m["role"] == "assistant"]
        assert [t.candidates[t.kept][0] for t in wanted[:-1] if t.kept is not None] == replies
        assert len(lines) == len(wanted)
        assert all(line.endswith(": " + t.text) for line, t in zip(lines, wanted, strict=True))

    def _is(self, played: Played, turn: int, candidate: int, *, replayed: bool = False) -> None:
        stored = self.model.turns if played.generation == self.generation else None
        assert (turn, candidate, replayed) == (played.turn, played.candidate, played.replayed)
        assert self.generation == played.generation
        assert stored is not None and stored[turn - 1].candidates[candidate][0] == played.resolved
        assert for_people(played.resolved, played.records) == played.text
        assert (candidate + 1 < len(stored[turn - 1].candidates)) == played.has_next

    async def _refused(self, call: Awaitable[object], reason: str | None) -> None:
        try:
            answer = await call
        except NotNow as exc:
            assert reason is not None and str(exc).startswith(reason), (str(exc), reason)
        else:
            assert reason is None and answer is None, answer

    def _none_yet(self, reason: str | None) -> str | None:
        """``reason``, or the refusal of a chat where nobody has spoken."""
        return reason if self.started else "No game has started"

    async def _agrees(self) -> None:
        """The store holds what the model says; a cold engine reads the states the hot one does."""
        if not self.started:
            return
        game = await self.rig.table.game_id(self.chat)
        engine, cold = self.rig.engine, Engine(self.rig.store)
        turns = self.model.turns
        assert len(turns) == await engine.store.last_turn(game)
        for n, turn in enumerate(turns, start=1):
            row = await engine.store.get_turn(game, n)
            assert row is not None and turn.kept == row.selected
            stored = await engine.candidates(game, n)
            assert [text for text, _ in turn.candidates] == [c.text for c in stored]
            assert await cold.state_after(game, n) == await engine.state_after(game, n)


async def _played_of(call: Awaitable[Any]) -> Played:
    pressed = await call
    assert "post" == pressed.kind
    played: Played = pressed.played
    return played


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_bot_table_used_every_way_keeps_what_it_posts(kind: str) -> None:
    """SPEC §3, §7: whatever people and the model do, in any order, each step answers as a plain
    model of the chat says, what is posted is what is stored, the model is sent the kept
    history, and a restarted bot, the other bot process or a cold engine reads the same game."""
    with tempfile.TemporaryDirectory() as folder:
        rig = Rig(Path(folder), kind)
        chats = itertools.count()
        try:
            @settings(max_examples=int(os.environ.get("GM_HUNT_EXAMPLES", "25")), deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])
            @given(st.lists(STEPS, min_size=1, max_size=14))
            def example(steps: list[object]) -> None:
                rig.restart()
                run = Run(rig, f"telegram:{next(chats)}")
                rig.model.replies.clear()
                for step in steps:
                    rig.run(run.step(step))

            example()
        finally:
            rig.close()
