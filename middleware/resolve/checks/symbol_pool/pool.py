"""Building a symbol pool: the roller's dice, the opposing dice, boost and setback (CHK-SYM-05..13, 17).

``SymbolAsk`` holds one check as plain values after the sheet, the tag and any spend were read;
``build_pool`` turns it into ``BuiltPool``: how many of each die, and what was really applied (the
signed bonus after its caps, independent setback dice, own upgrades). The order of the steps is
the page's: the sheet's pool (larger-upgraded or sum) within ``pool.max``; dice bought by spending;
then ``upgradeOwn`` (CHK-SYM-12); the opposing dice from ``dc`` with ``upgrade=`` (CHK-SYM-08/09);
the signed bonus into boost or setback, then ``setback=`` into what the setback cap leaves
(CHK-SYM-10/11, checks.md Ambiguity 16).

Dice are thrown in this order, which the record's ``rolls=`` and ``thrown=`` keep: upgraded own
dice, own base dice, boost, upgraded opposing dice, opposing dice, setback.
"""

from __future__ import annotations

from dataclasses import dataclass

from middleware.resolve.checks.symbol_pool.roll import Side
from middleware.rules.kinds.symbol_pool import SymbolPool

__all__ = ["BuiltPool", "SymbolAsk", "build_pool", "opposing_dice", "own_dice"]


@dataclass(frozen=True, slots=True)
class SymbolAsk:
    """One symbol-pool check before the pool is built.

    ``ability`` and ``rank`` come from the sheet (CHK-SYM-06); ``signed`` is every signed
    adjustment combined: sheet, wounds, effects and the tag's ``bonus=`` (CHK-SYM-07/10); ``dc``
    the opposing dice asked for; ``upgrade``, ``setback`` and ``upgrade_own`` the tag's numbers
    (negative ones are ignored); ``bought`` the base dice bought by spending (CHK-SYM-17).
    """

    ability: int
    rank: int
    dc: int
    signed: int = 0
    upgrade: int = 0
    setback: int = 0
    upgrade_own: int = 0
    bought: int = 0


@dataclass(frozen=True, slots=True)
class BuiltPool:
    """How many of each die one check throws, and what the limits let through."""

    upgraded: int = 0
    base: int = 0
    boost: int = 0
    challenge: int = 0
    difficulty: int = 0
    setback: int = 0
    bonus: int = 0
    setback_added: int = 0
    upgrades_applied: int = 0
    bought: int = 0

    @property
    def dc(self) -> int:
        """The record's ``dc``: the number of opposing dice actually thrown."""
        return self.challenge + self.difficulty

    def plan(self, resolution: SymbolPool) -> tuple[tuple[str, int, Side], ...]:
        """(die id, count, side) in throw order, leaving out dice thrown zero times."""
        res = resolution
        rows: list[tuple[str | None, int, Side]] = [
            (res.pool.upgrade, self.upgraded, "roller"), (res.pool.die, self.base, "roller"),
            (res.boost.die if res.boost else None, self.boost, "roller"),
            (res.difficulty.upgrade, self.challenge, "opposing"),
            (res.difficulty.die, self.difficulty, "opposing"),
            (res.setback.die if res.setback else None, self.setback, "opposing"),
        ]
        return tuple((die, n, side) for die, n, side in rows if die is not None and n > 0)

    def label(self, resolution: SymbolPool) -> str:
        """The record's ``dice=``, in the form a roll by name reads (``2 ability vs 1 difficulty``)."""
        sides: dict[Side, list[str]] = {"roller": [], "opposing": []}
        for die, n, side in self.plan(resolution):
            sides[side].append(f"{n} {die}")
        own, against = " ".join(sides["roller"]), " ".join(sides["opposing"])
        return f"{own or 'none'} vs {against}" if against else own or "none"


def build_pool(resolution: SymbolPool, ask: SymbolAsk) -> BuiltPool:
    """CHK-SYM-05..13, 17: the whole pool of one check."""
    upgraded, base, bought, applied = own_dice(resolution, ask)
    challenge, difficulty = opposing_dice(resolution, ask.dc, ask.upgrade)
    boost, from_bonus, added = _boost_and_setback(resolution, ask.signed, ask.setback)
    return BuiltPool(
        upgraded=upgraded, base=base, boost=boost, challenge=challenge, difficulty=difficulty,
        setback=from_bonus + added, bonus=boost - from_bonus, setback_added=added,
        upgrades_applied=applied, bought=bought,
    )


def own_dice(resolution: SymbolPool, ask: SymbolAsk) -> tuple[int, int, int, int]:
    """(upgraded, base, bought, upgradeOwn applied) of the roller (CHK-SYM-05/06/12/17).

    ``larger-upgraded`` throws max(ability, rank) dice and upgrades min(ability, rank) of them
    when ``pool.upgrade`` exists; ``sum`` throws ability + rank and upgrades none; both within
    ``pool.max``. Bought dice are base dice within ``pool.max``. Each own upgrade turns a base
    die into an upgraded one, or, when none is left, adds an upgraded die within ``pool.max``.
    """
    pool, limit = resolution.pool, resolution.pool.max
    ability, rank = max(ask.ability, 0), max(ask.rank, 0)
    if pool.build == "sum":
        count, upgraded = ability + rank, 0
    else:
        count = max(ability, rank)
        upgraded = min(ability, rank) if pool.upgrade else 0
    count = min(count, limit)
    upgraded = min(upgraded, count)
    bought = min(max(ask.bought, 0), limit - count)
    count += bought
    applied = 0
    if resolution.allow_own_upgrade and pool.upgrade:
        for _ in range(max(ask.upgrade_own, 0)):
            if upgraded == count and count == limit:
                break
            count += 1 if upgraded == count else 0
            upgraded += 1
            applied += 1
    return upgraded, count - upgraded, bought, applied


def opposing_dice(resolution: SymbolPool, dc: int, upgrade: int) -> tuple[int, int]:
    """(upgraded, plain) opposing dice (CHK-SYM-08/09): ``dc`` held to 0..``difficulty.max``;
    ``upgrade=`` replaces that many of them, never adding any."""
    count = min(max(dc, 0), resolution.difficulty.max)
    upgraded = min(max(upgrade, 0), count) if resolution.difficulty.upgrade else 0
    return upgraded, count - upgraded


def _boost_and_setback(resolution: SymbolPool, signed: int, setback: int) -> tuple[int, int, int]:
    """(boost, setback from the bonus, independent setback added) (CHK-SYM-10/11).

    The signed bonus fills its side up to that side's ``max``; ``setback=`` then fills what the
    setback cap leaves (checks.md Ambiguity 16). A side the ruleset does not declare adds nothing.
    """
    boost = min(max(signed, 0), resolution.boost.max) if resolution.boost else 0
    if resolution.setback is None:
        return boost, 0, 0
    from_bonus = min(max(-signed, 0), resolution.setback.max)
    added = min(max(setback, 0), resolution.setback.max - from_bonus)
    return boost, from_bonus, added
