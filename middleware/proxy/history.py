"""What a request's history says about its path through a chat's tree of candidates; pure.

A chat UI sends the whole conversation (or, trimmed to fit its context, the newest part of it):
player messages, and after each the Game Master reply the player kept. ``read_history`` turns the
messages into one ``Said`` per player message, with the reply kept after it, and the ``tail``: the
assistant text after the last player message when the request ends with it (a Continue).

Stored candidates are recognised by ``text_key`` (the text as stored, trimmed) and, when the
player edited the prose, by ``tags_key``: the resolved tags in order, which carry their dice and
so tell candidates apart. A reply with no tag has no ``tags_key``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from middleware.parse import parse
from middleware.proxy.chat import Message
from middleware.segments import Tag


class Said(NamedTuple):
    """One player message and the Game Master reply kept after it (None when there is none). A
    named tuple: a long chat's request makes one a turn, and the route hashes each twice (a
    frozen dataclass's hash is a Python call building a tuple; a tuple's is C's)."""

    user: str
    kept: str | None


@dataclass(frozen=True, slots=True)
class History:
    """The request's turns in order, and the assistant text it ends with (a Continue)."""

    turns: tuple[Said, ...]
    tail: str | None

    def replies(self) -> list[tuple[int, str]]:
        """(history turn, text) of every reply the client sent back, the tail as the last turn's,
        newest first: the order a path is recognised in."""
        out = [(j + 1, s.kept) for j, s in enumerate(self.turns) if s.kept is not None]
        if self.tail is not None:
            out.append((len(self.turns), self.tail))
        return [(j, text) for j, text in reversed(out) if text is not None]


def read_history(messages: Sequence[Message]) -> History:
    """Player messages with their kept replies; the tail when the last message is the GM's."""
    users: list[str] = []
    after: list[str | None] = []  # the last assistant text after each player message
    for message in messages:
        if message.role == "user":
            users.append(message.text)
            after.append(None)
        elif message.role == "assistant" and users:
            after[-1] = message.text
    tail = after[-1] if users and messages[-1].role == "assistant" else None
    # each Said built once: the whole history is read on every request; the last turn's reply is
    # the tail, never a kept one
    return History(tuple(map(Said, users, [*after[:-1], None])), tail)


def text_key(text: str) -> str:
    """A stored candidate's text, as the client sends it back (clients may trim it)."""
    return "text:" + _digest(text.strip())


def tags_key(text: str) -> str | None:
    """The text's tags in order, spacing aside; None for a text without tags."""
    tags = [" ".join(s.raw.split()) for s in parse(text) if isinstance(s, Tag)]
    return "tags:" + _digest("\x00".join(tags)) if tags else None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]
