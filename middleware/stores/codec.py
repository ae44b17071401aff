"""JSON to and from the text every store keeps (SPEC §2: rows read back equal rows written).

Every store keeps JSON as text, so they all give back the same values (tuples come back as lists,
for example) and no caller can alias stored data. The encoder is built once: ``json.dumps`` with
options builds a new encoder on every call.

A state may come written in parts (``Parted``): its text with references to fragments stored once
each, by the digest of their text, and shared by every state that holds them. A reference is
``PART`` followed by the fragment's key; valid JSON text never holds ``PART`` raw (control
characters are escaped inside strings and not allowed outside them), so text stored whole by an
older version reads back unchanged, and a state is read back by putting each fragment in place of
its reference, then decoding once.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any

from cachetools import LRUCache

from middleware.cache import IdentityCache
from middleware.errors import StoreError
from middleware.stores.base import CandidateRow, GameRow
from middleware.text import clean, clean_json

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Encoded:
    """A value already written as JSON text (pydantic's ``model_dump_json``): stored as it is.

    The engine writes records and states this way, as pydantic writes its models faster than a
    dump to Python values and a second pass through ``json``; they read back as the same values.
    """

    text: str


PART = "\x1e"
"""Marks a reference to a stored fragment; the key of ``KEY_CHARS`` characters follows it."""

KEY_CHARS = 32


@dataclass(frozen=True, slots=True)
class Parted:
    """A JSON value written as ``root`` text whose references name fragments in ``parts``.

    ``parts`` holds every fragment the value refers to, directly or through another fragment,
    by key (``part_key`` of its text); a store writes the ones it does not hold yet. A fragment is
    any run of JSON text (a list's items without brackets, for example).
    """

    root: str
    parts: Mapping[str, str] = field(default_factory=dict)


def part_key(fragment: str) -> str:
    """The key a fragment is stored under: the digest of its text."""
    return blake2b(fragment.encode(), digest_size=KEY_CHARS // 2).hexdigest()


def reference(key: str) -> str:
    """The text that stands for the fragment ``key`` inside another text."""
    return PART + key


def references(text: str) -> list[str]:
    """The keys ``text`` refers to directly, in order."""
    return [piece[:KEY_CHARS] for piece in text.split(PART)[1:]]


def missing(text: str, parts: Mapping[str, str]) -> set[str]:
    """The keys ``text`` needs, directly or through fragments in ``parts``, that ``parts`` lacks."""
    lacking: set[str] = set()
    todo = [text]
    while todo:
        for key in references(todo.pop()):
            if key in parts:
                todo.append(parts[key])
            else:
                lacking.add(key)
    return lacking


def assemble(text: str, parts: Mapping[str, str]) -> str:
    """``text`` with every reference replaced by its fragment (fragments may refer on)."""
    if PART not in text:
        return text
    pieces = text.split(PART)
    out = [pieces[0]]
    for piece in pieces[1:]:
        out.append(assemble(parts[piece[:KEY_CHARS]], parts))
        out.append(piece[KEY_CHARS:])
    return "".join(out)


def encode_state(value: Any, known: Collection[str] = ()) -> tuple[str, dict[str, str]]:
    """A state (or any value written in parts: a game's ruleset) as the text a row keeps and the
    fragments to write with it (those not in ``known``, the keys the store already holds)."""
    if isinstance(value, Parted):
        return value.root, {k: v for k, v in value.parts.items() if k not in known}
    return encode_json(value, "the state"), {}


def encode_json(value: Any, what: str) -> str:
    """``value`` as compact JSON text; ``StoreError`` naming ``what`` if it is not JSON."""
    if isinstance(value, Encoded):
        return clean(value.text)
    try:
        return clean(_ENCODER.encode(value))  # a lone surrogate would be refused by SQL stores
    except (TypeError, ValueError, RecursionError) as exc:
        raise StoreError(f"cannot store {what}: {exc}") from exc


def clean_candidate(row: CandidateRow) -> CandidateRow:
    """``row`` with lone surrogates in its key, reply and text replaced (``text.clean``): every
    store keeps and gives back the same valid text."""
    key = clean(row.key) if row.key is not None else None
    reply, text = clean(row.reply), clean(row.text)
    if (key, reply, text) == (row.key, row.reply, row.text):
        return row
    return CandidateRow(row.chat, row.turn, row.index, key, row.seed, reply, text, row.records,
                        row.state)


def stored_as_given(row: CandidateRow, index: int) -> CandidateRow:
    """``row`` as ``add_candidate`` returns it once written: its index, and its records and state
    as the caller gave them (a store never reads back what it has just written). Values given as
    Python objects come back as copies with their text cleaned as it was stored
    (``text.clean_json``); text given already written comes back as given."""
    return CandidateRow(row.chat, row.turn, index, row.key, row.seed, row.reply, row.text,
                        _as_stored(row.records), _as_stored(row.state))


def _as_stored(value: Any) -> Any:
    return value if isinstance(value, (Encoded, Parted)) else clean_json(value)


def decode_json(text: str) -> Any:
    """The JSON value of text written by ``encode_json``. The empty list, most turns' events and
    a reply's records when it has no tag, is given without the decoder: a history sent back whole
    reads every turn's row on each request, and decoding ``[]`` was a third of building them."""
    return [] if text == "[]" else _DECODER.decode(text)


def game_values(game: GameRow, state: str, ruleset: str) -> tuple[Any, ...]:
    """A game as the columns the SQL stores write: chat, ruleset id, ``ruleset`` (its text: a
    reference to its fragment, ``RulesetTexts.parted``), seed (as text: it can be wider than 64
    bits), options, ``state`` (its text, from ``encode_state``), parent, forked_at."""
    return (game.chat, game.ruleset_id, ruleset, str(game.seed),
            encode_json(game.options, "the options"), state, game.parent, game.forked_at)


class RulesetTexts:
    """Rulesets decoded once per stored text, and encoded once per value: the games of one
    ruleset share its value, and a proxy creates every new chat's game from one ruleset's source
    (encoding it again was a third of creating a game).

    The SQL stores keep a ruleset's text once, as a fragment (``parted``), and each game row
    only its reference: a ruleset's text is 6-66 KB, written again for every chat and every
    branch it was most of what a new game stored, and a game read back read all of it. A row
    written by an older version holds the whole text, and reads back as it is."""

    def __init__(self, kept: int = 16) -> None:
        self._decoded: LRUCache[str, Any] = LRUCache(maxsize=kept)
        self._encoded: IdentityCache[str] = IdentityCache(kept)
        self._parted: IdentityCache[Parted] = IdentityCache(kept)

    def known(self, stored: str) -> Any | None:
        """The ruleset a game row's text stands for, if it was decoded before."""
        return self._decoded.get(stored)

    def decoded(self, stored: str, text: str | None = None) -> Any:
        """The ruleset of a game row's ``stored`` text, whose whole text is ``text`` (default:
        ``stored`` itself), decoded once per stored text."""
        value = self._decoded.get(stored)
        if value is None:
            value = self._decoded[stored] = decode_json(stored if text is None else text)
        return value

    def encoded(self, value: Any) -> str:
        """``value``'s text, worked out once per value object: a ruleset's source is never
        changed once loaded."""
        return self._encoded.get((value,), None, lambda: encode_json(value, "the ruleset"))

    def parted(self, value: Any) -> Parted:
        """``value``'s text as one fragment and the reference a game row keeps, once per value
        object."""
        def part() -> Parted:
            text = self.encoded(value)
            key = part_key(text)
            return Parted(reference(key), {key: text})

        return self._parted.get((value,), None, part)


def game_from(chat: str, row: Sequence[Any], state: Any, ruleset: Any) -> GameRow:
    """The game a SQL store's ``GET_GAME`` row holds (every column after the chat id), with its
    state's and its ruleset's values read by the store (``row[4]`` and ``row[1]`` are their
    texts)."""
    return GameRow(chat, row[0], ruleset, int(row[2]), decode_json(row[3]), state, row[5],
                   row[6])
