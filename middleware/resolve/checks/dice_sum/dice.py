"""The ``dice-sum`` kind: add the dice and the sheet number, compare with a difficulty (CHK-SUM).

The arithmetic takes plain values (``SumDice``, ``SumCheck``) so it can be tested and its exact
odds computed (``odds.py``) without a ruleset; ``sum_dice_from`` reads the ruleset's resolution
model into them. Every die goes through the one ``Dice`` seam (SPEC §5): the check's dice first
(both throws on advantage), then the effect dice of conditions and items, in that order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple

from middleware.cache import per_ruleset
from middleware.dice import Dice
from middleware.resolve.checks.outcome import Natural, Outcomes, outcomes_from
from middleware.resolve.checks.record import Critical, Mode
from middleware.rules.kinds.dice_sum import DiceSum

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset

Naturals = Literal["none", "both", "max-only", "min-only"]

MAX_OPEN_DICE = 20
"""CHK-SUM-07: one open-ended roll throws at most 20 dice."""

MAX_EFFECT_DICE = 20
"""Our cap on one effect's dice (``"99d4"`` from an item must not stall a reply; SPEC §8)."""


@dataclass(frozen=True, slots=True)
class SumDice:
    """``resolution.dice`` with ``openEnded`` (CHK-SUM-01/05/06): what one throw of the check is."""

    count: int
    sides: int
    faces: tuple[int, ...] | None = None
    open_high: int | None = None
    open_low: int | None = None
    single: bool = field(init=False, repr=False, compare=False)
    """Naturals, ``openEnded``, ``unmodified`` and the tier shift need a single die."""
    label: str = field(init=False, repr=False, compare=False)
    """The record's ``dice="NdS"``. Both worked out once: the dice are built once per ruleset,
    and every check reads them."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "single", self.count == 1)
        object.__setattr__(self, "label", f"{self.count}d{self.sides}")

    def value(self, face: int) -> int:
        """CHK-SUM-05: a face's value (``faces`` lowest first), else its own number."""
        return self.faces[face - 1] if self.faces else face


@dataclass(frozen=True, slots=True)
class EffectDice:
    """Dice a condition or item adds to (or, ``minus``, takes off) the total (SHEET-COND-05)."""

    count: int
    sides: int
    minus: bool = False

    @classmethod
    def parse(cls, text: str, minus: bool = False) -> EffectDice | None:
        """``"1d4"`` / ``"d6"`` -> dice, count held to 1..20; anything unreadable -> None."""
        match = re.fullmatch(r"\s*(\d*)\s*[dD]\s*(\d+)\s*", text)
        if not match or int(match.group(2)) < 1:
            return None
        count = min(max(int(match.group(1) or 1), 1), MAX_EFFECT_DICE)
        return cls(count=count, sides=min(int(match.group(2)), 1000), minus=minus)


@dataclass(frozen=True, slots=True)
class SumCheck:
    """One dice-sum check as plain values: everything the roll and its odds depend on."""

    dice: SumDice
    modifier: int
    dc: int
    mode: Mode = "normal"
    naturals: Naturals = "none"
    unmodified: tuple[int, ...] = ()
    effects: tuple[EffectDice, ...] = ()


class Throw(NamedTuple):
    """One throw of the check's dice: the values in order, their signed sum, the first face."""

    values: tuple[int, ...]
    sum: int
    first: int


class SumRoll(NamedTuple):
    """What the dice came to (CHK-SUM, SPEC §6 ``rolls``/``used``/``total``).

    A named tuple, not a frozen dataclass: one is built per check, and a frozen dataclass sets
    its fields one ``object.__setattr__`` at a time, which cost a third of the roll.
    """

    rolls: tuple[int, ...]
    used: int
    effect: int
    total: int
    natural: Natural | None
    forced: Critical | None
    unmodified: int | None


def roll_sum(check: SumCheck, dice: Dice) -> SumRoll:
    """Throw a dice-sum check: the kept throw, the effect dice, naturals and ``unmodified``."""
    spec = check.dice
    first = throw_once(spec, dice)
    if check.mode == "normal":
        kept, rolls = first, first.values
    else:
        second = throw_once(spec, dice)
        kept, rolls = keep([first, second], check.mode), first.values + second.values
    effect_values, effect = throw_effects(check.effects, dice) if check.effects else ((), 0)
    used = kept.sum
    natural = forced = unmodified = None  # each read off a single die
    if spec.single:
        natural = natural_of(spec, kept.first)
        forced = forced_by(check.naturals, natural)
        unmodified = kept.first if kept.first in check.unmodified else None
    # positional, in field order: by keyword the call costs twice as much
    return SumRoll(rolls + effect_values, used, effect, used + check.modifier + effect, natural,
                   forced, unmodified)


def throw_once(spec: SumDice, dice: Dice) -> Throw:
    """CHK-SUM-01/05/06: one throw; a single open-ended die chains, at most 20 dice (CHK-SUM-07)."""
    if not spec.single or (spec.open_high is None and spec.open_low is None):
        faces = dice.throw_many(spec.count, spec.sides)
        values = tuple(spec.value(f) for f in faces) if spec.faces else tuple(faces)
        return Throw(values, sum(values), values[0])
    first = spec.value(dice.throw(spec.sides))
    if spec.open_low is not None and first <= spec.open_low:
        chain = _chain(spec, dice, MAX_OPEN_DICE - 1)
        return Throw(values=(first, *chain), sum=first - sum(chain), first=first)
    if spec.open_high is not None and first >= spec.open_high:
        chain = _chain(spec, dice, MAX_OPEN_DICE - 1)
        return Throw(values=(first, *chain), sum=first + sum(chain), first=first)
    return Throw(values=(first,), sum=first, first=first)


def _chain(spec: SumDice, dice: Dice, room: int) -> tuple[int, ...]:
    """The dice rolled again after an open end: one, then more while they show ≥ ``high``.

    After a low first die every chained die is subtracted (checks.md Ambiguity 7, Rolemaster);
    only the first die can open the low end.
    """
    chain: list[int] = []
    while len(chain) < room:
        value = spec.value(dice.throw(spec.sides))
        chain.append(value)
        if spec.open_high is None or value < spec.open_high:
            break
    return tuple(chain)


def keep(throws: list[Throw], mode: Mode) -> Throw:
    """CHK-SUM-02: advantage keeps the higher throw, disadvantage the lower; a tie keeps the 1st."""
    if mode == "advantage":
        return throws[1] if throws[1].sum > throws[0].sum else throws[0]
    if mode == "disadvantage":
        return throws[1] if throws[1].sum < throws[0].sum else throws[0]
    return throws[0]


def throw_effects(effects: Iterable[EffectDice], dice: Dice) -> tuple[tuple[int, ...], int]:
    """SHEET-COND-05: every effect die's face in order, and their signed sum."""
    faces: list[int] = []
    total = 0
    for effect in effects:
        thrown = dice.throw_many(effect.count, effect.sides)
        faces.extend(thrown)
        total += -sum(thrown) if effect.minus else sum(thrown)
    return tuple(faces), total


def natural_of(spec: SumDice, first: int) -> Natural | None:
    """The single die's highest or lowest face (CHK-SUM-03/08), read as a value."""
    if not spec.single:
        return None
    values = spec.faces or (1, spec.sides)
    if first == max(values):
        return "max"
    return "min" if first == min(values) else None


def forced_by(naturals: Naturals, natural: Natural | None) -> Critical | None:
    """CHK-SUM-03: the highest face an automatic success, the lowest an automatic failure."""
    if natural == "max" and naturals in ("both", "max-only"):
        return "success"
    if natural == "min" and naturals in ("both", "min-only"):
        return "failure"
    return None


def settle_mode(leans: Iterable[str], allowed: bool) -> Mode:
    """SHEET-COND-06: the GM's ``mode=`` and every source's lean cancel; only with ``advantage``."""
    if not allowed:
        return "normal"
    wanted = {lean for lean in leans if lean in ("advantage", "disadvantage")}
    if len(wanted) != 1:
        return "normal"
    return "advantage" if "advantage" in wanted else "disadvantage"


def default_dc(spec: SumDice) -> int:
    """Our choice when the GM named no difficulty and there is no ladder: the mean throw, up."""
    values = spec.faces or tuple(range(1, spec.sides + 1))
    return math.ceil(spec.count * sum(values) / len(values))


@dataclass(frozen=True, slots=True)
class SumRules:
    """What a dice-sum check reads off its ruleset, worked out once per ruleset object: the
    dice (CHK-SUM-01/05/06), our default dc, the tiers (CHK-OUT), ``unmodified`` and the
    naturals of checks and saves (CHK-SUM-03, SPEC §10)."""

    dice: SumDice
    default_dc: int
    outcomes: Outcomes | None
    unmodified: tuple[int, ...]
    naturals_check: Naturals
    naturals_save: Naturals
    advantage: bool


@per_ruleset
def sum_rules(ruleset: Ruleset) -> SumRules:
    """The ``SumRules`` of a dice-sum ``ruleset``, built once per ruleset object (an override's
    produced ruleset is one cached object too)."""
    resolution = ruleset.resolution
    if not isinstance(resolution, DiceSum):
        raise TypeError(f"sum_rules called on a {resolution.kind} ruleset")
    spec = sum_dice_from(resolution)
    return SumRules(
        dice=spec, default_dc=default_dc(spec), outcomes=outcomes_from(resolution.outcomes),
        unmodified=tuple(resolution.unmodified) if spec.single else (),
        naturals_check=ruleset.naturals_for("check"), naturals_save=ruleset.naturals_for("save"),
        advantage=bool(resolution.advantage),
    )


def sum_dice_from(resolution: DiceSum) -> SumDice:
    """``SumDice`` from the ruleset's dice-sum resolution model."""
    dice, open_ended = resolution.dice, resolution.open_ended
    return SumDice(
        count=dice.count, sides=dice.sides, faces=dice.faces,
        open_high=open_ended.high if open_ended else None,
        open_low=open_ended.low if open_ended else None,
    )
