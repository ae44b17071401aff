"""Where stored candidates are: an index from a reply's keys to (chat, turn, candidate).

The proxy fills it as it stores candidates and, the first time it touches a chat, from the store
(every candidate of every turn), so a chat whose id is known is recognised after a restart too.
It holds the chats touched last, at most ``chats`` of them (and, past that, the chats a route
running now has seeded): a chat let go is read back from the store, whole, the next time a
request names it (as after a restart).
Branches the proxy makes are named ``<chat>~branch-<n>``, so the chats of one family (a chat and
its branches) are found again by their names alone, with nothing else stored.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from typing import Final, NamedTuple

from middleware.engine import Engine
from middleware.errors import GameError
from middleware.proxy.history import tags_key, text_key

BRANCH: Final = "~branch-"
MAX_BRANCHES: Final = 1000
"""How many branches of one chat are looked for (SPEC §8: bounded loops)."""


class Spot(NamedTuple):
    """A stored candidate: chat, turn, candidate index."""

    chat: str
    turn: int
    candidate: int


def root_of(chat: str) -> str:
    """The chat a branch was made from (a chat that is no branch is its own root)."""
    return chat.split(BRANCH, 1)[0]


class Hold:
    """The chats one route has seeded: held in the index until the route ends (``PathIndex.hold``)."""

    __slots__ = ("chats",)

    def __init__(self) -> None:
        self.chats: list[_Held] = []


class PathIndex:
    """Reply keys to the candidates that answer to them, for the chats touched last.

    A route reads its chats' spots across awaits of the store, while other requests store their
    replies and add chats of their own: the chats it seeds under a ``hold`` are never let go
    before it ends, whatever the index's size (past it, for as long as the route runs)."""

    def __init__(self, chats: int = 4096) -> None:
        # key -> chat -> spots: a route asks what one chat holds of a text, and a text may be
        # stored in many chats (a reply with no tag, "They rest.", or a fake model's one reply)
        self._spots: dict[str, dict[str, set[Spot]]] = {}
        self._chats: OrderedDict[str, _Held] = OrderedDict()
        """The chats held, touched least recently first."""
        self._size = chats
        self._keys: dict[str, str] = {}
        """The text keys of the history being routed: a route looks each reply up several
        times, and hashing them again was a few percent of a request (``begin`` empties it)."""
        self._tag_keys: dict[str, str | None] = {}
        """Its tags keys, for the replies no candidate's text is: each is parsed, and parsing
        every reply again at each look-up was a third of the proxy's time under load."""

    def __len__(self) -> int:
        """How many chats it holds now."""
        return len(self._chats)

    def begin(self) -> None:
        """A new history is about to be routed: forget the last one's text keys."""
        self._keys.clear()
        self._tag_keys.clear()

    def _text_key(self, text: str) -> str:
        key = self._keys.get(text)
        if key is None:
            key = self._keys[text] = text_key(text)
        return key

    def _tags_key(self, text: str) -> str | None:
        if text in self._tag_keys:
            return self._tag_keys[text]
        key = self._tag_keys[text] = tags_key(text)
        return key

    def add(self, chat: str, turn: int, index: int, text: str) -> None:
        held = self._held(chat)
        for key in (text_key(text), tags_key(text)):
            if key is not None:
                self._spots.setdefault(key, {}).setdefault(chat, set()).add(Spot(chat, turn, index))
                held.keys.append(key)

    def spots(self, text: str) -> set[Spot]:
        """The candidates ``text`` is, in every chat held (``spots_in`` tells which)."""
        return {spot for spots in self._by_chat(text).values() for spot in spots}

    def spots_in(self, text: str, chat: str) -> set[Spot]:
        """The candidates of ``chat`` that ``text`` is: by its text where it is any candidate's
        text, else (the prose edited) by its tags."""
        return self._by_chat(text).get(chat, set())

    def _by_chat(self, text: str) -> dict[str, set[Spot]]:
        exact = self._spots.get(self._text_key(text))
        if exact:
            return exact
        key = self._tags_key(text)
        return self._spots.get(key, {}) if key is not None else {}

    def by_text(self, text: str) -> bool:
        """Whether ``text`` is a stored candidate's text exactly (not only its tags)."""
        return bool(self._spots.get(self._text_key(text)))

    @contextmanager
    def hold(self) -> Iterator[Hold]:
        """A route's hold: the chats seeded with it stay until it ends; then the index is cut
        back to its size."""
        hold = Hold()
        try:
            yield hold
        finally:
            for held in hold.chats:
                held.pins -= 1
            self._let_go()

    async def seed(self, engine: Engine, chat: str, hold: Hold | None = None) -> None:
        """Every stored candidate of ``chat``, read once while the chat is held (and, with a
        ``hold``, held until it ends: reading awaits the store, where other chats come in)."""
        held = self._held(chat, hold)
        if held.seeded:
            return
        held.seeded = True
        for row in await engine.store.replies(chat, 1, await engine.store.last_turn(chat)):
            self.add(chat, row.turn, row.index, row.text)

    def created(self, chat: str, hold: Hold | None = None) -> None:
        """``chat``'s game was just created here: it holds no candidate, so there is nothing of
        the store's to read when it is next seeded (its first reply comes in by ``add``)."""
        self._held(chat, hold).seeded = True

    def _held(self, chat: str, hold: Hold | None = None) -> _Held:
        held = self._chats.get(chat)
        if held is None:
            held = self._chats[chat] = _Held()
        else:
            self._chats.move_to_end(chat)
        if hold is not None:
            held.pins += 1
            hold.chats.append(held)
        self._let_go()
        return held

    def _let_go(self) -> None:
        """Past its size, the chats touched least recently that no route holds are let go."""
        excess = len(self._chats) - self._size
        if excess <= 0:
            return
        for chat in list(islice((c for c, h in self._chats.items() if not h.pins), excess)):
            self._forget(chat, self._chats.pop(chat))

    def _forget(self, chat: str, held: _Held) -> None:
        for key in held.keys:
            chats = self._spots.get(key)
            if chats is None:
                continue
            chats.pop(chat, None)
            if not chats:
                del self._spots[key]


@dataclass(slots=True)
class _Held:
    """A chat held: the keys its candidates added, whether the store's were read, and how many
    routes hold it now."""

    keys: list[str] = field(default_factory=list)
    seeded: bool = False
    pins: int = 0


async def exists(engine: Engine, chat: str) -> bool:
    try:
        await engine.game(chat)
    except GameError:
        return False
    return True


async def family(engine: Engine, root: str) -> list[str]:
    """``root`` (when it has a game) and its branches, in the order they were made."""
    found = [root] if await exists(engine, root) else []
    for n in range(1, MAX_BRANCHES):
        if not await exists(engine, f"{root}{BRANCH}{n}"):
            break
        found.append(f"{root}{BRANCH}{n}")
    return found


async def next_branch(engine: Engine, root: str) -> str:
    """The name of ``root``'s next branch."""
    for n in range(1, MAX_BRANCHES + 1):
        if not await exists(engine, f"{root}{BRANCH}{n}"):
            return f"{root}{BRANCH}{n}"
    raise GameError(f"chat {root!r} has {MAX_BRANCHES} branches already")
