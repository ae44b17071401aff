"""Tool calls read from the upstream, and an engine call written as the tag it stands for; pure.

- ``CallReader`` accumulates streamed ``tool_calls`` deltas (each with its ``index``; ``id`` and
  ``function.name`` on the first, ``function.arguments`` in fragments) into whole ``ToolCall``s.
  A call to a function the client declared is passed on as it came, its deltas renumbered so the
  client's own calls count from 0; the Engine's own calls are kept back (the client never sees
  them).
- ``calls_of`` reads the same from a non-streaming message's ``tool_calls``.
- ``tag_text`` writes an engine call's arguments as the tag the grammar reads: only the parameters
  its function lists, each value cleaned as a record value is (no ``"``, ``[``, ``]``, line
  breaks), booleans as bare words. Arguments that are not a JSON object count as none: the tag
  then says nothing and the resolver refuses it as it would the same tag in a reply.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import orjson
from pydantic import JsonValue

from middleware.json_input import JsonObject
from middleware.proxy.tools.schemas import FLAGS
from middleware.records import clean_value


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One whole call: its id, function name and arguments (the JSON text as the model wrote it)."""

    id: str
    name: str
    arguments: str

    def message(self) -> JsonObject:
        """The call as an assistant message's ``tool_calls`` entry."""
        return {"id": self.id, "type": "function",
                "function": {"name": self.name, "arguments": self.arguments}}


@dataclass(slots=True)
class _Building:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)
    held: list[JsonObject] = field(default_factory=list)
    client_index: int | None = None


class CallReader:
    """One streamed answer's tool calls: ``feed`` each delta's ``tool_calls``, get back what the
    client is passed on now; ``engine_calls`` and ``client_calls`` once the answer has ended."""

    def __init__(self, engine_names: Iterable[str]) -> None:
        self._engine = frozenset(engine_names)
        self._calls: dict[int, _Building] = {}
        self._clients = 0

    def feed(self, deltas: object) -> list[JsonValue]:
        """The deltas of client calls to pass on now (renumbered); engine calls are kept back."""
        out: list[JsonValue] = []
        for delta in deltas if isinstance(deltas, list) else ():
            if isinstance(delta, dict):
                out.extend(self._one(delta))
        return out

    def _one(self, delta: JsonObject) -> list[JsonObject]:
        call = self._calls.setdefault(self._index(delta), _Building())
        written = delta.get("function")
        function: JsonObject = written if isinstance(written, dict) else {}
        if isinstance(given := delta.get("id"), str) and not call.id:
            call.id = given
        name = function.get("name")
        if isinstance(name, str) and name and name != call.name:
            call.name += name
        if isinstance(arguments := function.get("arguments"), str):
            call.arguments.append(arguments)
        call.held.append(delta)
        if not call.name or call.name in self._engine:
            return []
        if call.client_index is None:
            call.client_index, self._clients = self._clients, self._clients + 1
        held, call.held = call.held, []
        return [{**d, "index": call.client_index} for d in held]

    def _index(self, delta: JsonObject) -> int:
        """The delta's ``index``; a server that sends none (whole calls, one per chunk) gets a
        new one for each new ``id``, so two calls are never merged into one."""
        index = delta.get("index")
        if isinstance(index, int):
            return index
        last = max(self._calls, default=0)
        known = self._calls.get(last)
        given = delta.get("id")
        new_id = isinstance(given, str) and known is not None and bool(known.id) \
            and given != known.id
        return last + 1 if new_id else last

    def engine_calls(self) -> list[ToolCall]:
        return [c for c in self._whole() if c.name in self._engine]

    def client_calls(self) -> list[ToolCall]:
        return [c for c in self._whole() if c.name not in self._engine]

    def _whole(self) -> list[ToolCall]:
        return [ToolCall(c.id or f"call_gm_{i}", c.name, "".join(c.arguments))
                for i, c in sorted(self._calls.items())]


def calls_of(message: Mapping[str, JsonValue]) -> list[ToolCall]:
    """The calls of a non-streaming answer's message (entries of the wrong shape are skipped)."""
    listed = message.get("tool_calls")
    calls = []
    for i, entry in enumerate(listed if isinstance(listed, list) else ()):
        if not isinstance(entry, dict):
            continue
        function = entry.get("function")
        name = function.get("name") if isinstance(function, dict) else None
        if not isinstance(function, dict) or not isinstance(name, str):
            continue
        given, arguments = entry.get("id"), function.get("arguments")
        calls.append(ToolCall(given if isinstance(given, str) else f"call_gm_{i}",
                              name, arguments if isinstance(arguments, str) else ""))
    return calls


def arguments_of(call: ToolCall) -> JsonObject:
    """The call's arguments as an object ({} when they are not a JSON object)."""
    try:
        value: JsonValue = orjson.loads(call.arguments) if call.arguments.strip() else {}
    except orjson.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def tag_text(call: ToolCall, parameters: Mapping[str, object]) -> str:
    """``call`` as the tag it stands for, its attributes in the order its function lists them."""
    given = {str(k).lower(): v for k, v in arguments_of(call).items()}
    flags = FLAGS.get(call.name, ())
    attrs: list[str] = []
    for key in parameters:
        value = given.get(key.lower())
        if key in flags:
            attrs += [key] if value is True else []
        elif (written := _written(value)) is not None:
            attrs.append(f'{key}="{written}"')
    return f"[{call.name}: {' '.join(attrs)}]"


def _written(value: JsonValue) -> str | None:
    """An argument's value as an attribute value, or None when it says nothing."""
    if isinstance(value, bool):
        return "true" if value else None
    if isinstance(value, int | float | str):
        cleaned = clean_value(value)
        return cleaned or None
    if isinstance(value, list) and all(isinstance(v, int | float | str) for v in value):
        cleaned = clean_value(", ".join(str(v) for v in value))
        return cleaned or None
    return None
