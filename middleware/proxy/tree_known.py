"""The path a chat's last request followed, so that its next request need not look each of its
turns up again; pure, no I/O.

A chat UI sends the whole history with every request: at turn 250 the route looked up 249 replies
in the index, scored them and planned what to select, each time, to find again the path the
request before had just followed (3 ms of a 250-turn request's 5 before the upstream is asked,
measured). ``KnownPath`` keeps that path: each leading turn's player message and reply kept, as
fingerprints (the texts' hashes: a path of 250 turns holds 250 pairs of numbers, not the chat's
text), and the candidate each reply is. A request whose history starts with turns of the same
fingerprints is taken as following them where the store holds the path still: the turns' rows,
which the route reads whole every time, have each turn's kept candidate selected and a player's
message of its fingerprint as said. (Two texts of one fingerprint would be taken for each other:
Python's string hash is 64 bits, keyed afresh in every process, so neither chance nor a client
choosing its texts finds such a pair.)

Why the rows tell all: a stored candidate never changes, and one is stored only at a chat's last
turn (a request that asks again for an earlier turn, or keeps another reply there, is played on a
branch) or, by a face that asks for it by number, selected as it is stored. So the only way the
candidates the path's replies are looked up among can change is a new one at one of its turns,
which is then the selected one there; another worker that selected another candidate on one of
those turns, or put another message there, shows in the rows too. Each reply of a known path was
found by its text, never by its tags alone (its prose edited): other candidates sharing its tags
change nothing.

Where the rows differ, or the history differs anywhere in those turns, the route looks every turn
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
    """The leading turns of a history followed on ``chat`` at ``offset``: each turn's
    fingerprint (``turns``: of its ``Said``, the player's message and the reply kept; ``users``:
    of the message alone), and the candidate each reply is (``chosen``), selected at its turn
    when the request ended."""

    chat: str
    offset: int
    turns: tuple[int, ...]
    users: tuple[int, ...]
    chosen: tuple[int, ...]

    def leading(self, history: History) -> int:
        """How many leading turns of ``history`` are this path's (0 for none): all of them, when
        the history goes on past them with turns of the same fingerprints."""
        known = len(self.turns)
        if len(history.turns) <= known or tuple(map(hash, history.turns[:known])) != self.turns:
            return 0
        return known

    def stands(self, rows: Mapping[int, TurnRow]) -> bool:
        """Whether ``rows`` (the chat's turns as just read) still hold the path."""
        for j, (user, chosen) in enumerate(zip(self.users, self.chosen, strict=True), start=1):
            row = rows.get(j + self.offset)
            if row is None or row.selected != chosen or hash(row.said) != user:
                return False
        return True


def known_path(chat: str, offset: int, turns: Sequence[Said],
               chosen: Mapping[int, object]) -> KnownPath | None:
    """The path followed by a request whose turns (all but the last, which it played) each kept
    a reply that is candidate ``chosen[turn + offset]``; None when one kept none, or a reply was
    no candidate (an edit)."""
    picked = [chosen.get(j + offset) for j in range(1, len(turns) + 1)]
    if not turns or any(not isinstance(c, int) for c in picked) \
            or any(said.kept is None for said in turns):
        return None
    return KnownPath(chat, offset, tuple(map(hash, turns)), tuple(hash(s.user) for s in turns),
                     tuple(c for c in picked if isinstance(c, int)))


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
