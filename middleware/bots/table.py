"""A game master's table for a bot (SPEC §3, §7): one game per chat, played turn by turn.

A bot has no client that sends the history back, so the table holds the conversation: a player's
message opens a turn (who said it and which member they play, kept as ``said`` events), the
prompt is the GM's view of the turn-start state plus every earlier turn's player line and kept
candidate, one call to the upstream model gets the reply, ``Engine.process`` resolves and stores
it, and the bot posts the text rendered for people. Everything lives in the engine's store, so a
restarted bot, or several bot processes on one PostgreSQL database, carry on the same games.

- Retry keys (a Telegram ``update_id``, a Discord message id) are looked up in the latest turns
  first: a redelivered update returns the stored candidate; nothing is asked or stored again.
- A regenerate is a new candidate of the latest turn from its start; a swipe selects another.
- An edited player message (the latest turn's) re-plays that turn as a new candidate.
- Undo forks the game at the turn before the latest (``Engine.fork``): the chat goes on in the
  fork, ``<chat>~1``, ``<chat>~2`` ...; the table finds the newest one by looking for the next.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field
from typing import Literal

from middleware.bots.conversation import Conversation, Line, said_event
from middleware.bots.played import Display, NotNow, Played, Pressed
from middleware.bots.post import read_button
from middleware.bots.prompt import PromptBuilder, messages
from middleware.bots.seats import Sat, Speaker, seat_of
from middleware.character.events import speaking
from middleware.dice import derive_seed
from middleware.display import for_people
from middleware.engine import Engine, Processed
from middleware.errors import GameError
from middleware.gm_view import ViewOptions, build_view
from middleware.json_input import JsonObject
from middleware.names import normalize_name
from middleware.proxy.upstream import Upstream, content_of
from middleware.resolve.dispatch import record_from_json
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState
from middleware.stores.base import CandidateRow


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What every chat's game starts with and how the model is asked.

    ``seats`` maps a platform user id, ``@handle`` or display name to a party member; ``history``
    is how many turns of conversation are sent; ``options`` go to the prompt builder; ``sampling``
    into the request body (``{"temperature": 0.8}``). Each chat's game seed is derived from
    ``seed`` and the chat id.
    """

    ruleset: Ruleset
    party: tuple[Character, ...] = ()
    seed: int = 0
    dice: Literal["candidate", "turn"] = "candidate"
    model: str = ""
    seats: dict[str, str] = field(default_factory=dict)
    history: int = 40
    options: ViewOptions | None = None
    sampling: JsonObject = field(default_factory=dict)


RETRY_TURNS = 3
"""A retry key is looked for in this many latest turns (a redelivery comes within seconds)."""


class Table:
    """Plays turns of the games of many chats on one engine, asking ``upstream`` for replies."""

    def __init__(self, engine: Engine, upstream: Upstream, config: TableConfig, *,
                 prompt: PromptBuilder = build_view, display: Display = for_people) -> None:
        self.engine = engine
        self.upstream = upstream
        self.config = config
        self._prompt = prompt
        self._display = display
        self._talk = Conversation(engine.store)
        self._generations: dict[str, int] = {}
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def play(self, chat: str, speaker: Speaker, text: str, *, key: str | None = None,
                   message: str | None = None) -> Played:
        """The player's ``text`` opens the next turn (or replaces a turn the model never
        answered); the model's reply is resolved, stored and returned."""
        async with self._lock(chat):
            game, generation = await self._game(chat, speaker)
            if key is not None and (done := await self._retried(chat, generation, key)):
                return await self._played(chat, generation, done)
            last = await self.engine.store.last_turn(game)
            lines = await self._talk.lines(game, last, self.config.history)
            if (opened := _answered(lines, message)) is not None:
                row = await self.engine.store.get_candidate(game, *opened)
                return await self._played(chat, generation, _processed(row, replayed=True))
            unanswered = bool(lines) and lines[-1].turn == last and lines[-1].reply is None
            turn = last if unanswered else last + 1
            who = await self._seat(game, turn, speaker, lines)
            if turn == last + 1:
                await self.engine.user(game, turn, text)
            if not (unanswered and (lines[-1].text, lines[-1].message) == (text, message)):
                await self.engine.event(game, turn, said_event(
                    text, by=speaker.id, name=speaker.label, who=who, message=message))
            return await self._answer(chat, generation, game, turn, key)

    async def edit(self, chat: str, message: str, text: str, *,
                   key: str | None = None) -> Played | None:
        """The latest turn's player message ``message`` now reads ``text``: the turn is played
        again from its start as a new candidate. None when ``message`` did not open the latest
        turn or its text is unchanged (nothing is asked or stored)."""
        async with self._lock(chat):
            game, generation = await self._game(chat)
            if key is not None and (done := await self._retried(chat, generation, key)):
                return await self._played(chat, generation, done)
            last = await self.engine.store.last_turn(game)
            line = await self._talk.line(game, last) if last else None
            if line is None or line.message != message or line.text == text:
                return None
            await self.engine.event(game, last, said_event(
                text, by=line.by, name=line.name, who=line.who, message=message))
            return await self._answer(chat, generation, game, last, key)

    async def regenerate(self, chat: str, *, turn: int | None = None,
                         key: str | None = None) -> Played:
        """Another candidate of the latest turn, from the turn's start (``turn`` must be it)."""
        async with self._lock(chat):
            game, generation = await self._game(chat)
            if key is not None and (done := await self._retried(chat, generation, key)):
                return await self._played(chat, generation, done)
            last = await self._latest(game, turn, "regenerated")
            return await self._answer(chat, generation, game, last, key)

    async def choose(self, chat: str, turn: int, candidate: int) -> Played:
        """Select candidate ``candidate`` of the latest turn (a swipe); nothing is thrown."""
        async with self._lock(chat):
            game, generation = await self._game(chat)
            await self._latest(game, turn, "swiped")
            try:
                row = await self.engine.store.get_candidate(game, turn, candidate)
            except GameError as exc:
                raise NotNow("There is no other reply that way.") from exc
            await self.engine.select(game, turn, candidate)
            return await self._played(chat, generation, _processed(row))

    async def swipe(self, chat: str, step: int) -> Played:
        """The candidate ``step`` away from the selected one of the latest turn."""
        game, _ = await self._game(chat)
        last = await self._latest(game, None, "swiped")
        turn = await self.engine.store.get_turn(game, last)
        selected = turn.selected if turn is not None and turn.selected is not None else 0
        return await self.choose(chat, last, selected + step)

    async def shown(self, chat: str, turn: int, candidate: int) -> Played:
        """Candidate ``candidate`` of ``turn`` as stored (for its dice card); changes nothing."""
        game, generation = await self._game(chat)
        try:
            row = await self.engine.store.get_candidate(game, turn, candidate)
        except GameError as exc:
            raise NotNow("That reply is not in this game any more.") from exc
        return await self._played(chat, generation, _processed(row, replayed=True))

    async def press(self, chat: str, data: str | None, *, key: str | None = None) -> Pressed:
        """What a button (its callback data / custom id) does; ``NotNow`` for a stale one."""
        button = read_button(data)
        if button is None:
            raise NotNow("That button is not one of the Game Master's.")
        _, generation = await self._game(chat)
        if button.generation != generation:
            raise NotNow("That turn was undone.")
        if button.action == "regenerate":
            return Pressed("post", await self.regenerate(chat, turn=button.turn, key=key))
        if button.action == "dice":
            return Pressed("card", await self.shown(chat, button.turn, button.candidate))
        step = -1 if button.action == "previous" else 1
        return Pressed("edit", await self.choose(chat, button.turn, button.candidate + step))

    async def undo(self, chat: str) -> int:
        """Take back the latest turn: the chat goes on from the turn before it (returned)."""
        async with self._lock(chat):
            game, generation = await self._game(chat)
            last = await self.engine.store.last_turn(game)
            if last == 0:
                raise NotNow("There is no turn to undo.")
            await self.engine.fork(game, last - 1, _game_id(chat, generation + 1))
            self._generations[chat] = generation + 1
            return last - 1

    async def state(self, chat: str) -> GameState:
        """The chat's game state after its latest turn."""
        game, _ = await self._game(chat)
        return await self.engine.state(game)

    async def game_id(self, chat: str) -> str:
        """The id of the game the chat plays now (``chat``, or its newest fork after an undo)."""
        return (await self._game(chat))[0]

    async def _answer(self, chat: str, generation: int, game: str, turn: int,
                      key: str | None) -> Played:
        *history, newest = await self._talk.lines(game, turn, self.config.history)
        start = await self.engine.state_after(game, turn - 1)
        records = history[-1].records if history else ()
        row = await self.engine.game(game)
        view = self._prompt(await self.engine.ruleset(game), start, records, self.config.options,
                            seed=row.seed)
        body = {**self.config.sampling, "model": self.config.model,
                "messages": messages(view, history, newest)}
        reply = content_of(await self.upstream.complete(body, None))
        return await self._played(chat, generation,
                                  await self.engine.process(game, turn, reply, key=key), newest)

    async def _played(self, chat: str, generation: int, done: Processed,
                      line: Line | None = None) -> Played:
        line = line or await self._talk.line(done.chat, done.turn)
        has_next = await self._exists(done.chat, done.turn, done.candidate + 1)
        return Played(chat=chat, game=done.chat, generation=generation, turn=done.turn,
                      candidate=done.candidate, text=self._display(done.text, done.records),
                      resolved=done.text, records=done.records,
                      who=line.who if line else None, has_next=has_next, replayed=done.replayed)

    async def _seat(self, game: str, turn: int, speaker: Speaker,
                    lines: list[Line]) -> str | None:
        """The member ``speaker`` plays; from turn 2 on, made the player of the turn's start."""
        start = await self.engine.state_after(game, turn - 1)
        who = seat_of(speaker, start, self.config.seats, [Sat(x.by, x.who) for x in lines])
        index = start.player_index
        playing = start.party[index].key if index is not None else None
        if who is not None and turn > 1 and normalize_name(who) != playing:
            await self.engine.event(game, turn - 1, {"type": "speaker", "who": who})
        return who

    async def _latest(self, game: str, turn: int | None, doing: str) -> int:
        last = await self.engine.store.last_turn(game)
        if last == 0:
            raise NotNow("No turn has been played yet.")
        if turn is not None and turn != last:
            raise NotNow(f"Only the latest turn can be {doing}.")
        return last

    async def _retried(self, chat: str, generation: int, key: str) -> Processed | None:
        """The candidate stored with ``key`` in the chat's latest turns; ``NotNow`` when it was
        on a turn that was undone since (a redelivery must not play that turn again)."""
        if (done := await self._keyed(_game_id(chat, generation), key)) is not None:
            return done
        if generation > 0 and await self._keyed(_game_id(chat, generation - 1), key):
            raise NotNow("That turn was undone.")
        return None

    async def _keyed(self, game: str, key: str) -> Processed | None:
        last = await self.engine.store.last_turn(game)
        for turn in range(last, max(0, last - RETRY_TURNS), -1):
            if (done := await self.engine.retried(game, turn, key)) is not None:
                return done
        return None

    async def _exists(self, game: str, turn: int, index: int) -> bool:
        try:
            await self.engine.store.get_candidate(game, turn, index)
        except GameError:
            return False
        return True

    async def _game(self, chat: str, speaker: Speaker | None = None) -> tuple[str, int]:
        """The chat's game id and generation; a first message (``speaker``) creates the game."""
        generation = self._generations.get(chat, 0)
        if generation == 0 and not await self._has_game(chat):
            if speaker is None:
                raise NotNow("No game has started in this chat yet: say something first.")
            await self._create(chat, speaker)
        while await self._has_game(_game_id(chat, generation + 1)):
            generation += 1
        self._generations[chat] = generation
        return _game_id(chat, generation), generation

    async def _has_game(self, game: str) -> bool:
        try:
            await self.engine.store.get_game(game)
        except GameError:
            return False
        return True

    async def _create(self, chat: str, speaker: Speaker) -> None:
        """A new game whose player is the member the first speaker sits at."""
        config = self.config
        state = GameState(ruleset=config.ruleset.id, party=config.party)
        who = seat_of(speaker, state, config.seats, [])
        party = speaking(state, who).party if who is not None else config.party
        try:
            await self.engine.create_game(chat, config.ruleset, party,
                                          seed=derive_seed(config.seed, chat), dice=config.dice)
        except GameError:
            if not await self._has_game(chat):  # another process created it first: play on
                raise

    def _lock(self, chat: str) -> asyncio.Lock:
        lock = self._locks.get(chat)
        if lock is None:
            lock = self._locks[chat] = asyncio.Lock()
        return lock


def _answered(lines: list[Line], message: str | None) -> tuple[int, int] | None:
    """The turn and kept candidate of an answered turn among the latest that ``message`` opened:
    a message delivered again whose update stored nothing under its key (the model failed on it,
    and the turn was answered since by a regenerate) is that turn, not a new one."""
    if message is None:
        return None
    for line in lines[-RETRY_TURNS:]:
        if line.message == message and line.candidate is not None:
            return line.turn, line.candidate
    return None


def _processed(row: CandidateRow, replayed: bool = False) -> Processed:
    records = tuple(record_from_json(r) for r in row.records)
    return Processed(row.chat, row.turn, row.index, row.seed, row.text, records,
                     GameState.model_validate(row.state), replayed)


def _game_id(chat: str, generation: int) -> str:
    return chat if generation == 0 else f"{chat}~{generation}"
