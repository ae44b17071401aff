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


Untrained = Literal["normal", "harder", "refuse"] | UntrainedBy


class Section(Strict):
    """SHEET-SEC-01: a heading, with an untrained rule for the skills and saves in it."""

    id: Id
    label: Label
    untrained: Untrained | None = None


class Ability(Strict):
    """SHEET-ABL-01: ``min <= default <= max``."""

    id: Id
    label: Label
    short: Short | None = None
    min: int
    max: int
    default: int
    section: Id | None = None

    @model_validator(mode="after")
    def _range(self) -> Ability:
        if not self.min <= self.default <= self.max:
            raise ValueError("an ability needs min <= default <= max")
        return self


class Skill(Strict):
    """SHEET-SKL-01: a skill or a save."""

    id: Id
    label: Label
    ability: Id | None = None
    cap: ValueRef | None = None
    section: Id | None = None
    untrained: Untrained | None = None


class BonusRange(Strict):
    """SHEET-SKL-04: the range the editor allows for free bonuses."""

    min: int = Field(default=-20, ge=-100, le=100)
    max: int = Field(default=40, ge=-100, le=100)

    @model_validator(mode="after")
    def _order(self) -> BonusRange:
        if self.min > self.max:
            raise ValueError("bonusRange needs min <= max")
        return self


class _DerivedBase(Strict):
    id: Id
    label: Label
    section: Id | None = None
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")


class SumOf(_DerivedBase):
    """SHEET-DRV-03."""

    op: Literal["sum"]
    of: list[ValueRef] = Field(min_length=1, max_length=12)


class MinMaxOf(_DerivedBase):
    """SHEET-DRV-04."""

    op: Literal["min", "max"]
    of: list[ValueRef] = Field(min_length=2, max_length=12)


class Scale(_DerivedBase):
    """SHEET-DRV-05."""

    op: Literal["scale"]
    of: ValueRef
    multiplier: float
    round: Literal["down", "up", "nearest"] = "down"


class StepTable(_DerivedBase):
    """SHEET-DRV-06: strictly ascending thresholds."""

    op: Literal["stepTable"]
    from_: ValueRef = Field(alias="from")
    table: StepRows = Field(min_length=1, max_length=100)

    @model_validator(mode="after")
    def _ascending(self) -> StepTable:
        if any(a[0] >= b[0] for a, b in zip(self.table, self.table[1:], strict=False)):
            raise ValueError("step table thresholds must be strictly ascending")
        return self


class EnumSource(Strict):
    """SHEET-DRV-07: exactly one of an enum field or a live state."""

    field: Id | None = None
    live_state: Id | None = Field(default=None, alias="liveState")

    @model_validator(mode="after")
    def _one(self) -> EnumSource:
        if (self.field is None) == (self.live_state is None):
            raise ValueError("enumTable 'from' names exactly one of field, liveState")
        return self


class EnumTable(_DerivedBase):
    """SHEET-DRV-07."""

    op: Literal["enumTable"]
    from_: EnumSource = Field(alias="from")
    table: dict[str, float] = Field(min_length=1, max_length=40)
    default: float = 0


Derived = Annotated[SumOf | MinMaxOf | Scale | StepTable | EnumTable, Field(discriminator="op")]


class ListPools(Strict):
    """SHEET-LST-04: every row becomes a live pool."""

    name_column: Id = Field(alias="nameColumn")
    max_column: Id = Field(alias="maxColumn")
    recharge_column: Id | None = Field(default=None, alias="rechargeColumn")


class SheetList(Strict):
    """SHEET-LST-01."""

    id: Id
    label: Label
    section: Id | None = None
    hide_when: HideWhen | None = Field(default=None, alias="hideWhen")
    max_items: int = Field(alias="maxItems", ge=1, le=500)
    columns: list[SheetField] = Field(min_length=1, max_length=12)
    pools: ListPools | None = None

    def column(self, column_id: str) -> SheetField | None:
        return next((c for c in self.columns if c.id == column_id), None)


class SheetBlock(Strict):
    """SHEET-FILE-01: the whole ``sheet`` block; lookups by id are cached on the frozen model."""

    version: int = Field(ge=1)
    sections: list[Section] = Field(default_factory=list, max_length=20)
    abilities: list[Ability] = Field(default_factory=list, max_length=20)
    skills: list[Skill] = Field(default_factory=list, max_length=120)
    saves: list[Skill] = Field(default_factory=list, max_length=40)
    skill_tiers: list[Id] | None = Field(default=None, alias="skillTiers", min_length=1,
                                         max_length=12)
    save_tiers: list[Id] | None = Field(default=None, alias="saveTiers", min_length=1,
                                        max_length=12)
    bonus_range: BonusRange = Field(default_factory=BonusRange, alias="bonusRange")
    fields: list[SheetField] = Field(default_factory=list, max_length=160)
    derived: list[Derived] = Field(default_factory=list, max_length=60)
    lists: list[SheetList] = Field(default_factory=list, max_length=20)
    live: LiveBlock = Field(default_factory=LiveBlock)

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
