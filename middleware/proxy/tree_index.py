"""Where stored candidates are: an index from a reply's keys to (chat, turn, candidate).

The proxy fills it as it stores candidates and, the first time it touches a chat, from the store
(every candidate of every turn), so a chat whose id is known is recognised after a restart too.
Branches the proxy makes are named ``<chat>~branch-<n>``, so the chats of one family (a chat and
its branches) are found again by their names alone, with nothing else stored.
"""

from __future__ import annotations

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


class PathIndex:
    """Reply keys to the candidates that answer to them, per process."""

    def __init__(self) -> None:
        self._spots: dict[str, set[Spot]] = {}
        self._seeded: set[str] = set()

    def add(self, chat: str, turn: int, index: int, text: str) -> None:
        for key in (text_key(text), tags_key(text)):
            if key is not None:
                self._spots.setdefault(key, set()).add(Spot(chat, turn, index))

    def spots(self, text: str) -> set[Spot]:
        """The candidates ``text`` is: by its text, else (the prose edited) by its tags."""
        exact = self._spots.get(text_key(text))
        if exact:
            return exact
        key = tags_key(text)
        return self._spots.get(key, set()) if key is not None else set()

    def by_text(self, text: str) -> bool:
        """Whether ``text`` is a stored candidate's text exactly (not only its tags)."""
        return bool(self._spots.get(text_key(text)))

    async def seed(self, engine: Engine, chat: str) -> None:
        """Every stored candidate of ``chat``, read once per process."""
        if chat in self._seeded:
            return
        self._seeded.add(chat)
        for turn in range(1, await engine.store.last_turn(chat) + 1):
            for row in await engine.store.list_candidates(chat, turn):
                self.add(chat, turn, row.index, row.text)


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
