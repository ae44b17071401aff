"""SHEET-IMPORT-09: a ``hideWhen`` may only compare its field with values that field can hold.

``audit/sheet.py`` refuses a ``hideWhen`` naming no field; this refuses the values. Each value is
checked on its own: the wrong type (text against a number field, a number against a boolean) or a
value an enum does not offer is refused in any comparison; a number outside the field's range or a
text longer than its ``maxLength`` is refused in ``notEquals`` and ``in`` only, because an
out-of-range ``equals`` (it simply never hides) is what older files have and the guide accepts it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

from pydantic import JsonValue

from middleware.errors import Problem
from middleware.rules.ruleset import Ruleset
from middleware.rules.sheet import SheetBlock
from middleware.rules.sheet_fields import (
    BooleanField,
    EnumField,
    HideWhen,
    LongtextField,
    NumberField,
    Scalar,
    SheetField,
    TextField,
)

HOLDERS = ("fields", "derived", "lists", "live.pools", "live.tracks", "live.states")
"""Where a ``hideWhen`` may sit, as JSON paths under ``$.sheet``."""


class Hideable(Protocol):
    """A sheet object that may carry a ``hideWhen``."""

    @property
    def hide_when(self) -> HideWhen | None: ...


def holders(sheet: SheetBlock) -> tuple[tuple[str, Sequence[Hideable]], ...]:
    """Each place of ``HOLDERS`` with the objects it holds, in that order."""
    live = sheet.live
    return (("fields", sheet.fields), ("derived", sheet.derived), ("lists", sheet.lists),
            ("live.pools", live.pools), ("live.tracks", live.tracks), ("live.states", live.states))


def check_hide_when(ruleset: Ruleset) -> Iterable[Problem]:
    """Every ``hideWhen`` value its field cannot hold, at the value's JSON path."""
    sheet = ruleset.sheet
    fields = sheet.by_id.fields
    for path, hide in _hides(sheet):
        field = fields.get(hide.field)
        if field is not None:
            yield from _values(path, hide, field)


def _hides(sheet: SheetBlock) -> Iterator[tuple[str, HideWhen]]:
    """Every ``hideWhen`` of the sheet with its JSON path."""
    for name, owner in holders(sheet):
        for i, item in enumerate(owner):
            hide = item.hide_when
            if hide is not None:
                yield f"$.sheet.{name}[{i}].hideWhen", hide


def _values(path: str, hide: HideWhen, field: SheetField) -> Iterator[Problem]:
    if hide.equals is not None:
        yield from _one(f"{path}.equals", hide.equals, field, strict=False)
    if hide.not_equals is not None:
        yield from _one(f"{path}.notEquals", hide.not_equals, field, strict=True)
    for j, value in enumerate(hide.in_ or ()):
        yield from _one(f"{path}.in[{j}]", value, field, strict=True)


def _one(path: str, value: Scalar, field: SheetField, *, strict: bool) -> Iterator[Problem]:
    """``strict``: also hold numbers to the range and text to ``maxLength``."""
    problem = _cannot_hold(value, field, strict)
    if problem is not None:
        yield Problem(path, f"field {field.id!r} cannot hold {value!r}: {problem}")


def _cannot_hold(value: Scalar, field: SheetField, strict: bool) -> str | None:
    if isinstance(field, NumberField):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return "it is a number field"
        return "outside its range" if strict and not field.min <= value <= field.max else None
    if isinstance(field, BooleanField):
        return None if isinstance(value, bool) else "it is a boolean field"
    if not isinstance(value, str):
        return "it holds text"
    if isinstance(field, EnumField):
        return None if value in field.values else f"not one of {field.values}"
    if strict and isinstance(field, TextField | LongtextField) and len(value) > field.max_length:
        return f"longer than maxLength {field.max_length}"
    return None


def check_layer_values(ruleset: Ruleset) -> Iterable[Problem]:
    """SHEET-IMPORT-19: a layer may not remove an enum value that any ``hideWhen`` compares with,
    since the thing it hides would flip while the layer is on."""
    compared = dict(_compared(ruleset.sheet))
    for i, layer in enumerate(ruleset.layers):
        for j, change in enumerate(_listed(layer.get("fields"))):
            if not isinstance(change, dict):
                continue
            field = str(change.get("id"))
            for k, value in enumerate(_listed(change.get("removeValues"))):
                if isinstance(value, str | int | float) and (field, value) in compared:
                    yield Problem(f"$.layers[{i}].fields[{j}].removeValues[{k}]",
                                  f"{value!r} of field {field!r} is compared by the hideWhen at "
                                  f"{compared[(field, value)]}")


def _listed(value: JsonValue) -> list[JsonValue]:
    """A layer's list as the file gives it; anything else lists nothing (as ``rules/layers.py``
    reads it)."""
    return value if isinstance(value, list) else []


def _compared(sheet: SheetBlock) -> Iterator[tuple[tuple[str, Scalar], str]]:
    """Every (field, value) a ``hideWhen`` compares with, and where that ``hideWhen`` is."""
    for path, hide in _hides(sheet):
        for value in (hide.equals, hide.not_equals, *(hide.in_ or ())):
            if value is not None:
                yield (hide.field, value), path
