"""Turns and candidates (SPEC §3): the only module that awaits or stores.

``Engine`` loads the turn-start state S(n-1) from a store, resolves a reply against it with the
pure ``resolve_reply``, and stores the candidate in one transaction. A regenerated reply is another
candidate of the same turn and starts again from S(n-1); a retry with a seen key returns the stored
candidate with no new dice.

States are written in parts (``stores.parts.StateWriter``): a candidate stores the parts of its
state that changed and refers to the rest. The engine keeps the states it has read or made, with
what the store said of their turn when it read them; when it already holds S(n-1), a candidate is
stored in one step that also checks S(n-1) still stands (``stores.base.Start``), and read again
only when it does not (another writer selected, added an event).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from contextlib import aclosing, asynccontextmanager
from dataclasses import replace
from typing import Any, Final, Literal, NamedTuple

import orjson
from cachetools import LRUCache

from middleware.cache import IdentityCache, Recent
from middleware.character.events import apply_event
from middleware.character.gear import Taken, take_kit
from middleware.dice import Dice, derive_seed
from middleware.errors import GameError, StaleStart
from middleware.logs import get_logger
from middleware.pipeline import Preview, ResolvedReply, resolve_reply
from middleware.records import Record
from middleware.resolve import Context
from middleware.resolve.dispatch import record_from_json, records_json
from middleware.rules.layers import layer_problem, removed
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState
from middleware.stores.base import CandidateRow, GameRow, Start, Store, TurnRow
from middleware.stores.codec import Encoded, Parted
from middleware.stores.parts import StateWriter
from middleware.text import MAX_CANDIDATE_CHARS, bounded

SMALL_PER_CHAT: Final = 16
"""How many times ``chats`` the engine keeps of what is small per chat (see ``Engine``)."""

WALK_RUN: Final = 256
"""The most turns read in one query while walking back through unanswered turns."""


class Processed(NamedTuple):
    """A stored candidate: its place, dice seed, rewritten text, records and the state after it.

    ``replayed`` is true when a retry key matched a candidate stored earlier. A named tuple, not
    a frozen dataclass: one is built per reply, and a frozen dataclass sets each field through
    ``object.__setattr__``.
    """

    chat: str
    turn: int
    candidate: int
    seed: int
    text: str
    records: tuple[Record, ...]
    state: GameState
    replayed: bool = False


class Engine:
    """The Python API over one store: create games, process replies, select, fork, read state."""

    def __init__(self, store: Store, *, chats: int = 4096) -> None:
        """``chats``: how many chats' states are kept in memory; the least recently used past it
        are dropped and read back from the store when next asked for. What is small for a chat
        (its game row, whose ruleset all games share, and where its turns stand) is kept for
        ``SMALL_PER_CHAT`` times as many: every request reads its chat's game, and a game read
        back was most of a request's own work when the chats in play outnumbered ``chats``."""
        self.store = store
        small = SMALL_PER_CHAT * chats
        # Looked up or set about ten times a reply: ``Recent``, not cachetools' ``LRUCache``.
        self._rulesets: Recent[str, Ruleset] = Recent(maxsize=small)
        self._games: Recent[str, GameRow] = Recent(maxsize=small)
        self._states: Recent[tuple[str, int], tuple[tuple[Any, ...], GameState]] = \
            Recent(maxsize=4 * chats)
        self._written: Recent[str, tuple[GameState, Parted]] = Recent(maxsize=chats)
        self._writer = StateWriter()
        self._last: Recent[str, int] = Recent(maxsize=small)
        """The last turn each chat is known to have started (turns are never taken away)."""
        # Rulesets by their source's digest: the games of a proxy all play one ruleset, and a game
        # read back after eviction must get that same object (and all derived from it) back, not
        # a new copy per chat that every per-ruleset cache would keep too.
        self._loaded: LRUCache[bytes, Ruleset] = LRUCache(maxsize=16)
        # Each ruleset source's digest, once per source object: a proxy's chats share one source
        # (the stores give the games of one ruleset one value), and digesting it for every game
        # created or read back took a tenth of the proxy's time.
        self._digests: IdentityCache[bytes] = IdentityCache(16)
        self._odds: dict[object, object] = {}

    async def create_game(
        self, chat: str, ruleset: Ruleset, party: Sequence[Character] = (), *,
        seed: int = 0, dice: Literal["candidate", "turn"] = "candidate",
        layers: Sequence[str] = (), branches: bool = False,
    ) -> GameState:
        """Store a new game; S(0) is the party as given. ``dice="turn"`` makes dice fair (SPEC §5);
        ``layers`` turns ruleset layers on (an unknown or conflicting one is a ``GameError``);
        ``branches`` reads branch blocks after checks (``[on success] … [/branch]``)."""
        problem = layer_problem(ruleset, tuple(layers))
        if problem is not None:
            raise GameError(f"layers[{problem[0]}]: {problem[1]}")
        state = GameState(ruleset=ruleset.id, party=tuple(party), dice=dice, layers=tuple(layers),
                          branches=branches)
        row = GameRow(chat=chat, ruleset_id=ruleset.id, ruleset=ruleset.source, seed=seed,
                      options={"dice": dice, **({"layers": list(layers)} if layers else {}),
                               **({"branches": True} if branches else {})},
                      state=self.stored_state(chat, state))
        await self.store.create_game(row)
        self._rulesets[chat] = self._loaded.setdefault(self._digest_of(row.ruleset), ruleset)
        self._games[chat] = replace(row, state=state.model_dump(mode="json"))
        self._last[chat] = 0
        self._remember(chat, 0, (None, 0), state)
        return state

    def _digest_of(self, source: object) -> bytes:
        """The digest of a ruleset's source, worked out once per source object."""
        return self._digests.get((source,), None, lambda: _digest(source))

    async def user(self, chat: str, turn: int, text: str) -> None:
        """Record the player's message that starts ``turn`` (player text is never parsed)."""
        await self._open_turn(chat, turn, text)

    async def process(
        self, chat: str, turn: int, reply: str, *, key: str | None = None,
        seed: int | None = None, dice: Sequence[int] = (), notes: Sequence[Record] = (),
        resolved: tuple[GameState, ResolvedReply] | None = None,
    ) -> Processed:
        """Resolve ``reply`` as a new candidate of ``turn`` and store it (SPEC §3). ``notes`` are
        records a face adds after the tags' (the proxy's tool loop cut at its bound). A ``key`` the
        turn has seen is found by the store as it writes, in the same step: the reply is resolved,
        nothing of it is kept, and the stored candidate is returned (``replayed``).

        ``resolved``: ``reply`` already resolved whole with ``seed``'s dice from a start state
        (a streamed reply's own reading, ``ReplyStream.for_store``), given with that state. It is
        stored as it is when that state is the S(turn-1) the candidate is resolved on (so
        resolving again would give it back); else the reply is resolved here."""
        game = await self.game(chat)
        kept, cut = bounded(reply)  # what was resolved is what is kept
        if cut:
            get_logger().warning("candidate-cut", chat=chat, turn=turn, chars=MAX_CANDIDATE_CHARS)
        while True:
            start, after = await self._start_of(chat, turn)
            used = self._seed(game, start, turn) if seed is None else seed
            done = None if resolved is None else _resolved_on(start, resolved, seed, dice, cut,
                                                               notes)
            if done is None:
                done = await self._resolve(game, chat, turn, reply, start, Dice(used, dice), notes)
            try:
                # positional, in field order (chat, turn, index, key, seed, reply, text,
                # records, state): by keyword the row costs a quarter more
                stored = await self.store.add_candidate(CandidateRow(
                    chat, turn, -1, key, used, kept, done.text,
                    Encoded(records_json(done.records)), self.stored_state(chat, done.state)),
                    after)
                break
            except (StaleStart, GameError):
                if after is None:
                    raise
                self._forget(chat, turn - 1)  # read S(turn-1) again, then resolve again
        if stored.replayed:  # a concurrent call with the same key stored it first
            return _processed(stored, replayed=True)
        done.log(chat=chat, turn=turn, candidate=stored.index)
        # The store selects the new candidate, so this state is S(turn) until an event or a
        # select changes the turn; keeping the objects lets the next turn reuse evaluated sheets.
        self._remember(chat, turn, (stored.index, 0), done.state)
        return Processed(chat, turn, stored.index, used, done.text, done.records, done.state)

    async def _resolve(self, game: GameRow, chat: str, turn: int, reply: str, start: GameState,
                       dice: Dice, notes: Sequence[Record]) -> ResolvedReply:
        # positional, in field order (ruleset, dice, chat, turn, odds, seed): by keyword the
        # context cost twice as much (0.5 µs, against 0.2)
        ctx = Context(await self.ruleset(chat), dice, chat, turn, self._odds, game.seed)
        done = resolve_reply(reply, start, ctx)
        if notes:
            done = done._replace(records=(*done.records, *notes),
                                 timings=(*done.timings, *(0.0 for _ in notes)))
        return done

    async def _start_of(self, chat: str, turn: int) -> tuple[GameState, Start | None]:
        """S(turn-1), and what the store must still hold of turn ``turn-1`` for a candidate
        resolved on it: taken from memory when the engine holds both (the store checks it as it
        writes), else read from the store (``None``: nothing left to check)."""
        if self._last.get(chat, -1) >= turn:
            hit = self._states.get((chat, turn - 1))
            if hit is not None and turn == 1:
                return hit[1], None  # S(0) never changes
            if hit is not None and hit[0][0] is not None:
                selected, events = hit[0]
                return hit[1], Start(turn - 1, selected, events)
        await self._open_turn(chat, turn, "")
        return await self.state_after(chat, turn - 1), None

    def _forget(self, chat: str, turn: int) -> None:
        """Drop what the engine holds of ``turn`` and of where the chat stands."""
        self._states.pop((chat, turn), None)
        self._last.pop(chat, None)

    async def retried(self, chat: str, turn: int, key: str) -> Processed | None:
        """The candidate of ``turn`` stored with retry ``key``, or None (SPEC §3): lets a face
        answer a retry without asking the model again."""
        row = await self.store.find_candidate(chat, turn, key)
        return _processed(row, replayed=True) if row is not None else None

    async def previewer(self, chat: str, turn: int, seed: int | None = None,
                        start: GameState | None = None) -> Preview:
        """What ``process(chat, turn, reply, seed=preview.seed)`` would write for ``reply``, stored
        nowhere: the proxy resolves each tag of a streamed reply as it closes (SPEC §7). ``seed``
        defaults to the one ``process`` would pick for a new candidate (fair dice: the turn's
        own), so a face knows it before the reply is complete; S(turn-1) is read once for both,
        or given as ``start`` by a caller that has just read it (the proxy, for the GM's view)."""
        game, ruleset = await self.game(chat), await self.ruleset(chat)
        if start is None:
            start = await self.state_after(chat, turn - 1)
        used = self._seed(game, start, turn) if seed is None else seed

        def context() -> Context:
            return Context(ruleset=ruleset, dice=Dice(used), chat=chat, turn=turn,
                           odds=self._odds, seed=game.seed)

        return Preview(start, context, used)

    async def select(self, chat: str, turn: int, candidate: int) -> None:
        """Build the next turn on candidate ``candidate`` of ``turn`` (a swipe back).

        Refused (``GameError``) when a later turn already holds a candidate built on the one
        selected now: those turns would keep a state their start no longer has. Selecting the
        candidate already selected is always allowed; to play another one, ``fork`` the chat at
        ``turn - 1`` and play it on the branch."""
        row = await self.store.get_turn(chat, turn)
        if row is not None and row.selected == candidate:
            return  # nothing to write, and the state after the turn the engine holds stands
        if row is not None and row.selected is not None:
            built = await self._built_on(chat, turn)
            if built is not None:
                raise GameError(
                    f"turn {built} of chat {chat!r} was played on candidate {row.selected} of "
                    f"turn {turn}; selecting candidate {candidate} would leave it on a state "
                    f"its start no longer has: fork at turn {turn - 1} to play it instead")
        await self.store.select(chat, turn, candidate)
        self._states.pop((chat, turn), None)

    async def _built_on(self, chat: str, turn: int) -> int | None:
        """The first turn after ``turn`` with a candidate (played on S(turn)), or None."""
        for later in range(turn + 1, await self.store.last_turn(chat) + 1):
            row = await self.store.get_turn(chat, later)
            if row is not None and row.selected is not None:
                return later
        return None

    async def event(self, chat: str, turn: int, event: Mapping[str, Any]) -> GameState:
        """Apply a between-turn event (``edit``, ``rest``, ``gear``) after ``turn``; returns S(turn)."""
        state = await self.state_after(chat, turn)
        apply_event(await self.ruleset(chat), state, event)  # refuse a bad event before storing
        await self._open_turn(chat, turn, "")  # a turn ahead is refused as a reply for it is
        await self.store.add_event(chat, turn, dict(event))
        return await self.state_after(chat, turn)

    async def take_gear(self, chat: str, who: str | None, kit: str, *, picks: Sequence[str] = (),
                        again: bool = False, turn: int | None = None) -> Taken:
        """ITM-GEAR-02: take a starting kit after ``turn`` (default: the latest) as a ``gear``
        event; a refusal stores nothing. Before turn 1, put the kit into the party given to
        ``create_game`` with ``take_kit`` (S(0) is that party; no event precedes turn 1)."""
        last = await self.store.last_turn(chat) if turn is None else turn
        if last < 1:
            raise GameError("no turn has been played yet: take starting gear with take_kit on "
                            "the party given to create_game")
        ruleset, state = await self.ruleset(chat), await self.state_after(chat, last)
        done = take_kit(ruleset, state, who, kit, picks, again=again,
                        removed=removed(ruleset, state.layers).all)
        if done.status == "taken":
            await self.event(chat, last, {"type": "gear", "who": done.who, "kit": kit,
                                          "picks": list(picks), "again": again})
        return done

    @asynccontextmanager
    async def batch(self) -> AsyncIterator[None]:
        """The store's ``batch``: what is written inside is kept together, or not at all if it
        raises. Then the engine lets go of everything it holds of the store (games, rulesets,
        turns, states): what it read or made inside may be gone, and a turn undone would be
        taken for one started (a player's message dropped) or a state for one still stored."""
        try:
            async with self.store.batch():
                yield
        except BaseException:
            for held in (self._rulesets, self._games, self._states, self._written, self._last):
                held.clear()
            raise

    async def fork(self, chat: str, turn: int, new_chat: str) -> None:
        """A branch of ``chat`` that starts from S(turn) and shares nothing after it."""
        await self.store.fork(chat, turn, new_chat)

    async def candidates(self, chat: str, turn: int) -> list[Processed]:
        """Every candidate of ``turn``, by index."""
        return [_processed(r) for r in await self.store.list_candidates(chat, turn)]

    async def state(self, chat: str, turn: int | None = None) -> GameState:
        """S(turn): the state after ``turn`` (default: the latest turn) as the selections stand."""
        last = await self.store.last_turn(chat) if turn is None else turn
        return await self.state_after(chat, last)

    async def game(self, chat: str) -> GameRow:
        """The game as created (a game row never changes, so it is read once per engine)."""
        row = self._games.get(chat)  # one look-up: each marks the chat recently used
        if row is None:
            row = self._games[chat] = await self.store.get_game(chat)
        return row

    async def ruleset(self, chat: str) -> Ruleset:
        """The game's ruleset, loaded once per engine from the copy stored with the game."""
        ruleset = self._rulesets.get(chat)
        if ruleset is None:
            source = (await self.game(chat)).ruleset
            key = self._digest_of(source)
            if key not in self._loaded:
                self._loaded[key] = load_ruleset(source)
            ruleset = self._rulesets[chat] = self._loaded[key]
        return ruleset

    async def state_after(self, chat: str, turn: int) -> GameState:
        """S(turn): the selected candidate's state (or S(turn-1)) with the turn's events applied."""
        row = await self._turn_row(chat, turn)
        return await self._state_from(chat, turn, row)

    async def kept_after(self, chat: str, turn: int) -> tuple[GameState, int | None]:
        """S(turn) and the candidate selected at ``turn`` (None when none is), from one read of
        the turn: the GM's view needs both on every request."""
        row = await self._turn_row(chat, turn)
        return await self._state_from(chat, turn, row), (row.selected if row else None)

    async def _turn_row(self, chat: str, turn: int) -> TurnRow | None:
        """Turn ``turn``'s row; None for turn 0 (the game's start) or a turn never started."""
        return await self.store.get_turn(chat, turn) if turn > 0 else None

    async def _state_from(self, chat: str, turn: int, row: TurnRow | None) -> GameState:
        """``state_after`` with the turn's row read (None for turn 0 or a turn never started).

        A turn without a selected candidate is S of the turn before with its events, and the
        turns before may have changed since it was last read (a select, an event, a reply, here
        or by another worker): such turns are walked back to the nearest turn that has one (or
        turn 0) on every read, and only that turn's state is remembered, by what its row says.
        The walk is a loop reading rows in growing runs, never a recursion: a chat may hold
        thousands of turns the model never answered (a long history pointed at the proxy)."""
        walked: list[TurnRow] = []  # the unanswered turns walked, newest first
        if not _answered(turn, row):
            async with aclosing(self._rows_before(chat, turn)) as before:
                if row is not None:
                    walked.append(row)
                async for turn, row in before:
                    if _answered(turn, row):
                        break
                    if row is not None:
                        walked.append(row)
        state = await self._answered_state(chat, turn, row)
        for unanswered in reversed(walked):
            state = await self._with_events(chat, unanswered.turn, state, unanswered.events)
        return state

    async def _rows_before(self, chat: str,
                           turn: int) -> AsyncGenerator[tuple[int, TurnRow | None]]:
        """The turns before ``turn``, newest first, down to turn 0, with their rows (None: never
        started, and for turn 0). Read in runs growing to ``WALK_RUN``: most walks stop at the
        turn before, and a chat of 10,000 unanswered turns is read in a few dozen queries. Turns
        past the chat's last were never started: a walk from beyond the last turn this engine
        knows asks the store where the chat ends and starts there (a turn of 10**30 is asked
        for in a few calls, not walked)."""
        if turn - 1 > self._last.get(chat, -1):
            turn = min(turn, await self.store.last_turn(chat) + 1)
        run = 1
        while turn > 1:
            first = max(1, turn - run)
            rows = await self.store.turns(chat, first, turn - 1)
            for number in range(turn - 1, first - 1, -1):
                yield number, rows.get(number)
            turn, run = first, min(2 * run, WALK_RUN)
        yield 0, None

    async def _answered_state(self, chat: str, turn: int, row: TurnRow | None) -> GameState:
        """S(turn) of turn 0 or of a turn with a selected candidate: that candidate's stored state
        with the turn's events, remembered by the two (a stored candidate never changes)."""
        selected, events = (row.selected, row.events) if row else (None, [])
        fingerprint = (selected, len(events))
        if (hit := self._states.get((chat, turn))) and hit[0] == fingerprint:
            return hit[1]
        state = await self._with_events(chat, turn, await self._base_state(chat, turn, selected),
                                        events)
        self._remember(chat, turn, fingerprint, state)
        return state

    async def _with_events(self, chat: str, turn: int, state: GameState,
                           events: Sequence[Any]) -> GameState:
        """``state`` with a turn's stored events applied in order. Each was refused before it was
        stored unless it applied; one that no longer applies on the path selected now (a kit
        taken after a reply, then a swipe back to one whose bag cannot carry it) is left out of
        that path and logged, so that every read of the chat goes on; selecting the candidate
        it was taken on brings it back."""
        ruleset = await self.ruleset(chat)
        for event in events:
            try:
                state = apply_event(ruleset, state, event)
            except GameError as exc:
                get_logger().warning("event-left-out", chat=chat, turn=turn,
                                     kind=str(event.get("type")) if isinstance(event, dict)
                                     else None, reason=str(exc))
        return state

    async def _base_state(self, chat: str, turn: int, selected: int | None) -> GameState:
        """S(0) for turn 0, else the selected candidate's stored state (``selected`` is set)."""
        if turn <= 0 or selected is None:
            return GameState.model_validate((await self.game(chat)).state)
        row = await self.store.get_candidate(chat, turn, selected)
        return GameState.model_validate(row.state)

    def _remember(self, chat: str, turn: int, fingerprint: tuple[object, ...],
                  state: GameState) -> None:
        self._states[(chat, turn)] = (fingerprint, state)

    def stored_state(self, chat: str, state: GameState) -> Parted:
        """``state`` as a candidate stores it, in parts. A reply whose tags changed nothing
        (narration and checks) ends on the very state it started from, the one the chat's last
        candidate stored: it is written once, not on every reply (states are never changed in
        place), and its unchanged parts are shared with the states before it."""
        written = self._written.get(chat)
        if written is None or written[0] is not state:
            written = self._written[chat] = (state, self._writer.write(state))
        return written[1]

    async def _open_turn(self, chat: str, turn: int, user_text: str) -> None:
        """Start ``turn`` if it is the next one; a turn further ahead is an API error. A turn
        the engine knows was started needs no trip to the store; the one after it is started
        at once (starting a turn that exists keeps it as it is)."""
        known = self._last.get(chat, -1)
        if 1 <= turn <= known:
            return
        # -1: the chat is not known here (another worker's, a fork, evicted): ask the store
        last = known if 0 <= known == turn - 1 else await self.store.last_turn(chat)
        if not 1 <= turn <= last + 1:
            raise GameError(f"chat {chat!r} is at turn {last}; turn {turn} cannot be played")
        if turn == last + 1:
            await self.store.start_turn(chat, turn, user_text)
        self._last[chat] = max(last, turn)

    @staticmethod
    def _seed(game: GameRow, start: GameState, turn: int) -> int:
        """Fair dice throw the same sequence for every candidate of a turn (SPEC §5)."""
        if start.dice == "turn":
            return derive_seed(game.seed, game.chat, "turn", turn)
        return secrets.randbits(63)


def _answered(turn: int, row: TurnRow | None) -> bool:
    """Whether S(turn) is read from the turn alone: turn 0, or a turn with a selected candidate."""
    return turn <= 0 or (row is not None and row.selected is not None)


def _resolved_on(start: GameState, resolved: tuple[GameState, ResolvedReply] | None,
                 seed: int | None, dice: Sequence[int], cut: bool,
                 notes: Sequence[Record]) -> ResolvedReply | None:
    """``resolved``'s reply, with ``notes`` after its records, when it stands for what
    ``_resolve`` would make on ``start``: made on that state, with the given seed's own dice
    (none scripted) and the whole reply (none cut). Else None.

    The state is nearly always the very object (the engine still holds it); one read back from
    the store since (the chat let go while its reply streamed, or played by another worker) is
    compared by value, which costs far less than resolving the reply again."""
    if resolved is None or seed is None or dice or cut or \
            (resolved[0] is not start and resolved[0] != start):
        return None
    done = resolved[1]
    if notes:
        done = done._replace(records=(*done.records, *notes),
                             timings=(*done.timings, *(0.0 for _ in notes)))
    return done


def _digest(source: object) -> bytes:
    """A ruleset source's identity: the digest of its JSON with sorted keys."""
    return hashlib.sha256(orjson.dumps(source, option=orjson.OPT_SORT_KEYS)).digest()


def _processed(row: CandidateRow, replayed: bool = False) -> Processed:
    records = tuple(record_from_json(r) for r in row.records)
    return Processed(row.chat, row.turn, row.index, row.seed, row.text, records,
                     GameState.model_validate(row.state), replayed)
