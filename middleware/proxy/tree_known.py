"""The path a chat's last request followed, so that its next request need not look each of its
turns up again; pure, no I/O.

A chat UI sends the whole history with every request: at turn 250 the route looked up 249 replies
in the index, scored them and planned what to select, each time, to find again the path the
request before had just followed (3 ms of a 250-turn request's 5 before the upstream is asked,
measured). ``KnownPath`` keeps that path: each leading turn's player message, the reply kept and
the candidate it is. A request whose history starts with those very turns is taken as following
them where two things still hold, both checked each time:

- the index answers for the chat as it did (``PathIndex.mark``): the chat was not read again from
  the store nor let go, and no candidate came in with the text of one of its replies (each was
  found by its text when the path was kept, so candidates sharing only its tags change nothing);
- the store holds the path still: the turns' rows, which the route reads whole every time, have
  each turn's kept candidate selected and its player's message as said. Another worker that
  selected another candidate on one of those turns, or put a message there, shows in them.

Where either fails, or the history differs anywhere in those turns, the route looks every turn
up as before: what it finds is the same either way (``tests/proxy/test_tree_known.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cachetools import LRUCache

from middleware.proxy.history import History, Said
from middleware.stores import TurnRow


@dataclass(frozen=True, slots=True)
class KnownPath:
    """The leading turns of a history followed on ``chat`` at ``offset``: each ``Said`` (player
    message and reply kept), and the candidate each reply is (``chosen``), selected at its turn
    when the request ended; ``mark``: the index's mark of the chat then."""

    chat: str
    offset: int
    turns: tuple[Said, ...]
    chosen: tuple[int, ...]
    mark: tuple[int, int]

    def leading(self, history: History, mark: tuple[int, int] | None) -> int:
        """How many leading turns of ``history`` are this path's (0 for none): all of them, when
        the history goes on past them with the same turns, under the same index mark."""
        known = len(self.turns)
        if mark != self.mark or len(history.turns) <= known \
                or history.turns[:known] != self.turns:
            return 0
        return known

    def stands(self, rows: Mapping[int, TurnRow]) -> bool:
        """Whether ``rows`` (the chat's turns as just read) still hold the path."""
        for j, (said, chosen) in enumerate(zip(self.turns, self.chosen, strict=True), start=1):
            row = rows.get(j + self.offset)
            if row is None or row.selected != chosen or row.said != said.user:
                return False
        return True


def known_path(chat: str, offset: int, turns: Sequence[Said], chosen: Mapping[int, object],
               mark: tuple[int, int] | None) -> KnownPath | None:
    """The path followed by a request whose turns (all but the last, which it played) each kept
    a reply that is candidate ``chosen[turn + offset]``; None when one kept none, or a reply was
    no candidate (an edit), or the chat is not held."""
    picked = [chosen.get(j + offset) for j in range(1, len(turns) + 1)]
    if mark is None or not turns or any(not isinstance(c, int) for c in picked) \
            or any(said.kept is None for said in turns):
        return None
    return KnownPath(chat, offset, tuple(turns), tuple(c for c in picked if isinstance(c, int)),
                     mark)


class KnownPaths:
    """The path each chat's last request followed, for the chats routed last."""

    def __init__(self, size: int = 4096) -> None:
        self._paths: LRUCache[str, KnownPath] = LRUCache(maxsize=size)

    def get(self, chat: str) -> KnownPath | None:
        return self._paths.get(chat)

    def put(self, path: KnownPath) -> None:
        self._paths[path.chat] = path

    def forget(self, chat: str) -> None:
        self._paths.pop(chat, None)
