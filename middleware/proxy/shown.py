"""The chat's history as the model wrote it: a reply the chat was shown as cards (``--display
cards``) comes back in the next request as cards, and the proxy puts the stored resolved text in
its place before the request goes upstream (the model keeps reading the engine's resolved tags)
and before the kept candidate is matched (by that text).

A shown text is matched against the stored candidates of its turn, as ``for_people`` shows them.
What was found is kept per chat, for as many chats as the chat tree's index holds (``PathIndex``),
each with every turn read: a turn read from the store is read whole (each of its candidates, shown
and as stored), so a chat sent back in full on each request is read from the store once, not on
every request; the store's last turn is read only when something is not known. Kept per reply
(16 × ``--chats`` of them), a chat sent back with more replies than that read every turn back on
every request: 200 chats of 20 turns at once (``test_proxy_load``) took a fifth more CPU a
stream. A shown text is known only to the identity whose chat showed it (``access``), and before
the chat is known only while it stands for one stored text: two chats that rolled the same show
the same cards, and each is then found by its own history (``restored``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from cachetools import LRUCache

from middleware.display import for_people
from middleware.engine import Engine, Processed
from middleware.errors import GameError
from middleware.proxy.access import Identity, owner
from middleware.proxy.chat import ChatRequest, Message
from middleware.proxy.inject import engine_records

_Key = tuple[int, str]


class ShownReplies:
    """The resolved texts of replies shown as cards, per chat and turn (and by shown text)."""

    def __init__(self, engine: Engine, chats: int) -> None:
        self._engine = engine
        self._chats: LRUCache[str, dict[_Key, str | None]] = LRUCache(maxsize=chats)
        """Per chat, (turn, text as shown or as stored) to the stored text (None: none is)."""
        self._texts: LRUCache[tuple[str, str], str | None] = LRUCache(maxsize=chats)
        """Shown text to stored text, for as many texts as ``chats`` (the newest shown, across
        chats); None once two stored texts were shown alike (the same cards, different dice: two
        chats that rolled the same), so neither is guessed."""

    def shown(self, done: Processed) -> str:
        """``done`` as the chat is shown it (cards), remembered for when it comes back."""
        text = for_people(done.text, done.records)
        _learn(self._of(done.chat), done.turn, text, done.text)
        key = (owner(done.chat).scope, text.strip())
        seen = self._texts.get(key, done.text)
        self._texts[key] = done.text if seen == done.text else None
        return text

    async def known(self, ask: ChatRequest, identity: Identity, chat: str) -> ChatRequest:
        """``ask`` with every assistant message this proxy showed ``identity`` put back as its
        stored text, before the chat is known: the chat's tree then finds its candidates by their
        resolved tags. ``chat`` is the one the request names (or its opening's): its own shown
        replies first, by turn, from memory or else from the store (a chat the cache let go is
        read back, so its history routes as it did while held); then any of the identity's that
        one stored text alone was shown as (memory only). What is still not found (a branch's replies the
        cache let go) ``restored`` reads from the store once the chat is known."""
        texts: dict[int, str] = {}
        lookup = _Lookup(self._engine, chat, self._of(chat))
        for index, turn, message in _replies(ask):
            shown = message.text.strip()
            text = await lookup.resolved(turn, shown) or self._texts.get((identity.scope, shown))
            if text is not None:
                texts[index] = text
        return with_texts(ask, texts) if texts else ask

    async def restored(self, chat: str, ask: ChatRequest) -> ChatRequest:
        """``ask`` with every assistant message that is a stored candidate shown as cards
        replaced by that candidate's resolved text (a message matching none stays as sent)."""
        texts: dict[int, str] = {}
        lookup = _Lookup(self._engine, chat, self._of(chat))
        for index, turn, message in _replies(ask):
            resolved = await lookup.resolved(turn, message.text.strip())
            if resolved is not None and resolved.strip() != message.text.strip():
                texts[index] = resolved
        return with_texts(ask, texts) if texts else ask

    def _of(self, chat: str) -> dict[_Key, str | None]:
        known = self._chats.get(chat)
        if known is None:
            known = self._chats[chat] = {}
        return known


class _Lookup:
    """One request's look-ups in one chat: the store's last turn read once, when first needed."""

    def __init__(self, engine: Engine, chat: str, known: dict[_Key, str | None]) -> None:
        self._engine = engine
        self._chat = chat
        self._known = known
        self._last: int | None = None

    async def resolved(self, turn: int, shown: str) -> str | None:
        """The stored text the reply at ``turn`` shown as ``shown`` is, or None."""
        known = self._known
        if (turn, shown) in known:
            return known[(turn, shown)]
        if not 1 <= turn <= await self._last_turn():
            return None
        await self._read_turn(turn)
        return known.setdefault((turn, shown), None)

    async def _read_turn(self, turn: int) -> None:
        """Every candidate of ``turn`` learnt from the store, the newest last (it wins a tie)."""
        for reply in await self._engine.store.replies(self._chat, turn, turn):
            _learn(self._known, turn, for_people(reply.text, engine_records(reply.records)),
                   reply.text)

    async def _last_turn(self) -> int:
        """The chat's last turn started; 0 for a chat with no game yet."""
        if self._last is None:
            try:
                self._last = await self._engine.store.last_turn(self._chat)
            except GameError:
                self._last = 0
        return self._last


def _learn(known: dict[_Key, str | None], turn: int, shown: str, text: str) -> None:
    """A stored ``text`` of ``turn``, shown as ``shown``: found by either."""
    known[(turn, shown.strip())] = text
    known[(turn, text.strip())] = text


def _replies(ask: ChatRequest) -> Iterator[tuple[int, int, Message]]:
    """Each assistant message of ``ask``: its index, the turn it answers (player messages
    before it), the message."""
    turn = 0
    for index, message in enumerate(ask.messages):
        turn += message.role == "user"
        if message.role == "assistant":
            yield index, turn, message


def with_texts(ask: ChatRequest, texts: Mapping[int, str]) -> ChatRequest:
    """``ask`` with the messages at the given indexes given new text (body and messages both)."""
    listed: Sequence[dict[str, object]] = ask.body["messages"]
    body = {**ask.body, "messages": [{**m, "content": texts[i]} if i in texts else m
                                     for i, m in enumerate(listed)]}
    messages = tuple(Message(m.role, texts[i]) if i in texts else m
                     for i, m in enumerate(ask.messages))
    return ChatRequest(body, messages, ask.stream, ask.model)
