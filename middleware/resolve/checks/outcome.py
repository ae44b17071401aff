"""Outcome tiers for every check kind (CHK-OUT).

A kind works out its number (a summed total, net successes ...) and whether a rule forced the
result (a natural on a sum, a botch on a pool); ``judge`` turns that into the verdict: the tier, and
from the tier alone whether it succeeded and whether it was critical (CHK-OUT-09). Without tiers
the bare comparison decides and a forced result is a critical of its kind (CHK-SUM-03).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from middleware.resolve.checks.record import Critical
from middleware.rules.common import Outcomes as OutcomesBlock
from middleware.rules.common import OutcomeTier

Natural = Literal["max", "min"]
By = Literal["margin", "total"]


@dataclass(frozen=True, slots=True)
class Tier:
    """One outcome tier (CHK-OUT-04..07): number-read when ``on`` is None."""

    id: str
    label: str
    success: bool
    critical: bool = False
    at_least: float | None = None
    on: Literal["critical-success", "critical-failure"] | None = None
    text: str | None = None
    verdict: Verdict = field(init=False, repr=False, compare=False)
    """The verdict of a check that lands here (CHK-OUT-05/09), built with the tier: every check
    lands in one, and building its verdict cost as much as finding the tier."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "verdict", _from_tier(self))


@dataclass(frozen=True, slots=True)
class Outcomes:
    """``resolution.outcomes`` as plain values: what the tiers read, the shift rule, best first."""

    tiers: tuple[Tier, ...]
    by: By = "margin"
    shift: bool = False
    by_number: tuple[Tier, ...] = field(init=False, repr=False, compare=False)
    """The tiers read from the number; the ``on:`` tiers are only reached by criticals. Picked
    out once: an ``Outcomes`` is built once per ruleset, and every check reads them."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_number", tuple(t for t in self.tiers if t.on is None))

    def on_tier(self, critical: Critical) -> Tier | None:
        """The tier a critical of this kind lands in (CHK-OUT-07), if the ruleset names one."""
        wanted = f"critical-{critical}"
        return next((t for t in self.tiers if t.on == wanted), None)


class Verdict(NamedTuple):
    """What a check came to: success, the critical kind, and the tier it landed in.

    A named tuple, not a frozen dataclass: one is built per check."""

    success: bool
    critical: Critical | None = None
    tier: Tier | None = None

    @property
    def outcome(self) -> str | None:
        """CHK-OUT-13: the tier's label, the record's ``outcome=``."""
        return self.tier.label if self.tier else None


PASSED, FAILED = Verdict(success=True), Verdict(success=False)
"""The verdicts of a bare comparison (no tiers), built once: a ``Verdict`` is a value."""

CRITICAL: dict[Critical, Verdict] = {
    "success": Verdict(success=True, critical="success"),
    "failure": Verdict(success=False, critical="failure"),
}
"""A critical without tiers (CHK-SUM-03, CHK-POOL-12): a success or a failure of its kind."""


def judge(
    outcomes: Outcomes | None, *, total: float, needed: float,
    forced: Critical | None = None, natural: Natural | None = None,
) -> Verdict:
    """The verdict of a check whose ``total`` was read against ``needed`` (CHK-OUT-02..10).

    ``forced`` is a result a rule imposed whatever the number (CHK-OUT-10/11); ``natural`` is the
    single die's highest or lowest face, which only ``naturals: "shift"`` reads (CHK-OUT-08).
    """
    if outcomes is None:
        if forced is not None:
            return CRITICAL[forced]
        return PASSED if total >= needed else FAILED
    if forced is not None:
        return _forced(outcomes, forced)
    number = total - needed if outcomes.by == "margin" else total
    tier = land(outcomes.by_number, number)
    if outcomes.shift and natural is not None:
        tier = shift(outcomes.by_number, tier, up=natural == "max")
    return tier.verdict


def land(tiers: tuple[Tier, ...], number: float) -> Tier:
    """CHK-OUT-04: the first tier whose ``atLeast`` the number reaches; the last takes the rest."""
    for tier in tiers:
        if tier.at_least is None or number >= tier.at_least:
            return tier
    return tiers[-1]


def shift(tiers: tuple[Tier, ...], tier: Tier, *, up: bool) -> Tier:
    """CHK-OUT-08: one tier up (best first) or down, never past the best or the worst."""
    index = tiers.index(tier) + (-1 if up else 1)
    return tiers[min(max(index, 0), len(tiers) - 1)]


def _forced(outcomes: Outcomes, forced: Critical) -> Verdict:
    """CHK-OUT-10/11: the ``on`` tier of that critical, else the best or worst; still critical."""
    number_tiers = outcomes.by_number
    tier = outcomes.on_tier(forced)
    if tier is None:
        tier = number_tiers[0] if forced == "success" else number_tiers[-1]
    return Verdict(success=forced == "success", critical=forced, tier=tier)


def _from_tier(tier: Tier) -> Verdict:
    """CHK-OUT-05/09: success and the critical kind come from the tier, not the bare comparison."""
    critical: Critical | None = None
    if tier.critical:
        critical = "success" if tier.success else "failure"
    return Verdict(tier.success, critical, tier)  # positional, in field order: half the cost


def outcomes_from(model: OutcomesBlock | None) -> Outcomes | None:
    """Plain ``Outcomes`` from the ruleset's ``resolution.outcomes``, or None without one."""
    if model is None:
        return None
    tiers = tuple(_tier_from(t) for t in model.tiers)
    if not tiers:
        return None
    return Outcomes(tiers=tiers, by="total" if model.by == "total" else "margin",
                    shift=model.naturals == "shift")


def _tier_from(model: OutcomeTier) -> Tier:
    at_least = model.at_least
    return Tier(
        id=model.id, label=model.label, success=model.success, critical=model.critical,
        at_least=None if at_least is None else float(at_least), on=model.on, text=model.text,
    )
