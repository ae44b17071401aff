"""Import checks on ``resolution``: rules that compare one key with another (CHK-IMPORT).

Each check yields ``Problem``s with the JSON path of the offending key, so a refused file lists
every fault at once. Kind-specific rules are in ``checks_kinds.py``; this module holds the shared
ones (CHK-COMMON, CHK-OUT, CHK-SPEND, CHK-OVR, SHEET-TIER-04, SHEET-ABL-04, SHEET-IMPORT-18/21) and
the entry point ``check_resolution``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from middleware.errors import Problem
from middleware.rules.catalogs import Catalog, CharmCheck
from middleware.rules.common import Outcomes, OutcomeTier, StepTableModifier
from middleware.rules.kinds.dice_sum import DiceSum
from middleware.rules.kinds.roll_against import RollAgainst
from middleware.rules.overrides import check_overrides
from middleware.rules.problems import RESOLUTION as R
from middleware.rules.resolution import AnyResolution
from middleware.rules.ruleset import Ruleset


def check_resolution(ruleset: Ruleset) -> Iterator[Problem]:
    """Every CHK-IMPORT / SHEET-IMPORT problem of ``ruleset.resolution``, each with its path."""
    yield from check_block(ruleset.resolution, ruleset)
    yield from check_overrides(ruleset, check_block)
    yield from _charms(ruleset)


def check_block(res: AnyResolution, ruleset: Ruleset) -> Iterator[Problem]:
    """The checks of one resolution block (the file's own, or one an override produces)."""
    yield from _tiers(res)
    yield from _step_table(res)
    yield from _adjust(res, ruleset)
    yield from _penalty_from(res, ruleset)
    if res.outcomes is not None:
        yield from _outcomes(res.outcomes, res)
    yield from _spend(res, ruleset)
    yield from res.audit(ruleset.combat)  # CHK-IMPORT of the kind: rules/kinds/<kind>.py


# --- sheet math (SHEET-TIER, SHEET-ABL-04, SHEET-ADJ, SHEET-PEN) ------------------------------


def _tiers(res: AnyResolution) -> Iterator[Problem]:
    """SHEET-TIER-04 / SHEET-IMPORT-12 and SHEET-IMPORT-03 (tier ids unique)."""
    seen: set[str] = set()
    for i, tier in enumerate(res.proficiency_tiers):
        path = f"{R}.proficiencyTiers[{i}]"
        if tier.multiplier != 0 and res.proficiency is None:
            yield Problem(f"{path}.multiplier",
                          "a tier with a multiplier needs resolution.proficiency (SHEET-TIER-04)")
        if tier.id in seen:
            yield Problem(f"{path}.id", f"tier id {tier.id!r} is declared twice")
        seen.add(tier.id)


def _step_table(res: AnyResolution) -> Iterator[Problem]:
    """SHEET-ABL-04 / SHEET-DRV-06: step table thresholds strictly ascending."""
    modifier = res.ability_modifier
    if not isinstance(modifier, StepTableModifier):
        return
    for i in range(1, len(modifier.table)):
        if modifier.table[i][0] <= modifier.table[i - 1][0]:
            yield Problem(f"{R}.abilityModifier.table[{i}]",
                          "thresholds must be strictly ascending")


def _adjust(res: AnyResolution, ruleset: Ruleset) -> Iterator[Problem]:
    """SHEET-IMPORT-21: every ability an adjust entry names is declared on the sheet."""
    declared = {a.id for a in _sheet_list(ruleset, "abilities")}
    for i, entry in enumerate(res.adjust):
        for j, ability in enumerate(entry.abilities or ()):
            if ability not in declared:
                yield Problem(f"{R}.adjust[{i}].abilities[{j}]",
                              f"unknown ability {ability!r}")


def _penalty_from(res: AnyResolution, ruleset: Ruleset) -> Iterator[Problem]:
    """SHEET-IMPORT-18 / SHEET-PEN-02: ``penaltyFrom`` names a wound track (one with ``kinds``)."""
    if res.penalty_from is None:
        return
    tracks = {t.id: t for t in _live_list(ruleset, "tracks")}
    track = tracks.get(res.penalty_from)
    if track is None:
        yield Problem(f"{R}.penaltyFrom", f"unknown track {res.penalty_from!r}")
    elif not getattr(track, "kinds", None):
        yield Problem(f"{R}.penaltyFrom",
                      f"track {res.penalty_from!r} is a plain track, not a wound track")


# --- outcome tiers (CHK-OUT, CHK-IMPORT-30..35) -----------------------------------------------


def _outcomes(outcomes: Outcomes, res: AnyResolution) -> Iterator[Problem]:
    path = f"{R}.outcomes"
    yield from _tier_order(outcomes.tiers, path)
    yield from _on_tiers(outcomes.tiers, path)
    if not any(t.success for t in outcomes.tiers) or all(t.success for t in outcomes.tiers):
        yield Problem(f"{path}.tiers",
                      "tiers need at least one success and one failure (CHK-IMPORT-32)")
    yield from _fraction(outcomes, res, path)
    if outcomes.naturals == "shift":
        yield from _shift(res, path)


def _tier_order(tiers: tuple[OutcomeTier, ...], path: str) -> Iterator[Problem]:
    """CHK-IMPORT-31: number-read tiers best first; every one but the last has ``atLeast``."""
    numbered = [(i, t) for i, t in enumerate(tiers) if t.on is None]
    last_at: float | None = None
    for n, (i, tier) in enumerate(numbered):
        is_last = n == len(numbered) - 1
        if is_last and tier.at_least is not None:
            yield Problem(f"{path}.tiers[{i}].atLeast",
                          "the last tier catches everything below and has no atLeast")
        elif not is_last and tier.at_least is None:
            yield Problem(f"{path}.tiers[{i}]", "every tier but the last needs atLeast")
        elif tier.at_least is not None:
            if last_at is not None and tier.at_least >= last_at:
                yield Problem(f"{path}.tiers[{i}].atLeast",
                              "atLeast must be lower than the tier above (best first)")
            last_at = tier.at_least


def _on_tiers(tiers: tuple[OutcomeTier, ...], path: str) -> Iterator[Problem]:
    """CHK-IMPORT-34: ``on`` tiers have no atLeast, the right success, one per ``on`` value."""
    seen: set[str] = set()
    for i, tier in enumerate(tiers):
        if tier.on is None:
            continue
        where = f"{path}.tiers[{i}]"
        if tier.at_least is not None:
            yield Problem(f"{where}.atLeast", f"an on: {tier.on!r} tier has no atLeast")
        if tier.success != (tier.on == "critical-success"):
            want = "a success" if tier.on == "critical-success" else "not a success"
            yield Problem(f"{where}.success", f"an on: {tier.on!r} tier must be {want}")
        if tier.on in seen:
            yield Problem(f"{where}.on", f"only one tier may be on: {tier.on!r}")
        seen.add(tier.on)


def _fraction(outcomes: Outcomes, res: AnyResolution, path: str) -> Iterator[Problem]:
    """CHK-IMPORT-21 / CHK-AGAINST-10: ``by: fraction`` only on an at-most roll-against."""
    if outcomes.by != "fraction":
        return
    if not isinstance(res, RollAgainst) or res.against != "at-most":
        yield Problem(f"{path}.by", "by: 'fraction' needs a roll-against resolution read at-most")
        return
    for i, tier in enumerate(outcomes.tiers):
        if tier.at_least is not None and tier.at_least <= 0:
            yield Problem(f"{path}.tiers[{i}].atLeast", "a fraction tier divides by atLeast: > 0")


def _shift(res: AnyResolution, path: str) -> Iterator[Problem]:
    """CHK-IMPORT-35 / CHK-OUT-08: ``shift`` needs one die and resolution naturals none."""
    if not single_die(res):
        yield Problem(f"{path}.naturals", "naturals: 'shift' needs a single die")
    if isinstance(res, DiceSum) and {res.naturals_for("check"), res.naturals_for("save")} \
            != {"none"}:
        yield Problem(f"{R}.naturals",
                      "with outcomes.naturals 'shift', resolution.naturals must be none")


# --- spending (CHK-SPEND, CHK-IMPORT-40..44) --------------------------------------------------

_SPEND_BUYS = {"dice-pool": {"successes", "dice", "reroll"},
               "dice-highest": {"dice"}, "symbol-pool": {"dice"}}


def _spend(res: AnyResolution, ruleset: Ruleset) -> Iterator[Problem]:
    if not res.spend:
        return
    allowed = _SPEND_BUYS.get(res.kind)
    if allowed is None:
        yield Problem(f"{R}.spend", f"a {res.kind} ruleset may not declare spend (CHK-IMPORT-43)")
        return
    pools = {p.id: p for p in _live_list(ruleset, "pools")}
    named: set[str] = set()
    for i, entry in enumerate(res.spend):
        path = f"{R}.spend[{i}]"
        yield from _spend_pool(entry.pool, pools, named, path)
        named.add(entry.pool)
        buys = {k for k in ("successes", "dice", "reroll") if getattr(entry, k) is not None}
        if not buys:
            yield Problem(path, "a spend entry must buy successes, dice or reroll (CHK-IMPORT-41)")
        for key in sorted(buys - allowed):
            yield Problem(f"{path}.{key}", f"a {res.kind} spend may buy only dice (CHK-IMPORT-43)")
        if entry.reroll is not None:
            yield from _reroll_fits(entry.reroll.up_to, res, f"{path}.reroll.upTo")


def _spend_pool(pool: str, pools: dict[str, Any], named: set[str], path: str) \
        -> Iterator[Problem]:
    """CHK-IMPORT-40 / CHK-IMPORT-44: a declared pool that starts full, named once."""
    if pool not in pools:
        yield Problem(f"{path}.pool", f"unknown live pool {pool!r}")
    elif getattr(pools[pool], "start", "full") == "empty":
        yield Problem(f"{path}.pool", f"pool {pool!r} starts empty; nothing could be spent")
    if pool in named:
        yield Problem(f"{path}.pool", f"two spend entries name pool {pool!r}")


def _reroll_fits(up_to: int, res: AnyResolution, path: str) -> Iterator[Problem]:
    """CHK-IMPORT-09/42: a re-roll's ``upTo`` runs 1..sides-1."""
    sides = getattr(getattr(res, "die", None), "sides", None)
    if sides is not None and up_to > sides - 1:
        yield Problem(path, f"upTo must be below the die's {sides} sides")


# --- catalog charms (CHK-IMPORT-45..47) -------------------------------------------------------


def _charms(ruleset: Ruleset) -> Iterator[Problem]:
    """CHK-IMPORT-45..47: ``mechanics.check`` only in a dice-pool ruleset, and never empty."""
    res = ruleset.resolution
    for path, check in _charm_checks(ruleset.catalogs):
        if res.kind != "dice-pool":
            yield Problem(path, f"a {res.kind} ruleset cannot apply mechanics.check "
                                "(CHK-IMPORT-47)")
            continue
        if not check.changes_roll:
            yield Problem(path, "mechanics.check must change the roll (CHK-IMPORT-45)")
            continue
        if check.reroll is not None:
            yield from _reroll_fits(check.reroll.up_to, res, f"{path}.reroll.upTo")


def _charm_checks(catalogs: Iterable[Catalog]) -> Iterator[tuple[str, CharmCheck]]:
    for i, catalog in enumerate(catalogs):
        for j, entry in enumerate(catalog.entries):
            if entry.mechanics is not None and entry.mechanics.check is not None:
                yield f"$.catalogs[{i}].entries[{j}].mechanics.check", entry.mechanics.check


# --- reading the sheet defensively ------------------------------------------------------------


def _sheet_list(ruleset: Ruleset, name: str) -> list[Any]:
    return list(getattr(ruleset.sheet, name, None) or [])


def _live_list(ruleset: Ruleset, name: str) -> list[Any]:
    return list(getattr(getattr(ruleset.sheet, "live", None), name, None) or [])


def single_die(res: Any) -> bool:
    """Whether the kind throws exactly one die (naturals, openEnded, unmodified, tens need it)."""
    dice = getattr(res, "dice", None)
    return isinstance(res, DiceSum | RollAgainst) and dice is not None and dice.count == 1
