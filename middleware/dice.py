"""The one dice seam (SPEC §5).

Every random choice the engine makes is a throw of an N-sided die through a ``Dice``: a weighted pick
is a die with as many sides as the total weight, a uniform pick among N things is a dN. Scripted
faces (from a transcript's ``dice`` list or a test) are thrown first, in order; after they run out the
seeded generator continues. Every face thrown is kept in ``thrown`` for the record.
"""

from __future__ import annotations

import hashlib
import random
from _random import Random
from collections.abc import Callable, Iterable, Sequence

from middleware.errors import DiceError

MAX_SIDES = 1_000_000


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any parts (never ``hash()``, which is salted per process)."""
    text = "\x1f".join(map(str, parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


class Dice:
    """A seeded, scriptable die thrower for one candidate.

    The generator is seeded at the first seeded face, not here: seeding a Mersenne Twister costs
    more than a whole check, and a ``Dice`` fed only scripted faces never needs it.
    """

    __slots__ = ("_draw", "_next", "_script", "seed", "thrown")

    def __init__(self, seed: int, script: Iterable[int] = ()) -> None:
        self.seed = seed
        self._draw: Callable[[int], int] | None = None
        self._script: tuple[int, ...] = tuple(script)
        self._next = 0
        self.thrown: list[int] = []

    def throw(self, sides: int) -> int:
        """One face of a ``sides``-sided die, 1..sides."""
        return self._faces(1, sides)[0]

    def throw_many(self, count: int, sides: int) -> list[int]:
        """``count`` throws of a ``sides``-sided die: the faces ``count`` calls of ``throw`` give,
        in order, thrown in one go. A subclass that overrides ``throw`` (a test walking every
        sequence of faces) is still asked for every die."""
        if type(self).throw is not Dice.throw:
            return [self.throw(sides) for _ in range(count)]
        return self._faces(count, sides)

    def _faces(self, count: int, sides: int) -> list[int]:
        """The scripted faces left first, one at a time, then the rest from the seeded generator
        in one loop (a check throws all its dice at once, so this is where it spends its time).
        The generator is only seeded if a face is still wanted when the script runs out."""
        if count <= 0:
            return []
        if not 1 <= sides <= MAX_SIDES:
            raise DiceError(f"a die must have 1..{MAX_SIDES} sides, not {sides}")
        if self._next == len(self._script):
            return self._seeded(count, sides)
        scripted = [self._scripted(sides) for _ in range(min(count, self.script_left))]
        return scripted + self._faces(count - len(scripted), sides)

    def _seeded(self, count: int, sides: int) -> list[int]:
        """``count`` faces as ``Random.randint(1, sides)`` would give them, drawn the same way (the
        first ``getrandbits(bit_length)`` below ``sides``, plus one) without its argument checks,
        so a stored seed throws the same faces as it always has."""
        draw, bits = self._draw or self._seed(), sides.bit_length()
        faces: list[int] = []
        for _ in range(count):
            face = draw(bits)
            while face >= sides:
                face = draw(bits)
            faces.append(face + 1)
        self.thrown += faces
        return faces

    def _seed(self) -> Callable[[int], int]:
        """Seed the generator from ``seed`` (once, at the first seeded face) and keep its draw.

        An int seeds the C generator under ``random.Random`` directly: the very same Mersenne
        Twister, seeded the same way (``random.Random.seed`` hands an int straight to it), without
        the Python layer's argument checks, a third of the cost of seeding. Any other seed goes
        through ``random.Random``, which reads a str its own way."""
        seeded = Random if isinstance(self.seed, int) else random.Random
        self._draw = seeded(self.seed).getrandbits
        return self._draw

    def pick_weighted(self, weights: Sequence[int]) -> int:
        """The index chosen by one throw of a die with ``sum(weights)`` sides."""
        face = self.throw(sum(weights))
        for index, weight in enumerate(weights):
            face -= weight
            if face <= 0:
                return index
        raise AssertionError("unreachable: face within total weight")

    def _scripted(self, sides: int) -> int:
        """The next scripted face, kept in ``thrown`` before the one after it is checked."""
        number = self._next
        face = self._script[number]
        self._next += 1
        if not 1 <= face <= sides:
            raise DiceError(f"scripted throw {number + 1} is {face}, outside a d{sides}")
        self.thrown.append(face)
        return face

    @property
    def script_left(self) -> int:
        """How many scripted faces have not been thrown yet."""
        return len(self._script) - self._next
