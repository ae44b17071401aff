"""Resolution keys every check kind shares (CHK-COMMON, CHK-OUT, CHK-OVR, CHK-SPEND, SHEET-TIER).

Only shapes and ranges live here; rules that compare one key with another (tiers best first, a
spend pool that exists) are in ``rules/audit/resolution.py`` so every problem gets its own JSON path.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, JsonValue

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
    """``identity``: the ability's number is its score itself."""


class FloorHalfMinusTen(Strict):
    """CHK-COMMON-03 / SPEC §10: floor((score - 10) / 2), the 5e rule."""

    op: Literal["floorHalfMinusTen"]
    """``floorHalfMinusTen``: the 5e rule, floor((score - 10) / 2), so 15 gives +2 and 8 gives
    -1."""


class StepTableModifier(Strict):
    """CHK-COMMON-04 / SHEET-ABL-04: ``[[score, number], ...]``, 1 to 100 rows, ascending scores."""

    op: Literal["stepTable"]
    """``stepTable``: the number is read from ``table``."""
    table: tuple[tuple[int, int], ...] = Field(min_length=1, max_length=100)
    """Rows of ``[score, number]``, scores ascending (1 to 100 rows): a score takes the number of
    the highest row at or below it."""


AbilityModifier = Annotated[
    IdentityModifier | FloorHalfMinusTen | StepTableModifier, Field(discriminator="op")
]


# --- training tiers and the proficiency bonus (CHK-COMMON-05/06, SHEET-TIER) ------------------


class ProficiencyTier(Strict):
    """SHEET-TIER-01: worth round(multiplier x PB) + flat; the first tier is the untrained one."""

    id: Id
    """The tier's id, as a character's sheet names it for a skill or save (``trained``,
    ``rating_2``)."""
    label: Label
    """The tier's name as players see it (``Trained``, ``Shown once``)."""
    multiplier: float = Field(default=0, ge=0, le=10)
    """How many times the proficiency bonus this tier adds (0 to 10; 0 by default)."""
    round: Rounding = "down"
    """How ``multiplier`` x the proficiency bonus is rounded: ``down`` (default), ``up`` or
    ``nearest``."""
    flat: int = Field(default=0, ge=-50, le=50)
    """A fixed number the tier adds (-50 to 50; 0 by default)."""


class Proficiency(Strict):
    """CHK-COMMON-06 / SHEET-TIER-03: where the proficiency bonus comes from."""

    bonus: ValueRef
    """Where the proficiency bonus is read on the sheet, e.g. ``{"derived": "proficiency_bonus"}``;
    needed when a tier has a ``multiplier``."""


class AdjustEntry(Strict):
    """SHEET-ADJ-01: a number off the sheet added to checks, optionally only for some abilities."""

    value: ValueRef
    """The sheet value added to every check (a field, a derived value, a live track's
    penalty...)."""
    abilities: tuple[str, ...] | None = Field(default=None, min_length=1, max_length=12)
    """Only checks rolled with these abilities get it (ability ids); every check when absent."""


# --- difficulty ladders (CHK-COMMON-08, CHK-SUM-10, CHK-POOL-16, CHK-AGAINST-04) --------------


class DcRung(Strict):
    """A rung whose number is a ``dc`` (dice-sum, dice-highest, symbol-pool)."""

    label: Label
    """The rung's name, which the Game Master writes as ``difficulty="..."``."""
    dc: int = Field(ge=-1000, le=1000)
    """The number a check on this rung must reach: a total (dice-sum), the kept dice (dice-highest)
    or the opposing dice (symbol-pool)."""


class AgainstRung(DcRung):
    """CHK-AGAINST-04: ``dc`` shifts the target; ``divide`` (2..10) divides the sheet number."""

    dc: int = Field(ge=-100, le=100)
    """How far the rung shifts the target (-100 to 100); 0 keeps the sheet number."""
    divide: int | None = Field(default=None, ge=2, le=10)
    """The sheet number is first divided by this (2 to 10): Call of Cthulhu's hard (2) and extreme
    (5) successes."""


class PoolRung(Strict):
    """CHK-POOL-16: successes needed and, where the target is adjustable, a per-die target."""

    label: Label
    """The rung's name, which the Game Master writes as ``difficulty="..."``."""
    successes: int = Field(ge=1, le=400)
    """How many successes a check on this rung needs (1 to 400)."""
    target: int | None = None
    """The per-die target on this rung, where the ruleset's target is adjustable; within
    ``target.min`` to ``target.max``."""


Rung = DcRung | AgainstRung | PoolRung
"""Any ladder rung; ``isinstance`` tells which numbers it carries."""

LADDER_MAX = 40


# --- outcome tiers (CHK-OUT) --------------------------------------------------------------------


class OutcomeTier(Strict):
    """CHK-OUT-04..07: one degree of success, best first; ``on`` tiers catch criticals only."""

    id: Id
    """The tier's id."""
    label: Label
    """The tier's name, which the record carries as ``outcome="..."`` and the card shows."""
    at_least: int | float | None = Field(default=None, alias="atLeast")
    """The lowest number (margin, total or fraction, as ``by`` says) that lands in this tier; the
    last tier has none and catches the rest."""
    success: bool = False
    """Whether landing in this tier counts as a success."""
    critical: bool = False
    """Whether this tier is a critical: a critical success when ``success`` is true, a critical
    failure otherwise."""
    on: Literal["critical-success", "critical-failure"] | None = None
    """``critical-success`` or ``critical-failure``: the tier every such critical lands in,
    whatever the number (no ``atLeast``)."""
    text: str | None = Field(default=None, max_length=200)
    """What the tier means at the table, told to the Game Master (up to 200 characters)."""


class Outcomes(Strict):
    """CHK-OUT-01..03, CHK-OUT-08: what the tiers read, and 2 to 8 tiers best first."""

    by: Literal["margin", "total", "fraction"] = "margin"
    """What the tiers read: ``margin`` (how far the result beat what was needed; default),
    ``total`` (the result itself) or ``fraction`` (roll-against, at-most: the target divided by
    each ``atLeast``)."""
    naturals: Literal["shift", "none"] | None = None
    """``shift``: a single die's highest face moves the result one tier up and its lowest face one
    tier down."""
    tiers: tuple[OutcomeTier, ...] = Field(min_length=2, max_length=8)
    """The degrees of success, best first (2 to 8); at least one succeeds and one fails."""


# --- free rerolls and spending (CHK-POOL-14, CHK-SPEND) -----------------------------------------


class RerollRule(Strict):
    """CHK-POOL-14 / CHK-SPEND-07: faces <= ``upTo`` thrown again, once or until above it."""

    up_to: int = Field(alias="upTo", ge=1, le=99)
    """Dice showing this face or lower are thrown again (below the die's highest face)."""
    mode: Literal["once", "until"] = "once"
    """``once``: each such die is thrown once more and the new face kept; ``until``: thrown again
    until it shows more than ``upTo``."""


class NamedReroll(RerollRule):
    """CHK-POOL-14: a free re-roll the GM names on a check with ``reroll=``."""

    id: Id
    """The name the Game Master writes as ``reroll="..."`` to ask for this free re-roll."""


PerCheck = Annotated[int, Field(ge=1, le=10)] | Literal["pool"] | ValueRef


class SpendEntry(Strict):
    """CHK-SPEND-02..08: a standing rule that turns points of a live pool into a better roll."""

    pool: str
    """The live pool the points come from (one of ``sheet.live.pools``, not one that starts
    empty)."""
    amount: int = Field(default=1, ge=1, le=100)
    """The points one purchase costs (1 to 100; 1 by default)."""
    successes: int | None = Field(default=None, ge=1, le=20)
    """Successes one purchase adds after the dice are counted (dice-pool only)."""
    dice: int | None = Field(default=None, ge=1, le=20)
    """Dice one purchase adds to the throw, within the pool's limits."""
    reroll: RerollRule | None = None
    """A re-roll the spending buys (dice-pool only); bought once however many purchases are
    made."""
    per_check: PerCheck | None = Field(default=None, alias="perCheck")
    """The most purchases one check may make: a number 1 to 10, a sheet value, or ``pool`` (as many
    as the check's dice)."""


# --- overrides (CHK-OVR) ------------------------------------------------------------------------


class Override(Strict):
    """CHK-OVR-01..06: checks that roll with other resolution keys; ``set`` is checked at load."""

    id: Id | None = None
    """The override's id."""
    label: Label | None = None
    """The override's name, e.g. ``Thief skills``."""
    text: str | None = Field(default=None, max_length=400)
    """A line telling the Game Master what is different about these checks (up to 400
    characters)."""
    skills: tuple[str, ...] = ()
    """Skills (ids) that roll with this override."""
    saves: tuple[str, ...] = ()
    """Saves (ids) that roll with this override."""
    abilities: tuple[str, ...] = ()
    """Ability checks (ability ids) that roll with this override."""
    when: ValueRef | None = None
    """A sheet value of the roller; the override applies only while it is not 0. Always applies
    when absent."""
    set: dict[str, JsonValue] = Field(default_factory=dict)
    """Resolution keys of the ruleset's own kind that replace the ruleset's for these checks;
    ``null`` removes a key. The kind, the sheet math and the difficulty ladder cannot be
    changed."""


class ResolutionBase(Strict):
    """CHK-COMMON-01: the keys every kind shares, so switching kinds changes nothing else."""

    ability_modifier: AbilityModifier = Field(
        default_factory=lambda: IdentityModifier(op="identity"), alias="abilityModifier"
    )
    """How an ability score becomes the number a check uses: ``identity`` (default),
    ``floorHalfMinusTen`` or ``stepTable``."""
    proficiency_tiers: tuple[ProficiencyTier, ...] = Field(
        alias="proficiencyTiers", min_length=1, max_length=12
    )
    """The training levels of a skill or save (1 to 12); the first is used for any skill or save
    the sheet does not list."""
    proficiency: Proficiency | None = None
    """Where the proficiency bonus comes from; needed when a tier has a ``multiplier``."""
    adjust: tuple[AdjustEntry, ...] = Field(default=(), max_length=8)
    """Sheet values added to every check (up to 8), optionally only for some abilities."""
    penalty_from: str | None = Field(default=None, alias="penaltyFrom")
    """The live track or wound whose penalty is added to every check."""
    outcomes: Outcomes | None = None
    """Outcome tiers: the degrees of success a check can land in, and what the record and the Game
    Master are told."""
    overrides: tuple[Override, ...] = Field(default=(), max_length=40)
    """Checks that roll with other resolution keys than the rest (up to 40); the first that applies
    is used."""
    spend: tuple[SpendEntry, ...] = Field(default=(), max_length=4)
    """Standing rules for spending points of a live pool on a better roll (up to 4, one per
    pool)."""
