"""A peer-exported stored sheet read tolerantly (SHEET-BUILD-02/03).

The strict reader is ``party_build`` (SHEET-TRN-05): it refuses. This one never refuses: an envelope
that does not parse is no sheet (the blank build, SHEET-BLANK-04), and inside a build each value is
kept when the ``Build`` model can hold it and dropped otherwise, so it reads its default. Values the
evaluator already reads tolerantly are kept exactly as stored (unknown ids, unknown tiers, stale enum
values, out-of-range numbers): the peer keeps them too, and a later ruleset version may read them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeGuard, TypeVar

from middleware.rules.base import json_path
from middleware.state import Build, Sheet

BUILD_KEYS = ("abilities", "skills", "saves", "bonuses", "fields", "lists")
MAX_SHEET_BYTES = 64 * 1024
"""SHEET-BUILD-02: a stored sheet is at most 64 KiB serialized."""
MAX_ROWS = 500
MAX_STRING = 4000
MAX_TIER = 40

Cell = float | str | bool
"""A field value or a list cell as a build keeps it."""
Stored = Mapping[object, object]
"""An object of the peer's JSON as exported: its keys are checked to be text where they are read."""
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Notes:
    """Where we are in the peer's JSON, and where the warnings go (in reading order)."""

    path: str
    said: list[str]

    def at(self, key: str | int) -> Notes:
        return Notes(self.path + json_path((key,))[1:], self.said)

    def warn(self, message: str) -> None:
        self.said.append(f"{self.path}: {message}")


def serialized_size(value: object) -> int:
    """Bytes of ``value`` as compact UTF-8 JSON, the way a store measures a blob."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=repr)
    return len(text.encode("utf-8"))


def whole(value: object) -> int | None:
    """A whole number (an integral float counts, as JavaScript has no ints); else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return None
    return int(value)


def finite_number(value: object) -> float | None:
    """A finite number that is not a boolean; else None (SHEET-BUILD-03: reads the default)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def read_sheet(sheet: object, notes: Notes) -> Sheet | None:
    """SHEET-BUILD-02: ``{v, build}``; None (the blank build) when the envelope does not parse."""
    if sheet is None:
        return None
    envelope = _envelope(sheet)
    if isinstance(envelope, str):
        notes.warn(f"{envelope}; the sheet is ignored and the blank build is used")
        return None
    stored, v, build = envelope
    for key in sorted(set(stored) - {"v", "build"}, key=str):
        notes.at(str(key)).warn("envelope key not kept")
    return Sheet(v=v, build=read_build(build, notes.at("build")))


def _envelope(sheet: object) -> tuple[Stored, int, Stored] | str:
    """The envelope, its ``v`` and its build; or why it does not parse."""
    if not isinstance(sheet, dict):
        return "not an object {v, build}"
    size = serialized_size(sheet)
    if size > MAX_SHEET_BYTES:
        return f"{size} bytes serialized (at most {MAX_SHEET_BYTES})"
    v = whole(sheet.get("v"))
    if v is None or v < 1:
        return "no whole v >= 1"
    build = sheet.get("build", {})
    if not isinstance(build, dict):
        return "the build is not an object"
    return sheet, v, build


def read_build(build: Stored, notes: Notes) -> Build:
    """SHEET-BUILD-01/03: the six keys, each value kept when it can be held, else dropped."""
    for key in sorted(set(build) - set(BUILD_KEYS), key=str):
        notes.at(str(key)).warn("unknown build key; not kept")
    return Build.model_validate({
        "abilities": _kept(build, "abilities", notes, _number),
        "skills": _kept(build, "skills", notes, _tier),
        "saves": _kept(build, "saves", notes, _tier),
        "bonuses": _kept(build, "bonuses", notes, _number),
        "fields": _kept(build, "fields", notes, _scalar),
        "lists": _kept(build, "lists", notes, _rows_of(notes.at("lists"))),
    })


def _kept(build: Stored, key: str, notes: Notes, read: Callable[[object, str], T]) \
        -> dict[str, T]:
    """One section: a missing or non-object section is empty; each entry read on its own."""
    section = build.get(key, {})
    here = notes.at(key)
    if not isinstance(section, dict):
        here.warn("not an object; every value reads its default")
        return {}
    out: dict[str, T] = {}
    for entry_id, value in section.items():
        try:
            if not isinstance(entry_id, str):
                raise ValueError("the id is not text")
            out[entry_id] = read(value, entry_id)
        except ValueError as exc:
            here.at(str(entry_id)).warn(f"{exc}; dropped")
    return out


def _number(value: object, _id: str) -> float:
    number = finite_number(value)
    if number is None:
        raise ValueError("not a finite number, so it reads its default")
    return number


def _tier(value: object, _id: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TIER:
        raise ValueError(f"not a tier id of at most {MAX_TIER} characters, so it reads the first tier")
    return value


def _scalar(value: object, _id: str) -> Cell:
    """A field value or a list cell: a finite number, a boolean or text of at most 4000."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise ValueError(f"text longer than {MAX_STRING} characters, so it reads its default")
        return value
    return _number(value, _id)


def _rows_of(notes: Notes) -> Callable[[object, str], list[dict[str, Cell]]]:
    def read(rows: object, list_id: str) -> list[dict[str, Cell]]:
        if not isinstance(rows, list):
            raise ValueError("not a list of rows")
        if len(rows) > MAX_ROWS:
            raise ValueError(f"{len(rows)} rows (at most {MAX_ROWS})")
        here = notes.at(list_id)
        return [_row(row, here.at(i)) for i, row in enumerate(rows) if _is_row(row, here.at(i))]
    return read


def _is_row(row: object, notes: Notes) -> TypeGuard[Stored]:
    if not isinstance(row, dict):
        notes.warn("a row that is not an object; dropped")
        return False
    return True


def _row(row: Stored, notes: Notes) -> dict[str, Cell]:
    """SHEET-LST-02: scalar cells and the ``_catalog`` mark; a bad cell reads its column default."""
    out: dict[str, Cell] = {}
    for column_id, cell in row.items():
        try:
            if not isinstance(column_id, str):
                raise ValueError("the column id is not text")
            if column_id == "_catalog" and not isinstance(cell, str):
                raise ValueError("the catalog mark is not text")
            out[column_id] = _scalar(cell, column_id)
        except ValueError as exc:
            notes.at(str(column_id)).warn(f"{exc}; dropped")
    return out
