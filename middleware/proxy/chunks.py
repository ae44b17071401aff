"""Streamed chunks, read and written (SPEC §7 proxy): pure, no I/O.

An upstream ``chat.completion.chunk`` is read as a ``Piece``: the reply text it adds (rewritten
by the proxy), the other delta fields (``reasoning_content``, ``tool_calls``, ``refusal`` ...,
passed on untouched and in order: a tool call is not a tag), its ``finish_reason`` and its
``usage`` (the last chunk when the client asked for ``stream_options.include_usage``). Only
choice 0 is read: the proxy refuses ``n > 1``. ``logprobs`` are not passed on: they describe the
model's tokens, not the rewritten text.

Events are written as ``data: <json>`` with U+2028, U+2029 and U+0085 escaped: legal raw in JSON
and SSE, but a client reading lines with ``str.splitlines`` would end the event there.
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
    first = next((c for c in choices if isinstance(c, dict) and c.get("index", 0) == 0), None) \
        if isinstance(choices, list) else None
    delta = first.get("delta") if first is not None else None
    delta = delta if isinstance(delta, dict) else {}
    content = delta.get("content")
    finish = first.get("finish_reason") if first is not None else None
    return Piece(content=content if isinstance(content, str) else "",
                 others={k: v for k, v in delta.items() if k not in _TEXT_KEYS and v is not None},
                 finish=finish if isinstance(finish, str) else None,
                 usage=usage if isinstance(usage, dict) else None)


def sse_data(value: dict[str, Any]) -> bytes:
    """One SSE event carrying ``value`` as JSON (by orjson: one is written per chunk streamed)."""
    data = orjson.dumps(value)
    for raw, escaped in _SEPARATORS:
        if raw in data:
            data = data.replace(raw, escaped)
    return b"data: " + data + b"\n\n"


@dataclass(frozen=True, slots=True)
class Envelope:
    """What every ``chat.completion.chunk`` of one answer shares."""

    id: str
    model: str
    created: int = field(default_factory=lambda: int(time.time()))

    def event(self, delta: dict[str, Any], finish: str | None = None,
              extra: dict[str, Any] | None = None) -> bytes:
        """One SSE event carrying ``delta`` for choice 0."""
        return sse_data({**self._head(),
                         "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                         **(extra or {})})

    def usage(self, usage: dict[str, Any]) -> bytes:
        """The usage event: no choices, the upstream's ``usage`` (``include_usage``)."""
        return sse_data({**self._head(), "choices": [], "usage": usage})

    def _head(self) -> dict[str, Any]:
        return {"id": self.id, "object": "chat.completion.chunk", "created": self.created,
                "model": self.model}
