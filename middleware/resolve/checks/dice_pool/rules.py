"""The ``dice-pool`` arithmetic: throw a handful of dice and count them (CHK-POOL-01..19, CHK-OUT-11).

``PoolCheck`` holds one check as plain values, after the ruleset, the sheet, the tag, the spend and
the used entry were read into it (``pool.py``); ``roll_pool`` throws it through the one ``Dice``
seam. The exact odds (``odds_pool.py``) read the same ``PoolCheck``.

The order of a throw (checks.md §3, §10, Ambiguity 5):

1. ``dice`` dice are thrown (the count is already clamped to ``pool.min..pool.max``);
2. the one re-roll (CHK-POOL-14/15): every starting die showing ≤ ``up_to`` is thrown again, in
   order, ``once`` or ``until`` it shows more (at most ``MAX_REROLLS`` re-throws in the check);
3. explosions (CHK-POOL-07): each die, in order, showing ≥ ``explode`` throws one more die, which
   may explode in its turn; at most ``explode_cap`` extra dice in all;
4. counting: a die that reaches ``target`` is one success, two from ``double`` (CHK-POOL-06); in a
   stance the dice below / above the target count instead (CHK-POOL-18); a die showing exactly the
   target is ``exact`` and counts one success unless ``exact_counts`` is False (CHK-POOL-19);
5. cancelling (CHK-POOL-09): each face ≤ ``cancel`` removes one success, never below zero;
6. the successes nobody rolled (``auto``: spend and entry, CHK-SPEND-05, CHK-CHARM-04) are added;
7. the botch (CHK-POOL-10/11) reads the dice: no die succeeded and a face ≤ ``botch`` came up, or,
   with ``halfOrMore``, such faces on at least half the starting dice. Our reading: a success
   bought with ``auto`` also averts the botch (nobody rolled it, but the check did not come up
   empty), as a Willpower success does in the systems this rule comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, NamedTuple

from middleware.dice import Dice
from middleware.resolve.checks.outcome import CRITICAL, Outcomes, Verdict, judge

Count = Literal["reach", "below", "above"]
RerollMode = Literal["once", "until"]
BotchRule = Literal["noSuccesses", "halfOrMore"]

MAX_REROLLS = 100
"""CHK-POOL-14, CHK-CHARM-02: one check re-throws at most 100 dice, whatever the file says."""


@dataclass(frozen=True, slots=True)
class Reroll:
    """One re-roll (CHK-POOL-14, CHK-SPEND-07, CHK-CHARM-02): faces ≤ ``up_to`` thrown again.

    ``id`` names a free ``resolution.reroll`` entry (the record's ``reroll=``); None when a spend
    or an entry bought it.
    """

    up_to: int
    mode: RerollMode = "once"
    id: str | None = None

    def beats(self, other: Reroll) -> bool:
        """CHK-POOL-15: the re-roll that reaches more faces is rolled; on a tie ``until`` wins."""
        if self.up_to != other.up_to:
            return self.up_to > other.up_to
        return self.mode == "until" and other.mode == "once"


@dataclass(frozen=True, slots=True)
class PoolCheck:
    """One dice-pool check as plain values: everything its roll and its odds depend on.

    ``dice`` is the starting pool after every limit (0 fails without a throw, CHK-POOL-03);
    ``needed`` the successes needed (the record's ``dc``); ``target`` the per-die target.
    ``explode``/``double``/``cancel``/``botch`` are faces, None when the rule is off for this
    check (a stance turns all four off, CHK-POOL-18); ``explode_cap`` bounds the extra dice
    (``pool.max``, CHK-POOL-07). ``exceptional`` is None when tiers decide (CHK-OUT-11).
    ``exact_counts`` is None without an ``exact`` rule. ``auto`` are the successes added after
    counting (CHK-SPEND-05, CHK-CHARM-04).
    """

    sides: int
    dice: int
    target: int
    needed: int = 1
    explode: int | None = None
    explode_cap: int = 0
    double: int | None = None
    cancel: int | None = None
    botch: int | None = None
    botch_rule: BotchRule = "noSuccesses"
    exceptional: int | None = None
    reroll: Reroll | None = None
    auto: int = 0
    count: Count = "reach"
    exact_counts: bool | None = None


class PoolRoll(NamedTuple):
    """What a pool throw came to (SPEC §6 ``rolls``/``total``, CHK-REC).

    ``rolls`` is every face thrown in order (starting dice, re-throws, explosion dice); ``faces``
    the faces that counted (the starting dice after the re-roll, then the explosion dice).
    ``net`` is the record's ``total``: successes after cancelling, plus ``auto``. A named tuple,
    not a frozen dataclass, for the reason ``dice_sum.SumRoll`` gives (issue 3).
    """

    rolls: tuple[int, ...]
    faces: tuple[int, ...]
    successes: int
    net: int
    botch: bool = False
    complication: bool = False
    exact: int = 0
    rerolled: int = 0
    exploded: int = 0


def roll_pool(check: PoolCheck, dice: Dice) -> PoolRoll:
    """Throw a pool check in the order the module docstring gives (CHK-POOL-06..19)."""
    start = dice.throw_many(check.dice, check.sides)
    kept, rethrown = _reroll(check, start, dice)
    extra = _explode(check, kept, dice)
    rolls, faces = (*start, *rethrown, *extra), (*kept, *extra)
    successes, cancelled = count_faces(check, faces)
    net = max(successes - cancelled, 0) + check.auto
    botch, complication = _botch(check, kept, faces, successes)
    exact = exact_count(check, faces)
    rerolled, exploded = len(rethrown) if check.reroll is not None else 0, len(extra)
    # positional, in field order: by keyword the call costs twice as much (issue 3)
    return PoolRoll(rolls, faces, successes, net, botch, complication, exact, rerolled, exploded)


def die_successes(check: PoolCheck, face: int) -> int:
    """CHK-POOL-05/06/18/19: what one die counts: 0, 1 or 2."""
    if face == check.target and check.exact_counts is not None:
        return 1 if check.exact_counts else 0
    if check.count == "below":
        return 1 if face < check.target else 0
    if check.count == "above":
        return 1 if face > check.target else 0
    if face < check.target:
        return 0
    return 2 if check.double is not None and face >= check.double else 1


class FaceTable(NamedTuple):
    """Per face of a check's die (index 0 unused): what it counts and whether it cancels one."""

    successes: tuple[int, ...]
    cancels: tuple[int, ...]


@lru_cache(maxsize=256)
def face_table(check: PoolCheck) -> FaceTable:
    """The ``FaceTable`` of ``check``, worked out once per check: counting a throw is then a
    look-up per die, not the rules per die."""
    faces = range(1, check.sides + 1)
    return FaceTable(
        successes=(0, *(die_successes(check, face) for face in faces)),
        cancels=(0, *(int(check.cancel is not None and face <= check.cancel) for face in faces)),
    )


def count_faces(check: PoolCheck, faces: tuple[int, ...]) -> tuple[int, int]:
    """CHK-POOL-05/06/09/18/19: the successes ``faces`` count and how many of them cancel one,
    in one pass over the dice."""
    successes_of, cancels_of = face_table(check)
    successes = cancelled = 0
    for face in faces:
        successes += successes_of[face]
        cancelled += cancels_of[face]
    return successes, cancelled


def exact_count(check: PoolCheck, faces: tuple[int, ...]) -> int:
    """CHK-POOL-19 / CHK-REC-07: how many dice showed exactly the target (0 without the rule)."""
    if check.exact_counts is None:
        return 0
    return faces.count(check.target)


def _reroll(check: PoolCheck, start: list[int], dice: Dice) -> tuple[list[int], list[int]]:
    """CHK-POOL-14: the starting faces after the one re-roll, and every re-thrown face in order."""
    rule = check.reroll
    if rule is None:
        return start, []
    kept: list[int] = []
    rethrown: list[int] = []
    for face in start:
        while face <= rule.up_to and len(rethrown) < MAX_REROLLS:
            face = dice.throw(check.sides)
            rethrown.append(face)
            if rule.mode == "once":
                break
        kept.append(face)
    return kept, rethrown


def _explode(check: PoolCheck, kept: list[int], dice: Dice) -> list[int]:
    """CHK-POOL-07: each die ≥ ``explode`` throws one more, chained; at most ``explode_cap``."""
    explode = check.explode
    if explode is None:
        return []
    extra: list[int] = []
    for face in kept:
        while face >= explode and len(extra) < check.explode_cap:
            face = dice.throw(check.sides)
            extra.append(face)
    return extra


def _botch(check: PoolCheck, kept: list[int], faces: tuple[int, ...],
           successes: int) -> tuple[bool, bool]:
    """CHK-POOL-10/11: (botch, complication) from the dice; ``halfOrMore`` reads the start only."""
    if check.botch is None:
        return False, False
    empty = successes == 0 and check.auto == 0
    if check.botch_rule == "noSuccesses":
        return empty and any(face <= check.botch for face in faces), False
    low = sum(1 for face in kept if face <= check.botch)
    half = low > 0 and 2 * low >= len(kept)
    return (half and empty), (half and not empty)


def pool_verdict(check: PoolCheck, roll: PoolRoll, outcomes: Outcomes | None) -> Verdict:
    """CHK-OUT-02/11, CHK-POOL-10/12: tiers read the net successes; a botch lands in the
    critical-failure tier (else the worst); without tiers ``exceptional`` net successes on a
    passed check are a critical success."""
    verdict = judge(outcomes, total=roll.net, needed=check.needed,
                    forced="failure" if roll.botch else None)
    if outcomes is None and verdict.success and check.exceptional is not None \
            and roll.net >= check.exceptional:
        return CRITICAL["success"]
    return verdict
