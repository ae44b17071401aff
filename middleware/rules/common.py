"""Resolution keys every check kind shares (CHK-COMMON, CHK-OUT, CHK-OVR, CHK-SPEND, SHEET-TIER).

Only shapes and ranges live here; rules that compare one key with another (tiers best first, a
spend pool that exists) are in ``rules/audit/resolution.py`` so every problem gets its own JSON path.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from middleware.rules.base import Id, Strict, label_problem
from middleware.rules.refs import ValueRef


def _valid_label(value: str) -> str:
    problem = label_problem(value)
    if problem is not None:
        raise ValueError(f"label {problem}")
    return value


Label = Annotated[str, AfterValidator(_valid_label)]
"""SHEET-FILE-04: 1 to 80 characters, one line, nothing that could break a prompt or a tag."""

Rounding = Literal["down", "up", "nearest"]


# --- abilityModifier (CHK-COMMON-02..04, SHEET-ABL-04) ---------------------------------------


class IdentityModifier(Strict):
    """CHK-COMMON-02: the modifier is the score itself."""

    op: Literal["identity"]


class FloorHalfMinusTen(Strict):
    """CHK-COMMON-03 / SPEC §10: floor((score - 10) / 2), the 5e rule."""

    op: Literal["floorHalfMinusTen"]


class StepTableModifier(Strict):
    """CHK-COMMON-04 / SHEET-ABL-04: ``[[score, number], ...]``, 1 to 100 rows, ascending scores."""

    op: Literal["stepTable"]
    table: tuple[tuple[int, int], ...] = Field(min_length=1, max_length=100)


AbilityModifier = Annotated[
    IdentityModifier | FloorHalfMinusTen | StepTableModifier, Field(discriminator="op")
]


# --- training tiers and the proficiency bonus (CHK-COMMON-05/06, SHEET-TIER) ------------------


class ProficiencyTier(Strict):
    """SHEET-TIER-01: worth round(multiplier x PB) + flat; the first tier is the untrained one."""

    id: Id
    label: Label
    multiplier: float = Field(default=0, ge=0, le=10)
    round: Rounding = "down"
    flat: int = Field(default=0, ge=-50, le=50)


class Proficiency(Strict):
    """CHK-COMMON-06 / SHEET-TIER-03: where the proficiency bonus comes from."""

    bonus: ValueRef


class AdjustEntry(Strict):
    """SHEET-ADJ-01: a number off the sheet added to checks, optionally only for some abilities."""

    value: ValueRef
    abilities: tuple[str, ...] | None = Field(default=None, min_length=1, max_length=12)


# --- difficulty ladders (CHK-COMMON-08, CHK-SUM-10, CHK-POOL-16, CHK-AGAINST-04) --------------


class DcRung(Strict):
    """A rung whose number is a ``dc`` (dice-sum, dice-highest, symbol-pool)."""

    label: Label
    dc: int = Field(ge=-1000, le=1000)


class AgainstRung(DcRung):
    """CHK-AGAINST-04: ``dc`` shifts the target; ``divide`` (2..10) divides the sheet number."""

    dc: int = Field(ge=-100, le=100)
    divide: int | None = Field(default=None, ge=2, le=10)


class PoolRung(Strict):
    """CHK-POOL-16: successes needed and, where the target is adjustable, a per-die target."""

    label: Label
    successes: int = Field(ge=1, le=400)
    target: int | None = None


Rung = DcRung | AgainstRung | PoolRung
"""Any ladder rung; ``isinstance`` tells which numbers it carries."""

LADDER_MAX = 40


# --- outcome tiers (CHK-OUT) --------------------------------------------------------------------


class OutcomeTier(Strict):
    """CHK-OUT-04..07: one degree of success, best first; ``on`` tiers catch criticals only."""

    id: Id
    label: Label
    at_least: int | float | None = Field(default=None, alias="atLeast")
    success: bool = False
    critical: bool = False
    on: Literal["critical-success", "critical-failure"] | None = None
    text: str | None = Field(default=None, max_length=200)


class Outcomes(Strict):
    """CHK-OUT-01..03, CHK-OUT-08: what the tiers read, and 2 to 8 tiers best first."""

    by: Literal["margin", "total", "fraction"] = "margin"
    naturals: Literal["shift", "none"] | None = None
    tiers: tuple[OutcomeTier, ...] = Field(min_length=2, max_length=8)


# --- free rerolls and spending (CHK-POOL-14, CHK-SPEND) -----------------------------------------


class RerollRule(Strict):
    """CHK-POOL-14 / CHK-SPEND-07: faces <= ``upTo`` thrown again, once or until above it."""

    up_to: int = Field(alias="upTo", ge=1, le=99)
    mode: Literal["once", "until"] = "once"


class NamedReroll(RerollRule):
    """CHK-POOL-14: a free re-roll the GM names on a check with ``reroll=``."""

    id: Id


PerCheck = Annotated[int, Field(ge=1, le=10)] | Literal["pool"] | ValueRef


class SpendEntry(Strict):
    """CHK-SPEND-02..08: a standing rule that turns points of a live pool into a better roll."""

    pool: str
    amount: int = Field(default=1, ge=1, le=100)
    successes: int | None = Field(default=None, ge=1, le=20)
    dice: int | None = Field(default=None, ge=1, le=20)
    reroll: RerollRule | None = None
    per_check: PerCheck | None = Field(default=None, alias="perCheck")


# --- overrides (CHK-OVR) ------------------------------------------------------------------------


class Override(Strict):
    """CHK-OVR-01..06: checks that roll with other resolution keys; ``set`` is checked at load."""

    id: Id | None = None
    label: Label | None = None
    text: str | None = Field(default=None, max_length=400)
    skills: tuple[str, ...] = ()
    saves: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    when: ValueRef | None = None
    set: dict[str, Any] = Field(default_factory=dict)


class ResolutionBase(Strict):
    """CHK-COMMON-01: the keys every kind shares, so switching kinds changes nothing else."""

    ability_modifier: AbilityModifier = Field(
        default_factory=lambda: IdentityModifier(op="identity"), alias="abilityModifier"
    )
    proficiency_tiers: tuple[ProficiencyTier, ...] = Field(
        alias="proficiencyTiers", min_length=1, max_length=12
    )
    proficiency: Proficiency | None = None
    adjust: tuple[AdjustEntry, ...] = Field(default=(), max_length=8)
    penalty_from: str | None = Field(default=None, alias="penaltyFrom")
    outcomes: Outcomes | None = None
    overrides: tuple[Override, ...] = Field(default=(), max_length=40)
    spend: tuple[SpendEntry, ...] = Field(default=(), max_length=4)
