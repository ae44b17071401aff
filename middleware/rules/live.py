"""The ``sheet.live`` block: pools, tracks (plain and wound), text, conditions, states (SHEET-LIVE,
SHEET-WND). Shapes and one-object ranges only; cross-references are in ``rules/audit/sheet.py``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from middleware.rules.base import Id, Strict
from middleware.rules.refs import ValueRef
from middleware.rules.sheet_fields import HideWhen, KindLabel, Label, check_closed_set

StepRows = list[tuple[float, float]]


class Pool(Strict):
    """SHEET-LIVE-02: a declared live pool; ``max`` is read without live state (SHEET-REF-16)."""

    id: Id
    label: Label
    max: ValueRef
    allow_temp: bool = Field(default=False, alias="allowTemp")
    group: Id | None = None
    start: Literal["full", "empty"] = "full"
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")


class Level(Strict):
    """SHEET-WND-02: one named level of a wound track, best first."""

    label: Label
    penalty: int = Field(ge=-1000, le=0)


class Kind(Strict):
    """SHEET-WND-03: what a mark may be; only the order of severities matters."""

    id: Id
    label: KindLabel
    severity: int = Field(ge=-100, le=100)


class BoxPenalty(Strict):
    """SHEET-WND-04: a step table read at the boxes filled or remaining."""

    by: Literal["filled", "remaining"]
    table: StepRows = Field(min_length=1, max_length=40)


class Boxes(Strict):
    penalty: BoxPenalty


class Extra(Strict):
    """SHEET-WND-05: levels a list adds, one row at a time."""

    list: Id
    count_column: Id = Field(alias="countColumn")
    penalty_column: Id = Field(alias="penaltyColumn")


class Track(Strict):
    """SHEET-LIVE-07 / SHEET-WND-01: a plain track, or a wound track when it declares ``kinds``."""

    id: Id
    label: Label
    min: int
    max: int | ValueRef
    default: int | None = None
    always_show: bool = Field(default=False, alias="alwaysShow")
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")
    levels: list[Level] | None = Field(default=None, min_length=1, max_length=16)
    boxes: Boxes | None = None
    kinds: list[Kind] | None = Field(default=None, min_length=1, max_length=6)
    extra: Extra | None = None
    fill: Literal["sequential", "indexed"] | None = None
    on_full: Literal["upgrade", "refuse"] | None = Field(default=None, alias="onFull")

    @property
    def wound(self) -> bool:
        """SHEET-WND-01: a wound track declares kinds (with levels or boxes)."""
        return self.kinds is not None

    @property
    def indexed(self) -> bool:
        return self.fill == "indexed"


class LiveText(Strict):
    id: Id
    label: Label
    max_length: int = Field(alias="maxLength", ge=1, le=500)


class Condition(Strict):
    id: Id
    label: Label


class State(Strict):
    """SHEET-LIVE-11: exactly one of a closed set of values."""

    id: Id
    label: Label
    values: list[Label] = Field(min_length=2, max_length=40)
    value_labels: dict[str, Label] | None = Field(default=None, alias="valueLabels")
    default: str | None = None
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")

    @model_validator(mode="after")
    def _values(self) -> State:
        if any('"' in v for v in self.values):
            raise ValueError('state values may not contain "')
        check_closed_set("state", self.values, self.default, self.value_labels)
        return self

    @property
    def start(self) -> str:
        """SHEET-LIVE-12: the default, else the first value."""
        return self.default if self.default is not None else self.values[0]


class LiveBlock(Strict):
    """SHEET-LIVE-01 with the limits of SHEET-FILE-07."""

    pools: list[Pool] = Field(default_factory=list, max_length=60)
    tracks: list[Track] = Field(default_factory=list, max_length=30)
    text: list[LiveText] = Field(default_factory=list, max_length=12)
    conditions: list[Condition] = Field(default_factory=list, max_length=80)
    states: list[State] = Field(default_factory=list, max_length=12)
