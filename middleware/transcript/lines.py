"""The lines of a transcript (SPEC §4), validated strictly: unknown keys are errors with the line.

Besides SPEC §4's ``game``, ``user``, ``gm``, ``select``, ``rest`` and ``edit``, a ``fork`` line
``{"type": "fork", "at": N, "id": "branch"}`` continues the replay on a new branch started from S(N).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, ValidationError

from middleware.dice import MAX_SIDES
from middleware.errors import TranscriptError, UnreadableTranscript
from middleware.json_input import MAX_DEPTH, JsonInputError, JsonObject, read_json
from middleware.rules.base import json_path
from middleware.text import clean, clean_json


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Options(_Line):
    """Game options: ``dice: "turn"`` gives fair dice (SPEC §5); ``layers`` turns ruleset layers on;
    ``branches`` reads branch blocks after checks."""

    dice: Literal["candidate", "turn"] = "candidate"
    layers: tuple[str, ...] = ()
    branches: bool = False


class GameLine(_Line):
    """The first line: the game id, its ruleset (bundled id, relative path or inline), seed, party."""

    type: Literal["game"]
    id: str = Field(min_length=1, max_length=200)
    ruleset: str | JsonObject
    seed: int = 0
    party: list[JsonValue] = Field(default_factory=list)
    options: Options = Field(default_factory=Options)


class UserLine(_Line):
    """The player's message: starts a turn. Never parsed for tags."""

    type: Literal["user"]
    text: str


class Expect(_Line):
    """What a replayed candidate must show: ``text`` exactly, ``records``/``state`` as subsets."""

    text: str | None = None
    records: list[JsonObject] | None = None
    state: JsonObject | None = None


class GmLine(_Line):
    """A Game Master reply: a candidate of the current turn."""

    type: Literal["gm"]
    text: str
    key: str | None = None
    seed: int | None = None
    dice: list[Annotated[int, Field(ge=1, le=MAX_SIDES)]] = Field(default_factory=list,
                                                                   max_length=10_000)
    """Scripted faces: each at least 1; one past the die it is thrown for stops the replay."""
    expect: Expect | None = None


class SelectLine(_Line):
    """Pick which candidate of the current turn the next turn builds on."""

    type: Literal["select"]
    candidate: int = Field(ge=0)


class RestLine(_Line):
    """A rest taken between turns."""

    type: Literal["rest"]
    who: str
    rest: str


class EditLine(_Line):
    """Live state set between turns, as the sheet editor would."""

    type: Literal["edit"]
    who: str
    live: JsonObject


class GearTakeLine(_Line):
    """A starting kit taken between turns (ITM-GEAR-02): one option per choice by ``picks``."""

    type: Literal["gear"]
    who: str
    kit: str
    picks: list[str] = Field(default_factory=list, max_length=64)
    again: bool = False


class ForkLine(_Line):
    """Continue on a new branch started from S(at)."""

    type: Literal["fork"]
    at: int = Field(ge=0)
    id: str = Field(min_length=1, max_length=200)


Line = Annotated[
    GameLine | UserLine | GmLine | SelectLine | RestLine | EditLine | ForkLine | GearTakeLine,
    Field(discriminator="type"),
]
_LINE: TypeAdapter[Line] = TypeAdapter(Line)
_TYPES = frozenset({"game", "user", "gm", "select", "rest", "edit", "fork", "gear"})


def decoded_lines(raw_lines: Iterable[bytes]) -> Iterator[str]:
    """The lines of a transcript file opened in binary, each decoded as UTF-8; a line that is
    not UTF-8 is ``UnreadableTranscript`` naming it (a text-mode file would raise mid-read)."""
    for number, raw in enumerate(raw_lines, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UnreadableTranscript(f"not UTF-8 text (byte {exc.start + 1} of the line)",
                                       line=number) from exc


def read_lines(text_lines: Iterable[str]) -> list[tuple[int, Line]]:
    """Every non-blank line, numbered from 1, validated; the first bad line raises."""
    out: list[tuple[int, Line]] = []
    for number, raw in enumerate(text_lines, start=1):
        if raw.strip():
            out.append((number, read_line(raw, number)))
    if not out or not isinstance(out[0][1], GameLine):
        raise TranscriptError("a transcript starts with a 'game' line", line=out[0][0] if out else 1)
    again = next((number for number, line in out[1:] if isinstance(line, GameLine)), None)
    if again is not None:
        raise TranscriptError("a second 'game' line: a transcript plays one game (a 'fork' line "
                              "starts a branch)", line=again)
    return out


_EXPONENT_OR_LONG = re.compile(r"[0-9](?:[eE]|[0-9]{199})")
"""Where a number may have an exponent, or be long: with runs of fewer than 200 digits, one has at
most ``MAX_DIGITS`` characters (or a string holds such text). One search, not one for each: the
two cost about as much as each alone, and every line of a transcript is searched."""


def read_line(raw: str, number: int) -> Line:
    """One line, or a ``TranscriptError`` naming the line and the JSON path."""
    line = _read_directly(raw)
    return line if line is not None else _read_checked(raw, number)


def _read_directly(raw: str) -> Line | None:
    """The line decoded and validated by pydantic in one pass, or None: a line it cannot read
    (its error is worded by ``_read_checked``), or one that pydantic's parser might read
    otherwise than ``read_json`` and ``clean_json`` (``_read_directly_safe``).

    Decoding to Python values and validating those cost twice as much, and a transcript is
    read whole before its first turn is played."""
    if not _read_directly_safe(raw):
        return None
    try:
        line: Line = _LINE.validator.validate_json(raw)
        return line
    except ValidationError:
        return None


def _read_directly_safe(raw: str) -> bool:
    """Whether pydantic's parser reads ``raw`` as ``read_json`` does, judged on the whole text
    (strings and a key given twice too: a line may take the long way for nothing, never the short
    one wrongly). That parser takes ``NaN`` and ``Infinity``, any integer, a float past the range
    (as infinity) and nesting past ``MAX_DEPTH``, all of which ``read_json`` refuses; a number
    with no exponent and no run of 200 digits is within its bounds. A lone surrogate, escaped or
    not, which ``clean_json`` would replace, that parser refuses: the line takes the long way."""
    return ("NaN" not in raw and "Infinity" not in raw
            # a line no longer than the bound cannot nest past it, and most lines are short
            and (len(raw) <= MAX_DEPTH or raw.count("[") + raw.count("{") <= MAX_DEPTH)
            and _EXPONENT_OR_LONG.search(raw) is None)


def _read_checked(raw: str, number: int) -> Line:
    """``read_line`` the long way: bounded JSON, then the values validated, errors worded."""
    try:  # bounded JSON (middleware.json_input), every lone surrogate replaced
        data = read_json(raw, "the line")
        if "\\u" in raw or clean(raw) is not raw:  # else no string in it holds a surrogate
            data = clean_json(data)
    except JsonInputError as exc:
        decoding = exc.__cause__
        message = f"not JSON: {decoding.msg} (column {decoding.colno})" \
            if isinstance(decoding, json.JSONDecodeError) else str(exc)
        raise UnreadableTranscript(message, line=number) from exc
    try:  # the core validator itself: the adapter's method only passes its options on to it
        line: Line = _LINE.validator.validate_python(data)
        return line
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        if loc and loc[0] in _TYPES:  # pydantic names the union member first; not a JSON key
            loc = loc[1:]
        message = f"unknown key {loc[-1]!r}" if first["type"] == "extra_forbidden" and loc \
            else first["msg"]
        raise TranscriptError(message, line=number, path=json_path(loc)) from exc
