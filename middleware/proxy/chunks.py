"""Streamed chunks, read and written (SPEC §7 proxy): pure, no I/O.

An upstream ``chat.completion.chunk`` is read as a ``Piece``: the reply text it adds (rewritten
by the proxy), the other delta fields (``reasoning_content``, ``tool_calls``, ``refusal`` ...,
passed on untouched and in order: a tool call is not a tag), its ``finish_reason`` and its
``usage`` (the last chunk when the client asked for ``stream_options.include_usage``). Only
choice 0 is read: the proxy refuses ``n > 1``. ``logprobs`` are not passed on: they describe the
model's tokens, not the rewritten text.

The chunks one read from the upstream brought are taken together (``pieces_of``): their text as
one piece, so the proxy answers a read with one event, not one per chunk the model's server wrote.

Events are written as ``data: <json>`` with U+2028, U+2029 and U+0085 escaped: legal raw in JSON
and SSE, but a client reading lines with ``str.splitlines`` would end the event there. What every
event of an answer shares (``Envelope``) is written once, as bytes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

DONE: Final = b"data: [DONE]\n\n"

_TEXT_KEYS: Final = frozenset({"content", "role"})
_SEPARATORS: Final = (("\u2028".encode(), b"\\u2028"), ("\u2029".encode(), b"\\u2029"),
                      ("\u0085".encode(), b"\\u0085"))


@dataclass(frozen=True, slots=True)
class Piece:
    """What one upstream chunk says about choice 0."""

    content: str = ""
    others: dict[str, Any] = field(default_factory=dict)
    finish: str | None = None
    usage: dict[str, Any] | None = None


def piece_of(chunk: dict[str, Any]) -> Piece:
    """``chunk`` read tolerantly: a field of the wrong shape counts as absent."""
    usage = chunk.get("usage")
    choices = chunk.get("choices")
    first = _first_choice(choices) if isinstance(choices, list) else None
    delta = first.get("delta") if first is not None else None
    delta = delta if isinstance(delta, dict) else {}
    content = delta.get("content")
    finish = first.get("finish_reason") if first is not None else None
    others = {k: v for k, v in delta.items() if k not in _TEXT_KEYS and v is not None} \
        if not _TEXT_KEYS.issuperset(delta) else {}  # most chunks carry text alone
    return Piece(content=content if isinstance(content, str) else "", others=others,
                 finish=finish if isinstance(finish, str) else None,
                 usage=usage if isinstance(usage, dict) else None)


def _first_choice(choices: list[Any]) -> dict[str, Any] | None:
    """Choice 0 (the first entry, nearly always, so it is looked at before the rest)."""
    if choices and isinstance(head := choices[0], dict) and head.get("index", 0) == 0:
        return head
    return next((c for c in choices if isinstance(c, dict) and c.get("index", 0) == 0), None)


def _text_alone(chunk: dict[str, Any]) -> str | None:
    """The text of a chunk that carries text alone (nearly every chunk of a reply): what
    ``piece_of`` reads as a piece with that content and nothing else, found with a few look-ups
    rather than a piece made. None for any other chunk."""
    choices = chunk.get("choices")
    if not isinstance(choices, list) or not choices or chunk.get("usage") is not None:
        return None
    first = choices[0]
    if not isinstance(first, dict) or first.get("index", 0) != 0 \
            or first.get("finish_reason") is not None:
        return None
    delta = first.get("delta")
    if not isinstance(delta, dict) or not _TEXT_KEYS.issuperset(delta):
        return None
    content = delta.get("content")
    return content if isinstance(content, str) else ""


def pieces_of(read: list[dict[str, Any]]) -> list[Piece]:
    """The chunks of one read as few pieces as keep their order: chunks whose other fields are
    text (``reasoning_content``...) are joined, field by field; a chunk carrying anything else (a
    tool call) is a piece of its own, so its deltas go on as the upstream wrote them."""
    out: list[Piece] = []
    joined: list[Piece | str] = []  # a chunk of text alone is its text
    for chunk in read:
        if (text := _text_alone(chunk)) is not None:
            joined.append(text)
            continue
        piece = piece_of(chunk)
        if not piece.others or all(isinstance(v, str) for v in piece.others.values()):
            joined.append(piece)
            continue
        if joined:
            out.append(_joined(joined))
            joined = []
        out.append(piece)
    if joined:
        out.append(_joined(joined))
    return out


def _joined(joined: list[Piece | str]) -> Piece:
    if len(joined) == 1:
        return Piece(content=joined[0]) if isinstance(joined[0], str) else joined[0]
    pieces = [p for p in joined if not isinstance(p, str)]
    others: dict[str, Any] = {}
    for piece in pieces:
        for key, value in piece.others.items():
            others[key] = others.get(key, "") + value
    return Piece(content="".join([p if isinstance(p, str) else p.content for p in joined]),
                 others=others,
                 finish=next((p.finish for p in reversed(pieces) if p.finish), None),
                 usage=next((p.usage for p in reversed(pieces) if p.usage is not None), None))


def sse_data(value: dict[str, Any]) -> bytes:
    """One SSE event carrying ``value`` as JSON."""
    return b"data: " + _escaped(orjson.dumps(value)) + b"\n\n"


def _escaped(data: bytes) -> bytes:
    for raw, escaped in _SEPARATORS:
        if raw in data:
            data = data.replace(raw, escaped)
    return data


_TAIL: Final = b',"finish_reason":null}]}\n\n'


@dataclass(frozen=True, slots=True)
class Envelope:
    """What every ``chat.completion.chunk`` of one answer shares, written once: an event is that
    head, its delta and the tail."""

    id: str
    model: str
    created: int = field(default_factory=lambda: int(time.time()))
    _head_bytes: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        head = _escaped(orjson.dumps(self._head()))[:-1]  # the object left open
        object.__setattr__(self, "_head_bytes",
                           b"data: " + head + b',"choices":[{"index":0,"delta":')

    def event(self, delta: dict[str, Any], finish: str | None = None,
              extra: dict[str, Any] | None = None) -> bytes:
        """One SSE event carrying ``delta`` for choice 0."""
        if finish is None and not extra:
            return self._head_bytes + _escaped(orjson.dumps(delta)) + _TAIL
        return sse_data({**self._head(),
                         "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                         **(extra or {})})

    def usage(self, usage: dict[str, Any]) -> bytes:
        """The usage event: no choices, the upstream's ``usage`` (``include_usage``)."""
        return sse_data({**self._head(), "choices": [], "usage": usage})

    def _head(self) -> dict[str, Any]:
        return {"id": self.id, "object": "chat.completion.chunk", "created": self.created,
                "model": self.model}
