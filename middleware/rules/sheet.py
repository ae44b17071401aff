"""The ruleset's ``sheet`` block (SHEET-FILE, SHEET-SEC, SHEET-ABL, SHEET-SKL, SHEET-DRV, SHEET-LST)

Every model is strict (SHEET-FILE-06) and carries the limits of SHEET-FILE-07. Fields and columns
live in ``sheet_fields``, the live block in ``live``. Cross-references between parts are checked by
``rules/audit/sheet.check_sheet`` so that every problem gets its own JSON path.
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field, model_validator

from middleware.rules.base import Id, Strict
from middleware.rules.live import LiveBlock, Pool, State, StepRows, Track
from middleware.rules.refs import ValueRef
from middleware.rules.sheet_fields import EnumField, HideWhen, Label, SheetField, Short


class UntrainedBy(Strict):
    """SHEET-UNT-03: ``{by: N}`` added to an untrained number before the cap."""

    by: int = Field(ge=-20, le=20)
    """A whole number (-20 to 20) added to an untrained skill's or save's number before its cap:
    dice on a pool, a flat amount on a sum."""


Untrained = Literal["normal", "harder", "refuse"] | UntrainedBy


class Section(Strict):
    """SHEET-SEC-01: a heading, with an untrained rule for the skills and saves in it."""

    id: Id
    """The section's id, as skills, saves, fields and lists name it."""
    label: Label
    """The heading players see."""
    untrained: Untrained | None = None
    """The untrained rule for the section's skills and saves that have none of their own:
    ``normal``, ``harder``, ``refuse`` or ``{"by": N}``."""


class Ability(Strict):
    """SHEET-ABL-01: ``min <= default <= max``."""

    id: Id
    """The ability's id, as skills, references and ``with=`` name it (``str``, ``sinew``)."""
    label: Label
    """The ability's name (``Strength``, ``Sinew``)."""
    short: Short | None = None
    """A short name of up to 8 characters (``STR``); a check may name the ability by it."""
    min: int
    """The lowest score a character may have."""
    max: int
    """The highest score a character may have."""
    default: int
    """The score of a blank sheet, between ``min`` and ``max``."""
    section: Id | None = None
    """The section it is shown under."""

    @model_validator(mode="after")
    def _range(self) -> Ability:
        if not self.min <= self.default <= self.max:
            raise ValueError("an ability needs min <= default <= max")
        return self


class Skill(Strict):
    """SHEET-SKL-01: a skill or a save."""

    id: Id
    """The id a character's build and the Game Master's ``skill=`` name it by; a skill and a save
    never share one."""
    label: Label
    """The name players and the Game Master see (``Stealth``, ``Ward``)."""
    ability: Id | None = None
    """The ability whose modifier its number starts from; without one the skill stands alone."""
    cap: ValueRef | None = None
    """The most its number can ever come to, read with the live state (e.g. ``{"livePool":
    "resolve"}``)."""
    section: Id | None = None
    """The section it is shown under (its untrained rule applies when the skill has none)."""
    untrained: Untrained | None = None
    """What happens when it is rolled at the first (untrained) tier: ``normal``, ``harder`` (a
    pool's target one higher), ``refuse`` (not rolled) or ``{"by": N}``."""


class BonusRange(Strict):
    """SHEET-SKL-04: the range the editor allows for free bonuses."""

    min: int = Field(default=-20, ge=-100, le=100)
    """The lowest free bonus a skill or save may carry (-100 to 100; -20 by default)."""
    max: int = Field(default=40, ge=-100, le=100)
    """The highest free bonus (-100 to 100; 40 by default)."""

    @model_validator(mode="after")
    def _order(self) -> BonusRange:
        if self.min > self.max:
            raise ValueError("bonusRange needs min <= max")
        return self


class _DerivedBase(Strict):
    id: Id
    """The derived value's id, as ``{"derived": ...}`` references read it."""
    label: Label
    """The name players see."""
    section: Id | None = None
    """The section it is shown under."""
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")
    """Hides it from display while a field has a value; it is still worked out and read."""


class SumOf(_DerivedBase):
    """SHEET-DRV-03."""

    op: Literal["sum"]
    """``sum``: the total of the values in ``of``."""
    of: list[ValueRef] = Field(min_length=1, max_length=12)
    """The values added (1 to 12 references)."""


class MinMaxOf(_DerivedBase):
    """SHEET-DRV-04."""

    op: Literal["min", "max"]
    """``min`` or ``max``: the smallest or largest of the values in ``of``."""
    of: list[ValueRef] = Field(min_length=2, max_length=12)
    """The values compared (2 to 12 references)."""


class Scale(_DerivedBase):
    """SHEET-DRV-05."""

    op: Literal["scale"]
    """``scale``: one value times ``multiplier``, rounded."""
    of: ValueRef
    """The value scaled."""
    multiplier: float
    """What the value is multiplied by (any finite number)."""
    round: Literal["down", "up", "nearest"] = "down"
    """How the product is rounded: ``down`` (default), ``up`` or ``nearest``."""


class StepTable(_DerivedBase):
    """SHEET-DRV-06: strictly ascending thresholds."""

    op: Literal["stepTable"]
    """``stepTable``: one value looked up in ``table``."""
    from_: ValueRef = Field(alias="from")
    """The value looked up."""
    table: StepRows = Field(min_length=1, max_length=100)
    """Rows of ``[threshold, result]``, thresholds strictly ascending (1 to 100 rows): the value
    takes the result of the highest threshold at or below it."""

    @model_validator(mode="after")
    def _ascending(self) -> StepTable:
        if any(a[0] >= b[0] for a, b in zip(self.table, self.table[1:], strict=False)):
            raise ValueError("step table thresholds must be strictly ascending")
        return self


class EnumSource(Strict):
    """SHEET-DRV-07: exactly one of an enum field or a live state."""

    field: Id | None = None
    """An enum field of the sheet whose value is looked up."""
    live_state: Id | None = Field(default=None, alias="liveState")
    """A live state whose value is looked up."""

    @model_validator(mode="after")
    def _one(self) -> EnumSource:
        if (self.field is None) == (self.live_state is None):
            raise ValueError("enumTable 'from' names exactly one of field, liveState")
        return self


class EnumTable(_DerivedBase):
    """SHEET-DRV-07."""

    op: Literal["enumTable"]
    """``enumTable``: the number an enum field's or a live state's value maps to."""
    from_: EnumSource = Field(alias="from")
    """The enum field or live state read."""
    table: dict[str, float] = Field(min_length=1, max_length=40)
    """The number each value gives (1 to 40 entries)."""
    default: float = 0
    """The number for a value the table does not list (0 by default)."""


Derived = Annotated[SumOf | MinMaxOf | Scale | StepTable | EnumTable, Field(discriminator="op")]


class ListPools(Strict):
    """SHEET-LST-04: every row becomes a live pool."""

    name_column: Id = Field(alias="nameColumn")
    """The text column that names each row's pool."""
    max_column: Id = Field(alias="maxColumn")
    """The number column that holds each row's pool maximum."""
    recharge_column: Id | None = Field(default=None, alias="rechargeColumn")
    """The enum column saying when each row's pool recharges (rests can restore by it)."""


class SheetList(Strict):
    """SHEET-LST-01."""

    id: Id
    """The list's id, as a character's build and references name it."""
    label: Label
    """The list's name as players see it (``Charms``, ``Gear``)."""
    section: Id | None = None
    """The section it is shown under."""
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")
    """Hides the list (and its row pools) while a field has a value."""
    max_items: int = Field(alias="maxItems", ge=1, le=500)
    """The most rows a character's list may hold (1 to 500)."""
    columns: list[SheetField] = Field(min_length=1, max_length=12)
    """The list's columns (1 to 12), typed like sheet fields, plus ``required``."""
    pools: ListPools | None = None
    """Turns every row into a live pool (uses, charges)."""

    def column(self, column_id: str) -> SheetField | None:
        return next((c for c in self.columns if c.id == column_id), None)


class SheetBlock(Strict):
    """SHEET-FILE-01: the whole ``sheet`` block; lookups by id are cached on the frozen model."""

    version: int = Field(ge=1)
    """The sheet's version number, 1 or more; a character's build records the version it was made
    for."""
    sections: list[Section] = Field(default_factory=list, max_length=20)
    """Headings that group abilities, skills, saves, fields and lists (up to 20)."""
    abilities: list[Ability] = Field(default_factory=list, max_length=20)
    """The abilities every character has a score in (up to 20)."""
    skills: list[Skill] = Field(default_factory=list, max_length=120)
    """The skills (up to 120)."""
    saves: list[Skill] = Field(default_factory=list, max_length=40)
    """The saving throws (up to 40), shaped like skills."""
    skill_tiers: list[Id] | None = Field(default=None, alias="skillTiers", min_length=1,
                                         max_length=12)
    """The training tiers (``proficiencyTiers`` ids) a skill may be given; all of them when
    absent."""
    save_tiers: list[Id] | None = Field(default=None, alias="saveTiers", min_length=1,
                                        max_length=12)
    """The training tiers a save may be given; all of them when absent."""
    bonus_range: BonusRange = Field(default_factory=BonusRange, alias="bonusRange")
    """The range of the free bonus a skill or save may carry (-20 to 40 by default)."""
    fields: list[SheetField] = Field(default_factory=list, max_length=160)
    """Single values on the sheet: numbers, text, yes/no, enums and dice (up to 160)."""
    derived: list[Derived] = Field(default_factory=list, max_length=60)
    """Values worked out from the others, in declared order (up to 60)."""
    lists: list[SheetList] = Field(default_factory=list, max_length=20)
    """Lists of rows a character keeps: charms, gear, scars (up to 20)."""
    live: LiveBlock = Field(default_factory=LiveBlock)
    """What changes in play: pools, tracks, wounds, live text, conditions and states."""

    @cached_property
    def by_id(self) -> SheetIndex:
        """Every declared part by id, built once."""
        return SheetIndex(self)


class SheetIndex:
    """Dict lookups over a ``SheetBlock`` (first declaration wins; duplicates are refused)."""

    def __init__(self, sheet: SheetBlock) -> None:
        self.sections = {s.id: s for s in reversed(sheet.sections)}
        self.abilities = {a.id: a for a in reversed(sheet.abilities)}
        self.skills = {s.id: s for s in reversed(sheet.skills)}
        self.saves = {s.id: s for s in reversed(sheet.saves)}
        self.fields = {f.id: f for f in reversed(sheet.fields)}
        self.derived = {d.id: d for d in reversed(sheet.derived)}
        self.derived_order = {d.id: i for i, d in reversed(list(enumerate(sheet.derived)))}
        self.lists = {x.id: x for x in reversed(sheet.lists)}
        self.pools: dict[str, Pool] = {p.id: p for p in reversed(sheet.live.pools)}
        self.tracks: dict[str, Track] = {t.id: t for t in reversed(sheet.live.tracks)}
        self.states: dict[str, State] = {s.id: s for s in reversed(sheet.live.states)}
        self.conditions = {c.id: c for c in reversed(sheet.live.conditions)}
        self.text = {t.id: t for t in reversed(sheet.live.text)}

    def enum_field(self, field_id: str) -> EnumField | None:
        field = self.fields.get(field_id)
        return field if isinstance(field, EnumField) else None
