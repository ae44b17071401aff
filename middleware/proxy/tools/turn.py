"""One turn of tool mode: the model calls the Engine's functions, the Engine answers each call
through the same resolvers as the tag it stands for, and the model goes on; pure, no I/O.

The turn keeps the reply as the tag path would read it: the model's text of each round, and in
place of each engine call the tag it stands for (``calls.tag_text``), where the call happened.
Each call is answered with the record that resolving that whole reply so far with the candidate's
seed gives (``Engine.previewer``): the tags resolve in reading order against the turn's start
state, each seeing what the earlier calls changed, with the dice the stored candidate will throw,
so the answer is the record the stored candidate holds (SPEC §3). The one difference, as for a
streamed reply: a buy is priced at the place in force at the END of the reply, so a ``place`` call
after a buy prices it again when the candidate is stored; the model was told the earlier price.

The reply is read by a ``ReplyStream``, streamed or not (what it would send is then dropped): it
resolves each tag once, as it closes, so a call is answered from its reading so far
(``read_so_far``) and a turn of n calls costs n tag resolves, not 1 + 2 + ... + n. Where the
stream cannot vouch for that reading (a tag held for the end, text it still holds, a reply past
its limit), the call resolves the whole reply so far, as the stored candidate will.

At the end the face stores ``reply`` as one candidate (``Engine.process`` with the same seed, and
the stream's reading when it vouches for it: ``ReplyStream.for_store``): its text is the narration
with the resolved tags where the calls were. The model sees each answer as a ``tool`` message: the
resolved tag (the Engine's numbers, never the model's) and the Engine's line.

Bounded: at most ``MAX_ROUNDS`` upstream requests per turn (the last is sent with
``tool_choice: "none"``); engine calls still made in the last one are not run, and the candidate
gets a ``tools`` record saying so (``too-many-rounds``). Past ``MAX_CALLS`` engine calls in a
turn, a call is answered as refused and not run (``too-many-calls``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

import orjson
from pydantic import JsonValue

from middleware.json_input import JsonObject
from middleware.parse import parse
from middleware.pipeline import ResolvedReply
from middleware.proxy.stream import ReplyStream
from middleware.proxy.tools.calls import ToolCall, tag_text
from middleware.proxy.tools.schemas import Schema
from middleware.records import Record
from middleware.rewrite import resolved_text
from middleware.segments import Tag

MAX_ROUNDS: Final = 8
"""Upstream requests per turn in tool mode, the first included."""

MAX_CALLS: Final = 24
"""Engine calls run per turn; later ones are answered as refused."""

Preview = Callable[[str], ResolvedReply]


@dataclass
class ToolTurn:
    """One turn's loop: the client's request (the GM's view in it), the Engine's functions, the
    preview of the candidate, the reply being built (a stream with the preview's seed: ``feed``
    returns what the client may be sent now) and what the upstream has been told since."""

    body: JsonObject
    offered: Sequence[Schema]
    preview: Preview
    reply: ReplyStream
    rounds: int = 0
    calls: int = 0
    notes: list[Record] = field(default_factory=list)
    usage: JsonObject | None = None
    parameters: dict[str, Schema] = field(init=False)
    _added: list[JsonValue] = field(default_factory=list)
    _after_call: bool = False
    _tags: int = 0

    def __post_init__(self) -> None:
        client = {_name(t) for t in _client_tools(self.body)}
        # A function the client declared under one of our names is the client's: ours is not sent.
        self.offered = [t for t in self.offered if _name(t) not in client]
        self.parameters = {_name(t): _properties(t) for t in self.offered}

    @property
    def names(self) -> frozenset[str]:
        """The Engine's functions offered this turn (every other call is the client's)."""
        return frozenset(self.parameters)

    @property
    def last(self) -> bool:
        """Whether the request just sent was the last one this turn may send."""
        return self.rounds >= MAX_ROUNDS

    def request(self) -> JsonObject:
        """The next upstream request: the client's, our functions added to its own, and every
        call and answer of this turn so far; the last one allowed asks for narration only."""
        self.rounds += 1
        tools: list[JsonValue] = [*_client_tools(self.body), *self.offered]
        body: JsonObject = {**self.body, "messages": [*_messages(self.body), *self._added],
                            "tools": tools}
        return {**body, "tool_choice": "none"} if self.last else body

    def text(self, piece: str) -> str:
        """The model's text, fed to the reply (a space first when it follows a call directly)."""
        if not piece:
            return ""
        if self._after_call and not piece[0].isspace():
            piece = " " + piece
        self._after_call = False
        return self.reply.feed(piece)

    def add_usage(self, usage: object) -> None:
        """Sum the token counts of every request of the turn (the client is told the total)."""
        if isinstance(usage, dict):
            self.usage = summed(self.usage, usage)

    def answer(self, content: str, calls: Sequence[ToolCall]) -> str:
        """Run one round's engine calls in order; the text the client may be sent now (their
        resolved tags). The calls and their answers go into the next request."""
        sent, results = [], []
        for call in calls:
            self.calls += 1
            if self.calls > MAX_CALLS:
                results.append(_refused_call())
                continue
            shown, result = self._run(call)
            sent.append(shown)
            results.append(result)
        if self.calls > MAX_CALLS and not any(n.reason == "too-many-calls" for n in self.notes):
            self.notes.append(_note("too-many-calls", f"The model called the Engine's functions "
                                    f"more than {MAX_CALLS} times this turn; the calls past "
                                    f"{MAX_CALLS} were not run."))
        self._added.append({"role": "assistant", "content": content or None,
                            "tool_calls": [c.message() for c in calls]})
        self._added.extend({"role": "tool", "tool_call_id": c.id, "content": r}
                           for c, r in zip(calls, results, strict=True))
        self._after_call = True
        return "".join(sent)

    def cut(self, calls: Sequence[ToolCall]) -> None:
        """The last request still called the Engine: those calls are not run; a record says so."""
        names = ", ".join(sorted({c.name for c in calls}))
        self.notes.append(_note("too-many-rounds", f"The model still called {names} after "
                                f"{MAX_ROUNDS} requests this turn; those calls were not run and "
                                "the turn ended there."))

    def _run(self, call: ToolCall) -> tuple[str, str]:
        """One call: its tag fed to the reply, resolved with everything before it."""
        tag = tag_text(call, self.parameters[call.name])
        so_far = self.reply.reply
        shown = self.reply.feed((" " if so_far and not so_far[-1].isspace() else "") + tag)
        records = [r for r in self._records() if r.tag != "text"]
        if len(records) <= self._tags:  # the tag was not read as one (prose left it open)
            return shown, _result("ignored", tag, "the call could not be read as a tag")
        self._tags = len(records)
        record = records[-1]
        parsed = next((s for s in parse(tag) if isinstance(s, Tag)), None)
        resolved = resolved_text(parsed, record) if parsed is not None else tag
        return shown, _result(record.status, resolved, record.feedback or "", record.reason)

    def _records(self) -> Sequence[Record]:
        """The reply so far resolved whole: the stream's reading when it vouches for it, else
        the preview's."""
        read = self.reply.read_so_far()
        return read if read is not None else self.preview(self.reply.reply).records


def _messages(body: JsonObject) -> list[JsonValue]:
    """The client's messages (``chat.read_request`` has checked they are a list)."""
    listed = body["messages"]
    return listed if isinstance(listed, list) else []


def _client_tools(body: JsonObject) -> list[JsonObject]:
    """The functions the client declared (a ``tools`` that is no list declares none)."""
    listed = body.get("tools")
    return [t for t in listed if isinstance(t, dict)] if isinstance(listed, list) else []


def _name(tool: JsonObject) -> str:
    function = tool.get("function")
    name = function.get("name") if isinstance(function, dict) else None
    return name if isinstance(name, str) else ""


def _properties(tool: Schema) -> Schema:
    """The parameters an offered function lists (``schemas`` writes every one with some)."""
    function = tool["function"]
    parameters = function["parameters"] if isinstance(function, dict) else None
    properties = parameters["properties"] if isinstance(parameters, dict) else None
    return properties if isinstance(properties, dict) else {}


def _result(status: str, resolved: str, feedback: str, reason: str | None = None) -> str:
    """A tool message's content: the resolved tag (the Engine's numbers) and the Engine's line."""
    return orjson.dumps({"resolved": resolved, "status": status,
                         **({"reason": reason} if reason else {}),
                         "feedback": feedback}).decode()


def _refused_call() -> str:
    return _result("refused", "", f"more than {MAX_CALLS} calls this turn: not run",
                   "too-many-calls")


def _note(reason: str, feedback: str) -> Record:
    return Record(tag="tools", status="refused", reason=reason, feedback=feedback)


def summed(total: JsonObject | None, usage: JsonObject) -> JsonObject:
    """Two ``usage`` objects added: integer counts summed, anything else the latest's."""
    if total is None:
        return dict(usage)
    out = {**total, **usage}
    for key, value in usage.items():
        if isinstance(value, int) and isinstance(before := total.get(key), int):
            out[key] = before + value
    return out
