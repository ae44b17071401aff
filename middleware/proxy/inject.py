"""The GM's view put into an upstream request: pure message surgery, and the view of a chat.

Where each block goes, in forms every chat template accepts:

- the **rules block** is merged into the conversation's first system message (after its own text,
  so the client's prompt keeps its place), or a system message is added first when there is none;
- the **state block** goes in a system message of its own just before the last player message; a
  template that refuses a second system message can have it inside the last player message
  instead (``state_in_user``), fenced by ``<game-state>`` … ``</game-state>``.

Assistant messages the client sends back are never touched: they already carry the resolved tags.
``mode``: ``full`` (both blocks), ``rules`` (the rules block only, for people who show the state
their own way) or ``off`` (the body goes upstream as the client sent it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal, cast

from cachetools import LRUCache
from pydantic import JsonValue

from middleware.engine import Engine
from middleware.errors import GMError
from middleware.gm_view import GMView, ViewOptions, build_view
from middleware.json_input import JsonObject
from middleware.records import Record
from middleware.resolve.dispatch import record_from_json
from middleware.state import GameState

InjectMode = Literal["full", "rules", "off"]
INJECT_MODES: Final = ("full", "rules", "off")
STATE_OPEN: Final = "<game-state>"
STATE_CLOSE: Final = "</game-state>"


@dataclass(frozen=True, slots=True)
class InjectConfig:
    """How the proxy tells the model the rules and the state (``--inject``, ``--state-in-user``)."""

    mode: InjectMode = "full"
    state_in_user: bool = False
    options: ViewOptions = field(default_factory=ViewOptions)


def inject_config(mode: str, state_in_user: bool = False, tools: bool = False) -> InjectConfig:
    """``--inject``, ``--state-in-user`` and ``--tools`` (the view teaches tool mode) read, or
    ``GMError`` naming the modes."""
    if mode not in INJECT_MODES:
        raise GMError(f"--inject must be one of {', '.join(INJECT_MODES)}, not {mode!r}")
    return InjectConfig(mode=mode, state_in_user=state_in_user,  # type: ignore[arg-type]
                        options=ViewOptions(tools=tools))


def inject(body: JsonObject, view: GMView, config: InjectConfig) -> JsonObject:
    """A copy of the request ``body`` with ``view`` put in as ``config`` says (``body`` unchanged)."""
    if config.mode == "off":
        return body
    messages = _messages(body["messages"])
    _merge_rules(messages, view.rules)
    if config.mode == "full":
        _put_state(messages, view.state, config.state_in_user)
    return {**body, "messages": [*messages]}


def _messages(listed: JsonValue) -> list[JsonObject]:
    """The messages in a list of their own (``chat.read_request`` has checked they are objects).
    The messages themselves are not copied: the two the view changes are replaced by changed
    copies, so the client's body stays as it was (a long chat's hundreds of copies were a tenth
    of its request's work before the upstream is asked)."""
    given = listed if isinstance(listed, list) else [listed]
    for message in given:
        if not isinstance(message, dict):
            raise TypeError(f"a message must be an object, not {type(message).__name__}")
    return cast(list[JsonObject], list(given))


def _merge_rules(messages: list[JsonObject], rules: str) -> None:
    first = next((i for i, m in enumerate(messages) if m.get("role") == "system"), None)
    if first is None:
        messages.insert(0, {"role": "system", "content": rules})
        return
    messages[first] = {**messages[first],
                       "content": _appended(messages[first].get("content"), rules)}


def _put_state(messages: list[JsonObject], state: str, in_user: bool) -> None:
    last = next((i for i in range(len(messages) - 1, -1, -1)
                 if messages[i].get("role") == "user"), None)  # nearly always the last message
    if last is None:
        return
    if in_user:
        fenced = f"{STATE_OPEN}\n{state}\n{STATE_CLOSE}"
        messages[last] = {**messages[last],
                          "content": _prepended(messages[last].get("content"), fenced)}
    else:
        messages.insert(last, {"role": "system", "content": state})


def _appended(content: JsonValue, text: str) -> JsonValue:
    """``text`` after a message's content: a string, or one more text part of a part list."""
    if isinstance(content, list):
        return [*content, {"type": "text", "text": text}]
    return f"{content}\n\n{text}" if content else text


def _prepended(content: JsonValue, text: str) -> JsonValue:
    if isinstance(content, list):
        return [{"type": "text", "text": text}, *content]
    return f"{text}\n\n{content}" if content else text


class KeptRecords:
    """The records of candidates the proxy stored or read, by (chat, turn, candidate), for the
    GM's view of the turn after, which would otherwise read the kept candidate's records from
    the store on every request. A stored candidate is never changed nor removed, so what is held
    here is what the store holds, for every worker; which candidate is kept is still read from
    the store each time (``Engine.kept_after``)."""

    def __init__(self, size: int = 4096) -> None:
        self._held: LRUCache[tuple[str, int, int], tuple[Record, ...]] = LRUCache(maxsize=size)

    def add(self, chat: str, turn: int, candidate: int, records: tuple[Record, ...]) -> None:
        self._held[(chat, turn, candidate)] = records

    def get(self, chat: str, turn: int, candidate: int) -> tuple[Record, ...] | None:
        return self._held.get((chat, turn, candidate))


async def chat_view(engine: Engine, chat: str, turn: int, config: InjectConfig,
                    extending: int | None = None) -> GMView:
    """The view of ``chat`` as ``turn`` starts: S(turn-1) and the kept candidate's records; for a
    Continue of candidate ``extending``, the state after it and what its own tags did."""
    return (await viewed_start(engine, chat, turn, config, extending))[0]


async def viewed_start(engine: Engine, chat: str, turn: int, config: InjectConfig,
                       extending: int | None = None,
                       held: KeptRecords | None = None) -> tuple[GMView, GameState]:
    """``chat_view`` and the state it shows, so the turn's preview starts from that very state
    rather than reading it again. ``held``: candidates' records known already."""
    game, ruleset = await engine.game(chat), await engine.ruleset(chat)
    if extending is not None:
        row = await engine.store.get_candidate(chat, turn, extending)
        state, records = GameState.model_validate(row.state), engine_records(row.records)
    else:
        state, kept = await engine.kept_after(chat, turn - 1)
        records = await _kept_records(engine, chat, turn - 1, kept, held) \
            if kept is not None else ()
    return build_view(ruleset, state, records, config.options, seed=game.seed), state


async def _kept_records(engine: Engine, chat: str, turn: int, kept: int,
                        held: KeptRecords | None) -> tuple[Record, ...]:
    """The records of candidate ``kept`` of ``turn``: ``held``'s, else read without its state
    (reading the whole candidate decoded its state too, on every request, for records alone)."""
    if held is not None and (records := held.get(chat, turn, kept)) is not None:
        return records
    found = [r for r in await engine.store.replies(chat, turn, turn) if r.index == kept]
    if not found:
        return ()
    records = engine_records(found[0].records)
    if held is not None:
        held.add(chat, turn, kept, records)
    return records


def engine_records(stored: Iterable[Mapping[str, JsonValue]]) -> tuple[Record, ...]:
    """A stored candidate's records read back as record objects."""
    return tuple(record_from_json(r) for r in stored)
