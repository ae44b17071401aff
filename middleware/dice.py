"""The one dice seam (SPEC §5).

Every random choice the engine makes is a throw of an N-sided die through a ``Dice``: a weighted pick
is a die with as many sides as the total weight, a uniform pick among N things is a dN. Scripted
faces (from a transcript's ``dice`` list or a test) are thrown first, in order; after they run out the
seeded generator continues. Every face thrown is kept in ``thrown`` for the record.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Sequence

from middleware.errors import DiceError

MAX_SIDES = 1_000_000


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any parts (never ``hash()``, which is salted per process)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


class Dice:
    """A seeded, scriptable die thrower for one candidate."""

    __slots__ = ("_next", "_random", "_script", "seed", "thrown")

    def __init__(self, seed: int, script: Iterable[int] = ()) -> None:
        self.seed = seed
        self._random = random.Random(seed)
        self._script: tuple[int, ...] = tuple(script)
        self._next = 0
        self.thrown: list[int] = []

    def throw(self, sides: int) -> int:
        """One face of a ``sides``-sided die, 1..sides."""
        if not 1 <= sides <= MAX_SIDES:
            raise DiceError(f"a die must have 1..{MAX_SIDES} sides, not {sides}")
        if self._next < len(self._script):
            face = self._scripted(sides)
        else:
            face = self._seeded(sides, sides.bit_length(), self._random.getrandbits)
        self.thrown.append(face)
        return face

    def throw_many(self, count: int, sides: int) -> list[int]:
        """``count`` throws of a ``sides``-sided die, in order (each through ``throw``, the seam)."""
        throw = self.throw
        return [throw(sides) for _ in range(count)]

    @staticmethod
    def _seeded(sides: int, bits: int, draw: Callable[[int], int]) -> int:
        """The face ``Random.randint(1, sides)`` would give, drawn the same way (the first
        ``getrandbits(bit_length)`` below ``sides``, plus one) without its argument checks, so a
        stored seed throws the same faces as it always has."""
        r = draw(bits)
        while r >= sides:
            r = draw(bits)
        return r + 1

    def pick_weighted(self, weights: Sequence[int]) -> int:
        """The index chosen by one throw of a die with ``sum(weights)`` sides."""
        face = self.throw(sum(weights))
        for index, weight in enumerate(weights):
            face -= weight
            if face <= 0:
                return index
        raise AssertionError("unreachable: face within total weight")

    def _scripted(self, sides: int) -> int:
        number = self._next
        face = self._script[number]
        self._next += 1
        if not 1 <= face <= sides:
            raise DiceError(f"scripted throw {number + 1} is {face}, outside a d{sides}")
        return face

    @property
    def script_left(self) -> int:
        """How many scripted faces have not been thrown yet."""
        return len(self._script) - self._next
