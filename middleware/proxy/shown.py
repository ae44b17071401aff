"""The chat's history as the model wrote it: a reply the chat was shown as cards (``--display
cards``) comes back in the next request as cards, and the proxy puts the stored resolved text in
its place before the request goes upstream (the model keeps reading the engine's resolved tags)
and before the kept candidate is matched (by that text).

A shown text is matched against the stored candidates of its turn, as ``for_people`` shows them;
what was found (or not) is kept in a bounded cache, filled too as each answer is shown, so a long
chat is read from the store once, not on every request. A shown text is known only to the
identity whose chat showed it (``access``), and before the chat is known only while it stands for
one stored text: two chats that rolled the same show the same cards, and each is then found by
its own history (``restored``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cachetools import LRUCache

from middleware.display import for_people
from middleware.engine import Engine, Processed
from middleware.errors import GameError
from middleware.proxy.access import Identity, owner
from middleware.proxy.chat import ChatRequest, Message
from middleware.proxy.inject import engine_records

_Key = tuple[str, int, str]


class ShownReplies:
    """The resolved texts of replies shown as cards, per chat and turn (and by shown text)."""

    def __init__(self, engine: Engine, size: int) -> None:
        self._engine = engine
        self._known: LRUCache[_Key, str | None] = LRUCache(maxsize=size)
        self._texts: LRUCache[tuple[str, str], str | None] = LRUCache(maxsize=size)
        """Shown text to stored text; None once two stored texts were shown alike (the same
        cards, different dice: two chats that rolled the same), so neither is guessed."""

    def shown(self, done: Processed) -> str:
        """``done`` as the chat is shown it (cards), remembered for when it comes back."""
        text = for_people(done.text, done.records)
        self._known[(done.chat, done.turn, text.strip())] = done.text
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
        last = await self._last_turn(chat)
        texts: dict[int, str] = {}
        turn = 0
        for index, message in enumerate(ask.messages):
            turn += message.role == "user"
            if message.role != "assistant":
                continue
            shown = message.text.strip()
            own = await self._resolved(chat, turn, shown) if 1 <= turn <= last else None
            text = own or self._texts.get((identity.scope, shown))
            if text is not None:
                texts[index] = text
        return with_texts(ask, texts) if texts else ask

    async def _last_turn(self, chat: str) -> int:
        """The chat's last turn started; 0 for a chat with no game yet."""
        try:
            return await self._engine.store.last_turn(chat)
        except GameError:
            return 0

    async def restored(self, chat: str, ask: ChatRequest) -> ChatRequest:
        """``ask`` with every assistant message that is a stored candidate shown as cards
        replaced by that candidate's resolved text (a message matching none stays as sent)."""
        last = await self._engine.store.last_turn(chat)
        texts: dict[int, str] = {}
        turn = 0
        for index, message in enumerate(ask.messages):
            turn += message.role == "user"
            if message.role == "assistant" and 1 <= turn <= last:
                resolved = await self._resolved(chat, turn, message.text.strip())
                if resolved is not None and resolved.strip() != message.text.strip():
                    texts[index] = resolved
        return with_texts(ask, texts) if texts else ask

    async def _resolved(self, chat: str, turn: int, shown: str) -> str | None:
        key = (chat, turn, shown)
        if key not in self._known:
            replies = await self._engine.store.replies(chat, turn, turn)
            self._known[key] = next((r.text for r in reversed(replies)
                                     if for_people(r.text, engine_records(r.records)).strip()
                                     == shown), None)
        return self._known[key]


def with_texts(ask: ChatRequest, texts: Mapping[int, str]) -> ChatRequest:
    """``ask`` with the messages at the given indexes given new text (body and messages both)."""
    listed: Sequence[dict[str, object]] = ask.body["messages"]
    body = {**ask.body, "messages": [{**m, "content": texts[i]} if i in texts else m
                                     for i, m in enumerate(listed)]}
    messages = tuple(Message(m.role, texts[i]) if i in texts else m
                     for i, m in enumerate(ask.messages))
    return ChatRequest(body, messages, ask.stream, ask.model)
