"""The dice-pool odds as they were worked before the closed form: a frozen reference.

The code below is the previous ``dice_pool/dice.py`` and ``dice_pool/odds.py`` (lists of whole
numbers, one convolution per die, the extra dice walked one throw at a time), kept unchanged so
that ``test_odds_pool_reference.py`` can check the faster code against it, bit for bit, over many
pool configurations: ``exact_net_distribution`` and ``odds_from`` (summed in ``Fraction``), with
nothing cached.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from middleware.resolve.checks.dice_pool.rules import MAX_REROLLS, PoolCheck, face_table
from middleware.resolve.checks.odds import Odds
from middleware.resolve.checks.outcome import Outcomes, judge

Kernel = tuple[tuple[int, int], ...]
"""(delta, ways) pairs: what one die adds, and in how many ways."""

Start = dict[int, list[int]]
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
    """Keys ``low .. low + size − 1`` of a distribution held as a list."""

    low: int
    size: int

    @classmethod
    def around(cls, table: Table, dice: int) -> Frame:
        """Room for any total of up to ``dice`` dice of ``table``."""
        deltas = [d for d, _, _ in table.faces]
        low, high = min(0, *deltas) * dice, max(0, *deltas) * dice
        return cls(low=low, size=high - low + 1)

    def unit(self) -> list[int]:
        """One way to have counted nothing."""
        vector = [0] * self.size
        vector[-self.low] = 1
        return vector

    def window(self, kernel: Kernel, dice: int) -> tuple[int, int]:
        """The slice where ``dice`` dice of ``kernel`` can land."""
        deltas = [d for d, _ in kernel] or [0]
        return min(deltas) * dice - self.low, max(deltas) * dice - self.low + 1

    def as_dict(self, vector: list[int]) -> dict[int, int]:
        return {self.low + i: n for i, n in enumerate(vector) if n}


def convolve(vector: list[int], kernel: Kernel) -> list[int]:
    """One more die: every key moved by each delta, times its ways (mass stays in the frame)."""
    size = len(vector)
    out = [0] * size
    for delta, ways in kernel:
        if delta >= 0:
            out[delta:] = [o + ways * v for o, v in zip(out[delta:], vector[:size - delta],
                                                        strict=True)]
        else:
            out[:size + delta] = [o + ways * v for o, v in zip(out[:size + delta],
                                                               vector[-delta:], strict=True)]
    return out


def plain_start(groups: tuple[tuple[int, Table, tuple[int, ...] | None], ...],
                frame: Frame) -> Start:
    """Starting dice in groups of (count, table, face weights), keyed by how many exploded."""
    state: Start = {0: frame.unit()}
    for count, table, weights in groups:
        boom, calm = table.split(weights)
        for _ in range(count):
            state = _one_more(state, boom, calm, size=frame.size)
    return state


def _one_more(state: Start, boom: Kernel, calm: Kernel, size: int) -> Start:
    out: Start = {}
    for owed, vector in state.items():
        for key, kernel in ((owed + 1, boom), (owed, calm)):
            if kernel:
                moved = convolve(vector, kernel)
                old = out.get(key)
                out[key] = moved if old is None else [a + b for a, b in zip(old, moved,
                                                                            strict=True)]
    return out


def start_of(check: PoolCheck, table: Table, frame: Frame) -> tuple[Start, int]:
    """The starting dice after the re-roll (CHK-POOL-14), and the denominator of their ways."""
    s, n, rule = check.sides, check.dice, check.reroll
    if rule is None:
        return plain_start(((n, table, None),), frame), s ** n
    u = rule.up_to
    if rule.mode == "once":
        # A face f is kept straight (f > u: s ways of s²) or comes as the new face (u ways).
        weights = tuple(s * (f > u) + u for f in range(1, s + 1))
        return plain_start(((n, table, weights),), frame), s ** (2 * n)
    low = table.only(tuple(f <= u for f in range(1, s + 1)))
    high = table.only(tuple(f > u for f in range(1, s + 1)))
    state: Start = {}
    for j, ways in enumerate(until_low_dice(n, u, s, MAX_REROLLS)):
        if ways:
            scale = ways * u ** (n - j) * (s - u) ** j
            part = plain_start(((j, low, None), (n - j, high, None)), frame)
            for owed, vector in part.items():
                old = state.get(owed, [0] * frame.size)
                state[owed] = [a + scale * b for a, b in zip(old, vector, strict=True)]
    return state, s ** (n + MAX_REROLLS) * u ** n * (s - u) ** n


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
                 cap: int) -> tuple[list[int], int]:
    """CHK-POOL-07: the extra dice, one throw at a time, each owed die paid by one throw and an
    exploding throw owing one more, until nothing is owed or ``cap`` extra dice were thrown."""
    boom, calm = table.split()
    done = [0] * frame.size
    state = start
    for thrown in range(cap):
        scale = sides ** (cap - thrown)
        if 0 in state:
            done = [a + scale * b for a, b in zip(done, state.pop(0), strict=True)]
        if not state:
            break
        # One throw pays one owed die; an exploding throw owes one more.
        state = {owed - 1: v for owed, v in _one_more(state, boom, calm, frame.size).items()}
    for vector in state.values():
        done = [a + b for a, b in zip(done, vector, strict=True)]
    return done, whole * sides ** cap


Net = tuple[int, bool]
"""A pool's reading as the verdict sees it: net successes (with ``auto``) and botch."""


def exact_net_distribution(check: PoolCheck) -> dict[Net, Fraction]:
    """``net_distribution`` worked out afresh (not cached)."""
    if check.dice <= 0:
        return {(check.auto, False): Fraction(1)}
    counts, whole = raw_counts(check)
    botch = botch_chance(check)
    out: dict[Net, Fraction] = defaultdict(Fraction)
    for d, n in counts.items():
        out[(max(d, 0) + check.auto, False)] += Fraction(n, whole)
    if botch:
        out[(check.auto, False)] -= botch
        out[(check.auto, True)] += botch
    return {key: p for key, p in out.items() if p}


def raw_counts(check: PoolCheck) -> tuple[dict[int, int], int]:
    """The ways to reach each ``d`` (successes − cancels) over their common denominator."""
    faces = faces_of(check)
    if check.reroll is None and faces.explodes:
        return fast_counts(check.dice, faces, check.explode_cap)
    return general_counts(check)


def general_counts(check: PoolCheck) -> tuple[dict[int, int], int]:
    """``raw_counts`` by convolving the starting dice and walking the extra ones (any rule)."""
    faces = faces_of(check)
    cap = check.explode_cap if faces.explodes else 0
    frame = Frame.around(faces.main, check.dice + cap)
    start, whole = start_of(check, faces.main, frame)
    vector, whole = general_mass(start, whole, faces.main, frame, check.sides, cap)
    return frame.as_dict(vector), whole


def fast_counts(dice: int, faces: Faces, cap: int) -> tuple[dict[int, int], int]:
    """CHK-POOL-07 without a re-roll: ``Σ_a E^a ⊗ Σ_b w(a, b)·s^(T−a−b)·N^b`` (module doc)."""
    sides, most = faces.sides, dice + cap
    frame = Frame.around(faces.main, most)
    boom, calm = faces.main.split()
    weights = shape_weights(dice, cap)
    calm_powers = [frame.unit()]
    for _ in range(most):
        calm_powers.append(convolve(calm_powers[-1], calm))
    mixed: list[list[int]] = [[0] * frame.size for _ in range(most + 1)]
    for (a, b), ways in weights.items():
        scale = ways * sides ** (most - a - b)
        row, power = mixed[a], calm_powers[b]
        low, high = frame.window(calm, b)
        row[low:high] = [r + scale * v for r, v in zip(row[low:high], power[low:high],
                                                         strict=True)]
    total = mixed[most]
    for a in range(most - 1, -1, -1):
        total = [m + t for m, t in zip(mixed[a], convolve(total, boom), strict=True)]
    return frame.as_dict(total), sides ** most


def shape_weights(dice: int, cap: int) -> dict[tuple[int, int], int]:
    """The ways (orders of exploding / other dice) to end with ``a`` exploding and ``b`` others.

    ``x`` of the starting dice explode (``comb(dice, x)`` choices). The extra dice then run until
    the ``x``-th non-exploding one (``comb(k + x − 1, k)`` orders with ``k`` exploding before it)
    or until ``cap`` extra dice were thrown with fewer (``comb(cap, j)`` orders).
    """
    out: dict[tuple[int, int], int] = defaultdict(int)
    for x in range(dice + 1):
        start = comb(dice, x)
        if x == 0:
            out[(0, dice)] += start
            continue
        for k in range(cap - x + 1):
            out[(x + k, dice)] += start * comb(k + x - 1, k)
        for j in range(min(x, cap + 1)):
            out[(x + cap - j, dice - x + j)] += start * comb(cap, j)
    return dict(out)


def botch_chance(check: PoolCheck) -> Fraction:
    """CHK-POOL-10/11: P(botch). Nobody succeeded (no ``auto`` either) and a face ≤ ``botch``
    came up (``noSuccesses``) or showed on at least half of the starting dice (``halfOrMore``)."""
    if check.botch is None or check.auto > 0 or check.dice <= 0:
        return Fraction(0)
    faces = faces_of(check)
    if check.botch_rule == "noSuccesses":
        return _all_within(check, faces.blank) - _all_within(check, faces.blank_high)
    by_low, whole = _all_within_by_low(check, faces)
    return sum((Fraction(n, whole) for low, n in by_low.items()
                if low > 0 and 2 * low >= check.dice), Fraction(0))


def _all_within(check: PoolCheck, table: Table) -> Fraction:
    """P(every die thrown shows a face ``table`` keeps)."""
    by_low, whole = _all_within_by_low(check, faces_of(check), table)
    return Fraction(sum(by_low.values()), whole)


def _all_within_by_low(check: PoolCheck, faces: Faces,
                       table: Table | None = None) -> tuple[dict[int, int], int]:
    """Ways for every die to show a face of ``table`` (default: no success), by how many
    starting dice show a face ≤ ``botch`` (only counted when no table is given)."""
    start_table = faces.blank_low if table is None else table
    extra_table = (faces.blank if table is None else table).flat()
    cap = check.explode_cap if faces.explodes else 0
    frame = Frame(low=0, size=check.dice + 1)
    start, whole = start_of(check, start_table, frame)
    vector, whole = general_mass(start, whole, extra_table, frame, check.sides, cap)
    return frame.as_dict(vector), whole


def odds_from(check: PoolCheck, dist: dict[Net, Fraction], outcomes: Outcomes | None) -> Odds:
    """CHK-OUT-02/11: success and the tiers from P(net, botch), through ``outcome.judge``."""
    success = Fraction(0)
    tiers: dict[str, Fraction] = defaultdict(Fraction)
    for (net, botch), p in dist.items():
        verdict = judge(outcomes, total=net, needed=check.needed,
                        forced="failure" if botch else None)
        success += p if verdict.success else 0
        if verdict.tier is not None:
            tiers[verdict.tier.label] += p
    order = [t.label for t in outcomes.tiers] if outcomes else []
    return Odds(success=success, tiers=tuple((label, tiers[label]) for label in order))
