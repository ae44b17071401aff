"""Sheet fields and list columns: six types discriminated on ``type`` (SHEET-FLD-01, SHEET-LST-01).

Also the shared pieces every sheet model uses: ``Label`` (SHEET-FILE-04) and ``HideWhen``
(SHEET-FLD-05). Cross-references (a ``section`` that exists, a ``hideWhen`` field that exists) are
checked in ``rules/audit/sheet.py``; only the shape and ranges of one object are checked here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from middleware.rules.base import Id, Strict, label_problem


def _label(max_length: int) -> AfterValidator:
    def check(value: str) -> str:
        problem = label_problem(value, max_length)
        if problem:
            raise ValueError(f"label {problem}")
        return value
    return AfterValidator(check)


Label = Annotated[str, _label(80)]
"""SHEET-FILE-04: 1..80 characters, one line, no control characters, brackets or braces."""
Short = Annotated[str, _label(8)]
KindLabel = Annotated[str, _label(16)]
Scalar = float | str | bool


class HideWhen(Strict):
    """SHEET-FLD-05: hide when ``field`` equals / does not equal / is among values (exactly one)."""

    field: Id
    """The field whose value decides."""
    equals: Scalar | None = None
    """Hidden while the field has this value."""
    not_equals: Scalar | None = Field(default=None, alias="notEquals")
    """Hidden while the field has any other value."""
    in_: list[Scalar] | None = Field(default=None, alias="in", min_length=1, max_length=24)
    """Hidden while the field has one of these values (1 to 24)."""

    @model_validator(mode="after")
    def _one_comparison(self) -> HideWhen:
        given = [v for v in (self.equals, self.not_equals, self.in_) if v is not None]
        if len(given) != 1:
            raise ValueError("hideWhen needs exactly one of equals, notEquals, in")
        return self

    def hides(self, value: Scalar | None) -> bool:
        """True when a field read as ``value`` hides the thing this is on."""
        if self.equals is not None:
            return _same(value, self.equals)
        if self.not_equals is not None:
            return not _same(value, self.not_equals)
        return any(_same(value, v) for v in self.in_ or ())


def _same(a: Scalar | None, b: Scalar) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


class _FieldBase(Strict):
    id: Id
    """The field's id (a column's id within its list), as builds and references name it."""
    label: Label
    """The name players see."""
    section: Id | None = None
    """The section it is shown under."""
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")
    """Hides it while another field has a value."""
    required: bool = False
    """Only meaningful on list columns (SHEET-LST-01); fields keep the default."""


class NumberField(_FieldBase):
    """A number in ``min..max`` with an optional ``default``; whole unless ``integer`` is false."""

    type: Literal["number"]
    """``number``: a number between ``min`` and ``max``."""
    min: float
    """The lowest value."""
    max: float
    """The highest value."""
    default: float | None = None
    """The value of a blank sheet; 0 held inside the range when absent."""
    integer: bool = True
    """Whether the value is a whole number (true by default)."""

    @model_validator(mode="after")
    def _range(self) -> NumberField:
        if not (math.isfinite(self.min) and math.isfinite(self.max)) or self.min > self.max:
            raise ValueError("min and max must be finite with min <= max")
        if self.default is not None and not self.min <= self.default <= self.max:
            raise ValueError("default must lie within min..max")
        return self

    @property
    def blank(self) -> float:
        """SHEET-FLD-03 / SHEET-BLANK-01: the default, else 0 held inside the range."""
        if self.default is not None:
            return self.default
        return min(max(0.0, self.min), self.max)


class TextField(_FieldBase):
    type: Literal["text"]
    """``text``: one line of text."""
    max_length: int = Field(alias="maxLength", ge=1, le=500)
    """The most characters it holds (1 to 500)."""
    default: str | None = None
    """The text of a blank sheet."""

    @model_validator(mode="after")
    def _fits(self) -> TextField:
        if self.default is not None and len(self.default) > self.max_length:
            raise ValueError("default is longer than maxLength")
        return self


class LongtextField(_FieldBase):
    type: Literal["longtext"]
    """``longtext``: several lines of text."""
    max_length: int = Field(alias="maxLength", ge=1, le=4000)
    """The most characters it holds (1 to 4000)."""
    default: str | None = None
    """The text of a blank sheet."""

    @model_validator(mode="after")
    def _fits(self) -> LongtextField:
        if self.default is not None and len(self.default) > self.max_length:
            raise ValueError("default is longer than maxLength")
        return self


class BooleanField(_FieldBase):
    type: Literal["boolean"]
    """``boolean``: yes or no."""
    default: bool | None = None
    """The value of a blank sheet (no when absent)."""


class EnumField(_FieldBase):
    type: Literal["enum"]
    """``enum``: one of a closed set of values."""
    values: list[Annotated[str, Field(min_length=1, max_length=80)]] = Field(
        min_length=1, max_length=40)
    """The values it may take (1 to 40, distinct)."""
    value_labels: dict[str, Label] | None = Field(default=None, alias="valueLabels")
    """A name players see for some of the values."""
    default: str | None = None
    """The value of a blank sheet; the first value when absent."""

    @model_validator(mode="after")
    def _values(self) -> EnumField:
        check_closed_set("enum", self.values, self.default, self.value_labels)
        return self

    @property
    def blank(self) -> str:
        """SHEET-FLD-03: the default, else the first value."""
        return self.default if self.default is not None else self.values[0]


class DiceField(_FieldBase):
    type: Literal["dice"]
    """``dice``: dice written as text, e.g. ``1d8``."""
    default: str | None = Field(default=None, max_length=40)
    """The dice of a blank sheet."""
    example: str | None = Field(default=None, max_length=40)
    """An example shown to whoever fills it in."""


def check_closed_set(what: str, values: Sequence[str], default: str | None,
                     value_labels: Mapping[str, str] | None) -> None:
    """SHEET-FLD-01 / SHEET-LIVE-11: a closed set of values (an enum field, a live state) holds
    distinct values, a default among them and labels only for them; raises ``ValueError``."""
    if len(set(values)) != len(values):
        raise ValueError(f"{what} values must be distinct")
    if default is not None and default not in values:
        raise ValueError(f"default {default!r} is not one of the values")
    stray = [k for k in value_labels or {} if k not in values]
    if stray:
        raise ValueError(f"valueLabels keys that are not values: {stray}")


SheetField = Annotated[
    NumberField | TextField | LongtextField | BooleanField | EnumField | DiceField,
    Field(discriminator="type"),
]
"""SHEET-FLD-01: a field or a list column, by ``type``."""


def blank_value(field: NumberField | TextField | LongtextField | BooleanField | EnumField
                | DiceField) -> Scalar:
    """SHEET-BLANK-01: what a blank build holds for ``field``."""
    if isinstance(field, NumberField):
        number = field.blank
        return int(number) if number.is_integer() else number
    if isinstance(field, EnumField):
        return field.blank
    if isinstance(field, BooleanField):
        return bool(field.default)
    return field.default if field.default is not None else ""
