"""JSON to and from the text every store keeps (SPEC §2: rows read back equal rows written).

Both stores keep JSON as text, so the memory store and SQLite give back the same values (tuples
come back as lists, for example) and no caller can alias stored data. The encoder is built once:
``json.dumps`` with options builds a new encoder on every call.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from middleware.errors import StoreError
from middleware.stores.base import GameRow

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Encoded:
    """A value already written as JSON text (pydantic's ``model_dump_json``): stored as it is.

    The engine writes records and states this way, as pydantic writes its models faster than a
    dump to Python values and a second pass through ``json``; they read back as the same values.
    """

    text: str


def encode_json(value: Any, what: str) -> str:
    """``value`` as compact JSON text; ``StoreError`` naming ``what`` if it is not JSON."""
    if isinstance(value, Encoded):
        return value.text
    try:
        return _ENCODER.encode(value)
    except (TypeError, ValueError, RecursionError) as exc:
        raise StoreError(f"cannot store {what}: {exc}") from exc


def decode_json(text: str) -> Any:
    """The JSON value of text written by ``encode_json``."""
    return _DECODER.decode(text)


def game_values(game: GameRow) -> tuple[Any, ...]:
    """A game as the columns the SQL stores write: chat, ruleset id, ruleset, seed (as text: it can
    be wider than 64 bits), options, state, parent, forked_at."""
    return (game.chat, game.ruleset_id, encode_json(game.ruleset, "the ruleset"), str(game.seed),
            encode_json(game.options, "the options"), encode_json(game.state, "the state"),
            game.parent, game.forked_at)


def game_from(chat: str, row: Sequence[Any]) -> GameRow:
    """The game a SQL store's ``GET_GAME`` row holds (every column after the chat id)."""
    return GameRow(chat, row[0], decode_json(row[1]), int(row[2]), decode_json(row[3]),
                   decode_json(row[4]), row[5], row[6])
