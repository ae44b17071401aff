"""A chat is a tree of candidates; a request is a path through it (SPEC §3, §7 proxy).

``ChatTree.route`` reads where a request lands:

1. The game: ``X-GM-Chat``, else ``X-OpenWebUI-Chat-Id``, else the OpenAI ``user`` field, else the
   history itself: the replies the client sends back are looked up among stored candidates (their
   resolved tags carry the dice, so they are unmistakable) and the chat whose path the history
   follows furthest wins. Only a history with no stored reply at all falls back to the hash of its
   first messages (``chat.chat_id``). Every name is the client's identity's (``access``): a chat
   is stored under its scope, and only the identity's own chats are looked among.
2. The turn: aligned on the newest reply that is a stored candidate, so a history the UI trimmed
   keeps its game and its turn number.
3. The path: each reply sent back selects the candidate it is. A reply whose prose was edited but
   whose tags are intact is still that candidate; one whose tags changed becomes an edited
   candidate of its turn (``paths.reread``). A history that leaves the stored path (a swipe back
   to an old turn and on, an edited old message, a second chat that only shared the opening)
   becomes a branch of its own (``paths.branch``), never a rewrite of the path it left.
4. Continue: a request ending with the GM's text extends that candidate (``paths.extend``).

A chat UI sends the whole history every time: the turns the chat's last request followed are not
looked up again where the history starts with them and the store still holds them so
(``tree_known``); what the route finds is the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Final, NamedTuple
from urllib.parse import quote

from middleware.engine import Engine, Processed
from middleware.errors import RequestError
from middleware.logs import get_logger
from middleware.proxy.access import OPEN, Identity, shown
from middleware.proxy.chat import MAX_CHAT_ID, ChatRequest, chat_id
from middleware.proxy.history import History, read_history
from middleware.proxy.inject import KeptRecords
from middleware.proxy.tree_follow import Follow, Read, follow
from middleware.proxy.tree_index import Hold, PathIndex, Spot, family, root_of
from middleware.proxy.tree_known import KnownPath, KnownPaths, known_path

ID_HEADERS: Final = ("x-gm-chat", "x-openwebui-chat-id")

class _Score(NamedTuple):
    """How well a history follows a chat; the better ranks higher (``rank``), field by field."""

    matched: int
    """Replies sent back that are candidates of the chat at their turns."""
    players: int
    """Player messages sent that are the stored turns' (a swipe changes which reply is selected,
    never what the player wrote, and another chat may hold a reply the model wrote again)."""
    kept: int
    """Replies sent back that are the candidate selected at their turn."""
    opening: bool
    """Whether the chat's root is the one the history's opening names (a tie between two chats
    that rolled the same and stored the same text goes to it)."""
    nearer: int
    """Minus the turn offset: a history is more likely sent whole than trimmed."""
    shorter: int
    """Minus the name's length: a chat before its branches."""
    chat: str
    offset: int
    read: Read
    """The chat's turns read to score it, which ``follow`` takes rather than read again."""
    known: int
    """The history's leading turns known to follow the chat's path (``tree_known``)."""

    @property
    def rank(self) -> tuple[int, int, int, bool, int, int]:
        return self[:6]


@dataclass(frozen=True, slots=True)
class Route:
    """Where a request plays: chat, turn, the candidate a Continue extends, what was made."""

    chat: str
    turn: int
    continues: int | None = None
    edited: tuple[Spot, ...] = ()
    branched_from: str | None = None


@dataclass
class ChatTree:
    """The proxy's view of every chat's tree, over one engine."""

    engine: Engine
    index: PathIndex = field(default_factory=PathIndex)
    """The stored replies of the chats touched last (in ``serve``, 16 times ``--chats``: a chat let
    go is read back whole, every turn, so it is held well past the engine's own cache)."""
    kept: KeptRecords = field(default_factory=KeptRecords)
    """The records of the candidates stored last, for the GM's view of the turn after."""
    known: KnownPaths = field(default_factory=KnownPaths)
    """The path each chat's last request followed (``tree_known``)."""
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def remember(self, chat: str, turn: int, candidate: int, text: str) -> None:
        """A candidate just stored, so the next request that sends it back finds it."""
        self.index.add(chat, turn, candidate, text)

    def stored(self, done: Processed) -> None:
        """``remember`` a candidate just stored (or found stored), its records held too."""
        self.remember(done.chat, done.turn, done.candidate, done.text)
        self.kept.add(done.chat, done.turn, done.candidate, done.records)

    async def route(self, headers: Mapping[str, str], ask: ChatRequest,
                    new_game: Callable[[str], Awaitable[bool]],
                    identity: Identity = OPEN) -> Route:
        """Where ``ask`` lands among ``identity``'s chats; ``new_game(chat)`` creates a game the
        first time a chat is seen (true when it did: nothing is stored in it to read)."""
        history = read_history(ask.messages)
        given = given_id(headers, ask.body)
        named = identity.chat(given) if given is not None else None
        hashed = identity.chat(chat_id({}, ask.messages))
        async with self._lock:
            self.index.begin()
            with self.index.hold() as hold:  # its chats stay in the index while it routes
                chat, offset, read, known = await self._chat(history, named, hashed, identity,
                                                             hold)
                if chat is None:
                    chat, offset = named or hashed, 0
                    if await new_game(chat):
                        self.index.created(chat, hold)
                        read = Read(1, len(history.turns) + 1, {})  # nothing stored in it yet
                done: Follow = await follow(self.engine, self.index, chat, offset, history, hold,
                                            read, known)
                self._followed(chat, offset, history, done, known)
        for spot in done.edited:
            get_logger().info("proxy-edited-candidate", chat=spot.chat, turn=spot.turn,
                              candidate=spot.candidate)
        return Route(done.chat, done.turn, done.continues, done.edited,
                     chat if done.chat != chat else None)

    def _followed(self, chat: str, offset: int, history: History, done: Follow,
                  known: int) -> None:
        """The path the request followed kept for the chat's next request (``tree_known``):
        where it stayed on the chat it was routed to, edited nothing and extended nothing."""
        path = None
        # each reply of a known path was found by its text (those it took as known were when
        # they were kept): one found by its tags alone, its prose edited, would be found by its
        # text instead once a candidate of that very text were stored, at any turn, and no row
        # would show it; so it keeps no path
        if done.chat == chat and not done.edited and done.continues is None \
                and history.tail is None and all(
                    self.index.by_text(said.kept) for said in history.turns[known:-1]
                    if said.kept is not None):
            before = self.known.get(chat)
            chosen = dict(done.chosen)
            if known and before is not None:  # the turns it took as known, as they were kept
                chosen |= {j + offset: c for j, c in enumerate(before.chosen[:known], start=1)}
            path = known_path(chat, offset, history.turns[:-1], chosen)
        if path is None:
            self.known.forget(chat)
            self.known.forget(done.chat)
        else:
            self.known.put(path)

    async def _chat(self, history: History, named: str | None, hashed: str,
                    identity: Identity, hold: Hold) -> tuple[str | None, int, Read | None, int]:
        """The stored chat of ``identity``'s the history follows furthest, its turn offset, its
        turns as read to tell, and how many leading turns of the history were known to follow
        it."""
        if named:
            best = await self._best(history, [named], hashed, hold)
            return (best.chat, best.offset, best.read, best.known) if best \
                else (None, 0, None, 0)
        # The chat the history's opening names first: when it follows that chat's path all along,
        # no other can do better (a tie goes to it), and the others need not be read. Replies
        # many chats stored (the same dice on the same text) made every request read them all.
        best = await self._best(history, [hashed], hashed, hold)
        replies = len(history.replies())
        if best is None or (best.matched, best.kept) != (replies, replies):
            others = sorted(self._roots_of(history, identity) - {hashed})
            best = await self._best(history, others, hashed, hold, best)
        return (best.chat, best.offset, best.read, best.known) if best else (None, 0, None, 0)

    async def _best(self, history: History, roots: list[str], hashed: str, hold: Hold,
                    best: _Score | None = None) -> _Score | None:
        """The score of the chat among ``roots`` and their branches the history follows
        furthest (``_Score``), if it beats ``best``."""
        for root in roots:
            for chat in await family(self.engine, root):
                await self.index.seed(self.engine, chat, hold)
                aligned = await self._aligned(history, chat, fallback=chat == root,
                                              known=self.known.get(chat))
                if aligned is None:
                    continue
                offset, matched, kept, players, read, known = aligned
                score = _Score(matched, players, kept, root == hashed, -offset, -len(chat), chat,
                               offset, read, known)
                best = score if best is None or score.rank > best.rank else best
        return best

    def _roots_of(self, history: History, identity: Identity) -> set[str]:
        return {root_of(s.chat) for _, text in history.replies() for s in self.index.spots(text)
                if identity.owns(s.chat)}

    async def _aligned(self, history: History, chat: str, *, fallback: bool,
                       known: KnownPath | None = None
                       ) -> tuple[int, int, int, int, Read, int] | None:
        """(turn offset, replies matched, replies that are the selected candidate of their
        turn, player messages that are the stored turns', the turns read, the leading turns
        taken as known) for ``chat``; None when nothing matches and it is no root. Where the
        replies leave the offset open (each was stored at several turns: the model wrote it
        twice), the offset at which the stored turns hold the player's messages as sent wins.

        The turns are read up to the one after the history's, so that ``follow`` knows from
        them where the chat ends, and reads neither again. Where the history starts with the
        turns the chat's last request followed (``known``) and a reply after them settles the
        offset alone, those turns are not looked up again once the rows read show the path
        still stands: each counts as matched, kept and said, as it did then."""
        leading = known.leading(history) if known is not None else 0
        replies = history.replies()
        fresh = [(j, text) for j, text in replies if j > leading]
        spots = [self.index.spots_in(text, chat) for _, text in fresh]
        # the reply at the history's turn j can only be a turn j or later (turns are never lost)
        seen = [{s.turn for s in found if s.turn >= j}
                for (j, _), found in zip(fresh, spots, strict=True)]
        if known is not None and leading and _unique_offset(fresh, seen) != known.offset:
            return await self._aligned(history, chat, fallback=fallback)
        offsets = _offsets(fresh, seen) or ([0] if fallback else [])
        if not offsets:
            return None
        first, top = min(offsets) + 1, max(offsets) + len(history.turns) + 1
        rows = await self.engine.store.turns(chat, first, top)
        read = Read(first, top, rows)
        if known is not None and leading and not known.stands(rows):
            return await self._aligned(history, chat, fallback=fallback)
        if not replies:
            return offsets[0], 0, 0, 0, read, 0

        def matched(offset: int) -> int:
            return leading + sum(1 for (j, _), turns in zip(fresh, seen, strict=True)
                                 if j + offset in turns)

        def players(offset: int) -> int:
            return leading + sum(
                1 for j, said in enumerate(history.turns[leading:], start=leading + 1)
                if (row := rows.get(j + offset)) is not None and row.said == said.user)

        offset = max(offsets, key=lambda o: (matched(o), players(o))) if len(offsets) > 1 \
            else offsets[0]
        kept = leading + sum(1 for (j, _), found in zip(fresh, spots, strict=True)
                             if (row := rows.get(j + offset)) is not None
                             and row.selected is not None
                             and Spot(chat, j + offset, row.selected) in found)
        return offset, matched(offset), kept, players(offset), read, leading


def _unique_offset(replies: list[tuple[int, str]], turns: list[set[int]]) -> int | None:
    """The offset the newest reply stored at one turn only gives, or None: where ``_offsets``
    settles the offset without looking further."""
    unique = next(((j, seen) for (j, _), seen in zip(replies, turns, strict=True)
                   if len(seen) == 1), None)
    return next(iter(unique[1])) - unique[0] if unique is not None else None


def _offsets(replies: list[tuple[int, str]], turns: list[set[int]]) -> list[int]:
    """Stored turn minus history turn, as the replies allow it, likeliest first: read off the
    newest reply stored at one turn only (a reply with no tag, "They rest.", may be stored at
    several); else each offset the newest reply found allows, the smallest first (a history is
    more likely sent whole than trimmed)."""
    unique = _unique_offset(replies, turns)
    if unique is not None:
        return [unique]
    found = [(j, seen) for (j, _), seen in zip(replies, turns, strict=True) if seen]
    return sorted({turn - found[0][0] for turn in found[0][1]}) if found else []


def route_headers(route: Route) -> dict[str, str]:
    """What the response says about the path: the chat (as its owner names it) and turn played, a
    branch made, and the edited candidates made from the history (``turn:candidate``,
    comma-separated)."""
    headers = {"X-GM-Chat": quote(shown(route.chat), safe=""), "X-GM-Turn": str(route.turn)}
    if route.branched_from is not None:
        headers["X-GM-Branch-Of"] = quote(shown(route.branched_from), safe="")
    if route.edited:
        headers["X-GM-Edited"] = ",".join(f"{s.turn}:{s.candidate}" for s in route.edited)
    return headers


def named_chat(headers: Mapping[str, str], ask: ChatRequest, identity: Identity) -> str:
    """The chat the request names (a header, the ``user`` field), else its opening's digest, as
    ``identity`` stores it: where ``route`` looks first."""
    given = given_id(headers, ask.body)
    return identity.chat(given if given is not None else chat_id({}, ask.messages))


def given_id(headers: Mapping[str, str], body: Mapping[str, object]) -> str | None:
    """The chat id the client names: a header, else the OpenAI ``user`` field; None without."""
    for name in ID_HEADERS:
        if (value := headers.get(name)) is not None:
            return _checked(value, name)
    user = body.get("user")
    return _checked(user, "user") if isinstance(user, str) and user.strip() else None


def _checked(value: str, where: str) -> str:
    value = value.strip()
    if not 1 <= len(value) <= MAX_CHAT_ID or not value.isprintable():
        raise RequestError(f"{where} must be 1 to {MAX_CHAT_ID} printable characters")
    return value
