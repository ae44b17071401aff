"""A peer-exported live state and bag read tolerantly (SHEET-STORE-01/04/05).

The strict reader is ``party_live`` (SHEET-TRN-05). Here a blob outside the SHEET-STORE-04 bounds
(too big serialized, too many entries in a section) is refused whole and the character starts from
the blank live state; inside a blob within bounds each entry is validated on its own and a bad one is
dropped without losing the rest. Entries the ruleset does not (or no longer) declare are kept unread,
since ``Live`` can hold any key: a hidden pool's value survives until the pool is shown again.

Our reading of SHEET-STORE-04: the counts and the size bound the blob; the per-value bounds (whole
numbers within +-1,000,000, key, id, text and value lengths, marks per track) bound one entry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pydantic import ValidationError

from middleware.sheet.party_live import STACK_KEYS
from middleware.sheet.peer_build import Notes, Stored, serialized_size, whole
from middleware.state import Live, PoolValue, Stack, Wounds

MAX_LIVE_BYTES = 64 * 1024
MAX_NUMBER = 1_000_000
MAX_KEY = 200
MAX_MARKS = 64
MAX_TEXT = 500
MAX_ID = 80
LIMITS = {"pools": 600, "tracks": 30, "wounds": 30, "text": 12, "conditions": 80, "states": 30}
"""SHEET-STORE-04: entries per character, by section."""

T = TypeVar("T")


def live_fault(live: Stored) -> str | None:
    """SHEET-STORE-04: why a character's blob is outside the bounds, or None."""
    size = serialized_size(live)
    if size > MAX_LIVE_BYTES:
        return f"{size} bytes serialized (at most {MAX_LIVE_BYTES})"
    for section, limit in LIMITS.items():
        held = live.get(section)
        if isinstance(held, dict | list) and len(held) > limit:
            return f"{len(held)} {section} (at most {limit})"
    return None


def read_live(live: object, notes: Notes) -> Live:
    """SHEET-STORE-05: every well-formed entry kept; the blank live state for a refused blob."""
    if live is None:
        return Live()
    if not isinstance(live, dict):
        return _refused("not an object", notes)
    fault = live_fault(live)
    if fault:
        return _refused(fault, notes)
    for key in sorted(set(live) - set(LIMITS), key=str):
        notes.at(str(key)).warn("unknown key; dropped")
    return Live(
        pools=_entries(live, "pools", notes, _pool),
        tracks=_entries(live, "tracks", notes, _number),
        wounds=_entries(live, "wounds", notes, _wounds),
        text=_entries(live, "text", notes, _text),
        conditions=_conditions(live.get("conditions", []), notes.at("conditions")),
        states=_entries(live, "states", notes, _state),
    )


def _refused(fault: str, notes: Notes) -> Live:
    notes.warn(f"{fault}; the live state is refused and starts blank")
    return Live()


def _entries(live: Stored, section: str, notes: Notes,
             read: Callable[[object, Notes], T]) -> dict[str, T]:
    held = live.get(section, {})
    here = notes.at(section)
    if not isinstance(held, dict):
        here.warn("not an object; dropped")
        return {}
    out: dict[str, T] = {}
    for key, value in held.items():
        try:
            if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY:
                raise ValueError(f"a key must be text of 1 to {MAX_KEY} characters")
            out[key] = read(value, here.at(key))
        except ValueError as exc:
            here.at(str(key)).warn(f"{exc}; dropped")
    return out


def _number(value: object, _notes: Notes, low: int = -MAX_NUMBER) -> int:
    number = whole(value)
    if number is None or not low <= number <= MAX_NUMBER:
        raise ValueError(f"not a whole number in {low}..{MAX_NUMBER}")
    return number


def _pool(value: object, notes: Notes) -> PoolValue:
    """``{value, temp?}``; other keys inside are not kept."""
    if not isinstance(value, dict) or "value" not in value:
        raise ValueError("not a pool entry {value, temp?}")
    _unkept(value, {"value", "temp"}, notes)
    temp = _number(value["temp"], notes, 0) if value.get("temp") is not None else None
    return PoolValue(value=_number(value["value"], notes), temp=temp)


def _wounds(value: object, notes: Notes) -> Wounds:
    """``{marks, overflow?}``: kind ids (undeclared ones kept unread), at most 64."""
    if not isinstance(value, dict):
        raise ValueError("not a wound entry {marks, overflow?}")
    _unkept(value, {"marks", "overflow"}, notes)
    marks = value.get("marks", [])
    if not isinstance(marks, list) or not all(isinstance(m, str) and len(m) <= MAX_KEY
                                              for m in marks):
        raise ValueError("marks must be a list of kind ids")
    if len(marks) > MAX_MARKS:
        raise ValueError(f"{len(marks)} marks (at most {MAX_MARKS})")
    overflow = _number(value["overflow"], notes, 0) if value.get("overflow") is not None else 0
    return Wounds(marks=tuple(marks), overflow=overflow)


def _text(value: object, _notes: Notes) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ValueError(f"not text of at most {MAX_TEXT} characters")
    return value


def _state(value: object, _notes: Notes) -> str:
    """A stale value is kept: it reads as the state's default (SHEET-LIVE-12)."""
    if not isinstance(value, str) or len(value) > MAX_ID:
        raise ValueError(f"not a value of at most {MAX_ID} characters")
    return value


def _conditions(held: object, notes: Notes) -> tuple[str, ...]:
    """SHEET-STORE-05: bad ids dropped, duplicates collapsed, undeclared ones kept (inactive)."""
    if not isinstance(held, list):
        notes.warn("not a list; dropped")
        return ()
    kept: dict[str, None] = {}
    for i, condition in enumerate(held):
        if isinstance(condition, str) and 1 <= len(condition) <= MAX_ID:
            kept.setdefault(condition)
        else:
            notes.at(i).warn(f"not a condition id of 1 to {MAX_ID} characters; dropped")
    return tuple(kept)


def _unkept(value: Stored, known: set[str], notes: Notes) -> None:
    for key in sorted(set(value) - known, key=str):
        notes.at(str(key)).warn("unknown key; not kept")


def read_bag(bag: object, notes: Notes) -> tuple[Stack, ...]:
    """SHEET-TRN-04 shapes, one stack at a time: a stack that does not fit is dropped."""
    if not isinstance(bag, list | tuple):
        notes.warn("not a list; the bag starts empty")
        return ()
    out: list[Stack] = []
    for i, stack in enumerate(bag):
        here = notes.at(i)
        if not isinstance(stack, dict) or sum(k in stack for k in ("item", "coins", "plain")) != 1:
            here.warn("not exactly one of item, coins, plain; dropped")
            continue
        _unkept(stack, STACK_KEYS, here)
        try:
            out.append(Stack.model_validate({k: v for k, v in stack.items() if k in STACK_KEYS},
                                            strict=True))
        except ValidationError as exc:
            here.warn(f"{exc.errors()[0]['msg']}; dropped")
    return tuple(out)
