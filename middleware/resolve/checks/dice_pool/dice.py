"""Face tables and whole-number convolutions behind the dice-pool odds (``odds.py``).

A ``Table`` says, for every face of the die, what it adds to the quantity being counted (the
``delta``: successes − cancels for the main distribution, a low face for ``halfOrMore``, nothing
for a bare probability), whether it explodes, and its weight (0 leaves the face out: "every die
shows a blank face"). A distribution is whole-number ways over a ``Frame`` of keys, packed into
one number (``packed.py``).
The starting dice are kept apart by how many of them explode (``start_of``) because that is how
many extra dice they owe (``general_mass`` walks those). The re-roll of CHK-POOL-14 changes only
the starting dice; ``until`` honours the stop after ``MAX_REROLLS`` re-throws in one check.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from middleware.resolve.checks.dice_pool.packed import Kernel, Packing, big
from middleware.resolve.checks.dice_pool.rules import MAX_REROLLS, PoolCheck, face_table

Start = dict[int, int]
"""Ways of the starting dice keyed by how many exploded (extra dice owed)."""


@dataclass(frozen=True, slots=True)
class Table:
    """Per face, lowest first: (delta, explodes, weight)."""

    faces: tuple[tuple[int, bool, int], ...]

    def split(self, weights: tuple[int, ...] | None = None) -> tuple[Kernel, Kernel]:
        """The exploding and the other faces as kernels, each face weighted (``weights``)."""
        boom: dict[int, int] = defaultdict(int)
        calm: dict[int, int] = defaultdict(int)
        for index, (delta, explodes, weight) in enumerate(self.faces):
            ways = weight * (weights[index] if weights else 1)
            if ways:
                (boom if explodes else calm)[delta] += ways
        return tuple(sorted(boom.items())), tuple(sorted(calm.items()))

    def flat(self) -> Table:
        """The same faces counting nothing (extra dice, where only their weight matters)."""
        return Table(tuple((0, explodes, weight) for _, explodes, weight in self.faces))

    def only(self, keep: tuple[bool, ...]) -> Table:
        """The faces where ``keep`` is True (the others weigh nothing)."""
        return Table(tuple((d, e, w if k else 0) for (d, e, w), k in
                           zip(self.faces, keep, strict=True)))


@dataclass(frozen=True, slots=True)
class Faces:
    """A check's die read every way the odds need it."""

    sides: int
    main: Table
    blank: Table
    blank_high: Table
    blank_low: Table
    explodes: bool


@lru_cache(maxsize=256)
def faces_of(check: PoolCheck) -> Faces:
    """The face tables of ``check`` (CHK-POOL-05/06/07/09/10/18/19)."""
    faces = range(1, check.sides + 1)
    table = face_table(check)  # the roller's own reading of each face
    counts, cancels = table.successes[1:], table.cancels[1:]
    booms = [check.explode is not None and f >= check.explode for f in faces]
    main = Table(tuple((n - c, e, 1) for n, c, e in zip(counts, cancels, booms, strict=True)))
    blank = tuple(n == 0 for n in counts)
    low = tuple(check.botch is not None and f <= check.botch for f in faces)
    return Faces(
        sides=check.sides, main=main, blank=main.flat().only(blank),
        blank_high=main.flat().only(tuple(b and not lo for b, lo in zip(blank, low, strict=True))),
        blank_low=Table(tuple((int(lo), e, int(b)) for lo, e, b in zip(low, booms, blank,
                                                                          strict=True))),
        explodes=any(booms) and check.explode_cap > 0,
    )


@dataclass(frozen=True, slots=True)
class Frame:
    """Keys ``low .. low + size − 1`` of a distribution packed ``width`` bits a key (``packed``)."""

    low: int
    size: int
    width: int

    @classmethod
    def around(cls, table: Table, dice: int, width: int) -> Frame:
        """Room for any total of up to ``dice`` dice of ``table``."""
        deltas = [d for d, _, _ in table.faces]
        low, high = min(0, *deltas) * dice, max(0, *deltas) * dice
        return cls(low=low, size=high - low + 1, width=width)

    def unit(self) -> int:
        """One way to have counted nothing."""
        return big(1) << (self.width * -self.low)

    def as_dict(self, number: int) -> dict[int, int]:
        """The ways on each key of a packed distribution, the empty keys left out."""
        vector = Packing(self.width).unpack(number, self.size)
        return {self.low + i: n for i, n in enumerate(vector) if n}


def convolve(vector: int, kernel: Kernel, width: int) -> int:
    """One more die: every key moved by each delta, times its ways (mass stays in the frame, so
    the keys a negative delta shifts out below the frame are empty)."""
    out = big(0)
    for delta, ways in kernel:
        out += ways * (vector << (width * delta) if delta >= 0 else vector >> (width * -delta))
    return out


def plain_start(groups: tuple[tuple[int, Table, tuple[int, ...] | None], ...],
                frame: Frame) -> Start:
    """Starting dice in groups of (count, table, face weights), keyed by how many exploded."""
    state: Start = {0: frame.unit()}
    for count, table, weights in groups:
        boom, calm = table.split(weights)
        for _ in range(count):
            state = _one_more(state, boom, calm, frame.width)
    return state


def _one_more(state: Start, boom: Kernel, calm: Kernel, width: int) -> Start:
    out: Start = {}
    for owed, vector in state.items():
        for key, kernel in ((owed + 1, boom), (owed, calm)):
            if kernel:
                moved = convolve(vector, kernel, width)
                out[key] = out[key] + moved if key in out else moved
    return out


def start_whole(check: PoolCheck) -> int:
    """The denominator of the starting dice's ways after the re-roll (``start_of``)."""
    s, n, rule = check.sides, check.dice, check.reroll
    whole: int = s ** n  # int ** int is typed Any (negative powers)
    if rule is None:
        return whole
    if rule.mode == "once":
        return whole * whole
    until: int = whole * s ** MAX_REROLLS * rule.up_to ** n * (s - rule.up_to) ** n
    return until


def start_of(check: PoolCheck, table: Table, frame: Frame) -> tuple[Start, int]:
    """The starting dice after the re-roll (CHK-POOL-14), and the denominator of their ways."""
    s, n, rule = check.sides, check.dice, check.reroll
    if rule is None:
        return plain_start(((n, table, None),), frame), start_whole(check)
    u = rule.up_to
    if rule.mode == "once":
        return plain_start(((n, table, once_weights(s, u)),), frame), start_whole(check)
    low = table.only(tuple(f <= u for f in range(1, s + 1))).split()
    high = table.only(tuple(f > u for f in range(1, s + 1))).split()
    scales = [ways * u ** (n - j) * (s - u) ** j
              for j, ways in enumerate(until_low_dice(n, u, s, MAX_REROLLS))]
    # Σ_j scale_j·Low^j·High^(n−j), Horner-wise: one low die more on the sum so far, then the
    # next power of the high dice added (n steps, not a whole pool per j).
    state: Start = {0: scales[n] * frame.unit()}
    high_power: Start = {0: frame.unit()}
    for j in range(n - 1, -1, -1):
        state = _one_more(state, *low, frame.width)
        high_power = _one_more(high_power, *high, frame.width)
        for owed, vector in high_power.items():
            state[owed] = state.get(owed, 0) + scales[j] * vector
    return state, start_whole(check)


def once_weights(sides: int, up_to: int) -> tuple[int, ...]:
    """CHK-POOL-14 ``once``: the ways (of ``sides²``) each face ends a starting die: a face above
    ``up_to`` comes straight (``sides`` ways) or as the new face (``up_to`` ways), a lower one only
    as the new face."""
    return tuple(sides * (f > up_to) + up_to for f in range(1, sides + 1))


@lru_cache(maxsize=128)
def until_low_dice(dice: int, up_to: int, sides: int, budget: int) -> tuple[int, ...]:
    """``until`` with a stop after ``budget`` re-throws: ways (over ``sides**(dice+budget)``)
    that ``j`` starting dice end low. The low dice are re-thrown in order; when the budget runs
    out during the ``m``-th, it and every later low die stay low (uniform on 1..up_to); the
    others end uniform on the high faces."""
    hi = sides - up_to
    stuck = [0] * (dice + 1)  # stuck[m]: ways (over sides**budget) the m-th low die runs dry
    for m in range(1, dice + 1):
        if m == 1:
            stuck[m] = up_to ** budget
            continue
        stuck[m] = sum(comb(t - 1, m - 2) * hi ** (m - 1) * up_to ** (t - m + 1)
                       * up_to ** (budget - t) for t in range(m - 1, budget + 1))
    ways = [0] * (dice + 1)
    for lows in range(1, dice + 1):
        start = comb(dice, lows) * up_to ** lows * hi ** (dice - lows)
        for m in range(1, lows + 1):
            ways[lows - m + 1] += start * stuck[m]
    ways[0] = sides ** (dice + budget) - sum(ways)
    return tuple(ways)


def general_mass(start: Start, whole: int, table: Table, frame: Frame, sides: int,
                 cap: int) -> tuple[int, int]:
    """CHK-POOL-07: the extra dice, one throw at a time, each owed die paid by one throw and an
    exploding throw owing one more, until nothing is owed or ``cap`` extra dice were thrown."""
    boom, calm = table.split()
    done = big(0)
    state = start
    for thrown in range(cap):
        if 0 in state:
            done += sides ** (cap - thrown) * state.pop(0)
        if not state:
            break
        # One throw pays one owed die; an exploding throw owes one more.
        state = {owed - 1: v for owed, v in _one_more(state, boom, calm, frame.width).items()}
    for vector in state.values():
        done += vector
    return done, whole * sides ** cap
