"""JSON from outside, read within bounds (SPEC §8): requests, rulesets, transcripts.

``json.loads`` alone turns hostile input into a crash: a value nested thousands deep raises
``RecursionError``, ``NaN`` and ``Infinity`` read as floats no rule can compare, an integer of
4,301 digits or more raises a bare ``ValueError`` from ``int``, and ``1e999`` reads as infinity.
``read_json`` refuses each with a ``JsonInputError`` that says what and where, and reads
everything else exactly as ``json.loads`` does.
"""

from __future__ import annotations

import codecs
import json
import math
from collections.abc import Sequence
from itertools import chain
from typing import Final, NoReturn

import orjson
from pydantic import JsonValue

MAX_DEPTH = 128
"""The deepest nesting of arrays and objects read (a ruleset nests about a dozen deep)."""

MAX_DIGITS = 400
"""The most digits a number may carry (a seed of 2**1024 has 309)."""



JsonObject = dict[str, JsonValue]
"""A JSON object as read: text keys, any JSON value under each (``JsonValue``, pydantic's)."""


class JsonInputError(ValueError):
    """JSON that cannot be read, or that is past the bounds above; the message says which."""


def read_json(raw: bytes | str, what: str = "the JSON") -> JsonValue:
    """The JSON value of ``raw`` (UTF-8 when bytes), or ``JsonInputError`` naming ``what``."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonInputError(f"{what} is not UTF-8: byte {exc.start} cannot be read") from exc
    try:
        if raw.startswith("\ufeff"):  # as ``json.loads`` refuses it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", raw, 0)
        value: JsonValue = _DECODER.decode(raw)
    except JsonInputError as exc:
        raise JsonInputError(f"{what}: {exc}") from exc
    except RecursionError as exc:
        raise _too_deep(what) from exc
    except (json.JSONDecodeError, ValueError) as exc:
        raise JsonInputError(f"{what} is not JSON: {exc}") from exc
    if raw.count("[") + raw.count("{") > MAX_DEPTH and not _within_bounds(value):
        raise _too_deep(what)
    return value


_LONG_NUMBER: Final = b"0" * 19
"""A run of digits orjson may read otherwise than ``json`` (an integer past 64 bits becomes a
float), found in the text with every digit written as 0 (``_AS_ZEROS``; a pattern, ``\\d{19}``,
cost twice what orjson takes to read a streamed chunk)."""
_AS_ZEROS: Final = bytes.maketrans(b"123456789", b"000000000")


_PAST_64_BITS: Final = float(2**63)
"""The smallest magnitude of a float orjson reads an integer past 64 bits as (it reads integers
from -2**63 to 2**64 - 1 exactly)."""


def read_object_fast(raw: bytes) -> JsonObject | None:
    """The object ``clean_json(read_json(raw))`` gives (``middleware.text``), read by orjson; None
    where ``raw`` is no JSON object or orjson might read it otherwise: the caller then reads it
    the exact way, which says what is wrong with it when something is.

    orjson refuses what ``read_json`` refuses (bytes not UTF-8, a byte order mark, ``NaN``,
    ``1e400``, nesting past its own bound) and a lone surrogate, which ``clean_json`` would
    replace; it joins a pair written as two escapes, as ``clean_json`` does. What it reads
    otherwise is an integer past 64 bits (as a float), and an object nesting past ``MAX_DEPTH``,
    which must be refused: both go the exact way. Text with no more opening brackets than
    ``MAX_DEPTH`` cannot nest deeper, and is searched for 19 digits in a row (no integer past 64
    bits has fewer); other text is read, and the value read is walked for both
    (``_within_bounds``): a long chat's history, full of bracketed tags, is walked anyway, and the
    search of its text cost as much as the walk. Request bodies and streamed chunks are nearly
    all read here, several times faster."""
    if raw[:3] == codecs.BOM_UTF8:
        return None
    bracketed = raw.count(b"[") + raw.count(b"{") > MAX_DEPTH
    if not bracketed and _LONG_NUMBER in raw.translate(_AS_ZEROS):
        return None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(value, dict) or (bracketed and not _within_bounds(value, large_floats=False)):
        return None
    return value


def read_objects_fast(raws: Sequence[bytes]) -> list[JsonObject | None]:
    """``read_object_fast`` of each of ``raws`` (a network read's events), the bounds of their
    text looked at once for all of them rather than once each: where the events together have
    no 19 digits in a row, none has (a run cannot cross the line between two), and where they
    have no more opening brackets than ``MAX_DEPTH`` together, none has more alone. A read of
    more than about 30 events (each chunk opens four) has its brackets counted event by event:
    under load a read brings 30 or more, and each then went the whole way alone."""
    joined = b"\n".join(raws)
    if _LONG_NUMBER in joined.translate(_AS_ZEROS):
        return [read_object_fast(raw) for raw in raws]
    if joined.count(b"[") + joined.count(b"{") <= MAX_DEPTH:
        return [_object_alone(raw) for raw in raws]
    return [_object_alone(raw) if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH
            else read_object_fast(raw) for raw in raws]


def _object_alone(raw: bytes) -> JsonObject | None:
    """``read_object_fast`` of text whose bounds are known to hold."""
    if raw[:3] == codecs.BOM_UTF8:
        return None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _within_bounds(value: JsonValue, *, large_floats: bool = True) -> bool:
    """Whether ``value`` nests arrays and objects no deeper than ``MAX_DEPTH`` and, without
    ``large_floats``, holds no float as large as an integer past 64 bits: what orjson reads such
    an integer as (a float written that large, ``1e19``, is left to the exact read too; every
    other float orjson reads as ``json`` does), so ``read_object_fast`` asks that of what it read.

    The nesting is judged on the value read, not the text: the decoder's own recursion is bounded
    by the interpreter's (deeper text raises ``RecursionError``, refused alike), and a walk over
    the containers read costs a small part of a walk over the text, which long chat histories
    full of bracketed tags made a twelfth of the proxy's time. Text with no more opening brackets
    than ``MAX_DEPTH``, strings included, cannot nest deeper: two counts in C settle nearly every
    request and transcript line without this walk. Level by level, without recursing; each
    level's kinds of value are taken in C (``set(map(type, ...))``), so a level of text alone,
    most of a chat's history, is passed at once."""
    level: list[JsonValue] = [value]
    for _ in range(MAX_DEPTH):
        values = list(chain.from_iterable(
            container.values() if isinstance(container, dict) else container
            for container in level if isinstance(container, (dict, list))))
        kinds = set(map(type, values))
        if not large_floats and float in kinds and any(
                isinstance(v, float) and not -_PAST_64_BITS < v < _PAST_64_BITS for v in values):
            return False
        if dict not in kinds and list not in kinds:
            return True
        level = values
    return False


def _too_deep(what: str) -> JsonInputError:
    return JsonInputError(f"{what} nests deeper than {MAX_DEPTH} arrays and objects")


def _no_constant(name: str) -> NoReturn:
    raise JsonInputError(f"{name} is not a number JSON allows")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise JsonInputError(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text) if len(text) <= MAX_DIGITS else math.inf
    if not math.isfinite(value):
        raise JsonInputError(f"the number {text[:24]}… is too large to read")
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_int=_int, parse_float=_float)
"""What ``json.loads`` with these hooks builds on every call (a decoder and its scanner), built
once: that cost as much as decoding a transcript line."""
