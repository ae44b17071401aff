"""What an OpenAI-style request says about the game (SPEC §3, §7 proxy); pure, no I/O.

- The chat: the ``X-GM-Chat`` header, else a hash of the conversation's first system and first
  user messages (they stay the same for the whole chat, and differ between chats).
- The turn: the number of player (``user``) messages; a second request with the same history is a
  regenerate, another candidate of that turn.
- The kept candidate: the client's last assistant message before the newest player message is the
  reply it kept for the turn before; matched against that turn's stored candidates by text.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from pydantic import JsonValue

from middleware.errors import RequestError
from middleware.json_input import JsonInputError, read_json, read_object_fast
from middleware.text import MAX_CANDIDATE_CHARS, clean_json

CHAT_HEADER: Final = "x-gm-chat"
MAX_CHAT_ID: Final = 200
MAX_MESSAGES: Final = 10_000
"""A request with more messages is refused (SPEC §8: limits against hostile input)."""
CHECKED_ROLE: Final = "user"
"""The message a game stores as it comes (a player's text): longer than a candidate keeps
(``text.MAX_CANDIDATE_CHARS``) is refused, rather than stored whole or cut unlike the client's.
A reply sent back may be longer (the proxy's resolved tags are longer than the model's text a
candidate keeps): one that is no stored candidate is refused where it would be stored as an
edited one (``tree_follow``)."""


class Message(NamedTuple):
    """One message of the history: its role and its text (content parts joined). A named tuple:
    a long chat's request makes hundreds, and a frozen dataclass sets each field through
    ``object.__setattr__``."""

    role: str
    text: str


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """A ``/v1/chat/completions`` request: the body as sent (forwarded upstream), its messages."""

    body: dict[str, Any]
    messages: tuple[Message, ...]
    stream: bool
    model: str


def read_request(raw: bytes) -> ChatRequest:
    """The request, or ``RequestError`` saying what is wrong with it."""
    body = read_object_fast(raw)
    if body is None:
        body = _body_read_exactly(raw)
    listed = body.get("messages")
    if not isinstance(listed, list) or not listed:
        raise RequestError("'messages' must be a non-empty list")
    if len(listed) > MAX_MESSAGES:
        raise RequestError(f"at most {MAX_MESSAGES} messages")
    messages = _messages(listed)
    stream = body.get("stream", False)
    if not isinstance(stream, bool):
        raise RequestError("'stream' must be true or false")
    if turn_of(messages) < 1:
        raise RequestError("the messages hold no player ('user') message")
    model = body.get("model")
    return ChatRequest(body, messages, stream, model if isinstance(model, str) else "")


def _body_read_exactly(raw: bytes) -> dict[str, JsonValue]:
    """The body as ``read_json`` reads it, every lone surrogate replaced (``middleware.text``),
    or ``RequestError`` saying what is wrong with it."""
    try:
        body = clean_json(read_json(raw, "the body"))
    except JsonInputError as exc:
        raise RequestError(str(exc)) from exc
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object")
    return body


def _messages(listed: list[JsonValue]) -> tuple[Message, ...]:
    """Each message read: one with a role and a text within bounds (nearly every message of a
    chat UI's history) in a few look-ups, the others by ``_message``, which says what is wrong."""
    read: list[Message] = []
    for index, message in enumerate(listed):
        if type(message) is dict:
            role, content = message.get("role"), message.get("content")
            if type(role) is str and type(content) is str \
                    and (role != CHECKED_ROLE or len(content) <= MAX_CANDIDATE_CHARS):
                read.append(Message(role, content))
                continue
        read.append(_message(index, message))
    return tuple(read)


def _message(index: int, message: JsonValue) -> Message:
    role = message.get("role") if isinstance(message, dict) else None
    if not isinstance(message, dict) or not isinstance(role, str):
        raise RequestError(f"messages[{index}] must be an object with a 'role'")
    read = Message(role, _text(index, message.get("content")))
    if read.role == CHECKED_ROLE and len(read.text) > MAX_CANDIDATE_CHARS:
        raise RequestError(f"messages[{index}] is longer than {MAX_CANDIDATE_CHARS} characters, "
                           "the longest player message a game keeps")
    return read


def _text(index: int, content: JsonValue) -> str:
    """A message's text: a string, or the ``text`` of its content parts (images are skipped)."""
    if content is None or isinstance(content, str):
        return content or ""
    parts = [p for p in content if isinstance(p, dict)] if isinstance(content, list) else []
    if isinstance(content, list) and len(parts) == len(content):
        return "".join(t for p in parts if isinstance(t := p.get("text"), str))
    raise RequestError(f"messages[{index}].content must be a string or a list of parts")


def chat_id(headers: Mapping[str, str], messages: Sequence[Message]) -> str:
    """The chat's id: the ``X-GM-Chat`` header, else ``chat-`` and a hash of how it began."""
    given = headers.get(CHAT_HEADER)
    if given is not None:
        given = given.strip()
        if not 1 <= len(given) <= MAX_CHAT_ID or not given.isprintable():
            raise RequestError(f"X-GM-Chat must be 1 to {MAX_CHAT_ID} printable characters")
        return given
    system = next((m.text for m in messages if m.role == "system"), "")
    user = next((m.text for m in messages if m.role == "user"), "")
    digest = hashlib.sha256(json.dumps([system, user]).encode()).hexdigest()
    return f"chat-{digest[:32]}"


def turn_of(messages: Sequence[Message]) -> int:
    """The turn a request asks a reply for: how many player messages it holds."""
    return sum(m.role == "user" for m in messages)


def player_texts(messages: Sequence[Message]) -> list[str]:
    """The player's messages in order: the text that began turn 1, 2, ..."""
    return [m.text for m in messages if m.role == "user"]


def kept_reply(messages: Sequence[Message]) -> str | None:
    """The reply the client kept for the turn before this one: the last assistant message between
    the last two player messages, or None (first turn, or nothing was kept)."""
    users = [i for i, m in enumerate(messages) if m.role == "user"]
    if len(users) < 2:
        return None
    between = messages[users[-2] + 1 : users[-1]]
    return next((m.text for m in reversed(between) if m.role == "assistant"), None)


def kept_candidate(reply: str, candidates: Sequence[tuple[int, str]]) -> int | None:
    """Which stored candidate (index, rewritten text) the client kept, or None when the client's
    text matches none (edited by hand). Clients may trim the text; the newest match wins."""
    wanted = reply.strip()
    return next((index for index, text in reversed(candidates) if text.strip() == wanted), None)
