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
    """The pool's id, as spends, costs, rests and ``[inventory:]`` restores name it (``resolve``,
    ``hp``)."""
    label: Label
    """The pool's name as players see it (``Resolve``, ``Hit points``)."""
    max: ValueRef
    """The pool's maximum, read off the sheet without live state; a character whose maximum is 0
    has no such pool."""
    allow_temp: bool = Field(default=False, alias="allowTemp")
    """Whether the pool has a temporary buffer on top (temporary hit points)."""
    group: Id | None = None
    """A family of pools (spell slots); a cost naming the group pays from the first of them that
    can."""
    start: Literal["full", "empty"] = "full"
    """Whether the pool starts ``full`` (default) or ``empty``."""
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")
    """Hides the pool (the character does not have it) while a field has a value."""


class Level(Strict):
    """SHEET-WND-02: one named level of a wound track, best first."""

    label: Label
    """The level's name (``Winded``, ``Bleeding``)."""
    penalty: int = Field(ge=-1000, le=0)
    """What the level costs every check while it is the lowest marked level (-1000 to 0; -99 means
    out of it)."""


class Kind(Strict):
    """SHEET-WND-03: what a mark may be; only the order of severities matters."""

    id: Id
    """The kind's id, as marks on a character's track are stored."""
    label: KindLabel
    """The kind's name (up to 16 characters)."""
    severity: int = Field(ge=-100, le=100)
    """How severe the kind is (-100 to 100, distinct); only the order matters."""


class BoxPenalty(Strict):
    """SHEET-WND-04: a step table read at the boxes filled or remaining."""

    by: Literal["filled", "remaining"]
    """Whether the table is read at the boxes ``filled`` or ``remaining``."""
    table: StepRows = Field(min_length=1, max_length=40)
    """Rows of ``[threshold, penalty]``, thresholds ascending and penalties at most 0 (1 to 40
    rows)."""


class Boxes(Strict):
    penalty: BoxPenalty
    """What the boxes cost every check, read from a step table."""


class Extra(Strict):
    """SHEET-WND-05: levels a list adds, one row at a time."""

    list: Id
    """The sheet list whose rows add levels (a scar adds a level)."""
    count_column: Id = Field(alias="countColumn")
    """The number column holding how many levels a row adds."""
    penalty_column: Id = Field(alias="penaltyColumn")
    """The number column holding the penalty of the levels a row adds."""


class Track(Strict):
    """SHEET-LIVE-07 / SHEET-WND-01: a plain track, or a wound track when it declares ``kinds``."""

    id: Id
    """The track's id, as ``liveTrack`` references, ``penaltyFrom`` and rests name it."""
    label: Label
    """The track's name as players see it (``Heat``, ``Harm``)."""
    min: int
    """The lowest value (0 on a wound track)."""
    max: int | ValueRef
    """The highest value: a whole number or a sheet value (a wound track with levels: their
    number)."""
    default: int | None = None
    """The value a character starts at; ``min`` when absent."""
    always_show: bool = Field(default=False, alias="alwaysShow")
    """Whether the track is shown even at its default."""
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")
    """Hides the track while a field has a value."""
    levels: list[Level] | None = Field(default=None, min_length=1, max_length=16)
    """Named levels of a wound track, best first (1 to 16)."""
    boxes: Boxes | None = None
    """Numbered boxes of a wound track, as many as its ``max``."""
    kinds: list[Kind] | None = Field(default=None, min_length=1, max_length=6)
    """What a mark on a wound track may be (1 to 6); declaring them makes the track a wound
    track."""
    extra: Extra | None = None
    """Levels a sheet list adds to a wound track, one row at a time."""
    fill: Literal["sequential", "indexed"] | None = None
    """How marks sit on a wound track: ``sequential`` (default: most severe first) or ``indexed``
    (each box by its number)."""
    on_full: Literal["upgrade", "refuse"] | None = Field(default=None, alias="onFull")
    """What a mark does on a full wound track: ``upgrade`` the lightest mark, or ``refuse``."""

    @property
    def wound(self) -> bool:
        """SHEET-WND-01: a wound track declares kinds (with levels or boxes)."""
        return self.kinds is not None

    @property
    def indexed(self) -> bool:
        return self.fill == "indexed"


class LiveText(Strict):
    id: Id
    """The live text's id, as rests clear it."""
    label: Label
    """The name players see (``Concentration``)."""
    max_length: int = Field(alias="maxLength", ge=1, le=500)
    """The most characters it holds (1 to 500)."""


class Condition(Strict):
    id: Id
    """The condition's id, as ``combat.conditions``, rests and items name it."""
    label: Label
    """The condition's name (``Restrained``, ``Marked``)."""


class State(Strict):
    """SHEET-LIVE-11: exactly one of a closed set of values."""

    id: Id
    """The state's id, as ``enumTable`` and rests name it."""
    label: Label
    """The state's name (``Light``, ``Stance``)."""
    values: list[Label] = Field(min_length=2, max_length=40)
    """The values it may take (2 to 40), each a prompt-safe label without ``"``."""
    value_labels: dict[str, Label] | None = Field(default=None, alias="valueLabels")
    """A name players see for some of the values."""
    default: str | None = None
    """The value a character starts at; the first value when absent."""
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")
    """Hides the state while a field has a value (enum tables then read its default)."""

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
    """Points a character spends and gets back: hit points, willpower, spell slots (up to 60)."""
    tracks: list[Track] = Field(default_factory=list, max_length=30)
    """Numbers that move in play within a range, and wound tracks (up to 30)."""
    text: list[LiveText] = Field(default_factory=list, max_length=12)
    """Short notes kept in play, e.g. what a character concentrates on (up to 12)."""
    conditions: list[Condition] = Field(default_factory=list, max_length=80)
    """Conditions a character has on or off (up to 80)."""
    states: list[State] = Field(default_factory=list, max_length=12)
    """Values of a closed set a character is in at any time: a stance, how lit a lantern is (up to
    12)."""
