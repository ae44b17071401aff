"""Distributions packed into one whole number, for the dice-pool odds (``chain.py``).

A distribution with whole-number ways ``c_i`` on keys ``low + i`` is held as the single number
``Σ c_i·2^(width·i)`` (Kronecker substitution). Adding, scaling and multiplying those numbers adds,
scales and convolves the distributions, one C-level operation on the whole row instead of a Python
loop over its keys. Putting ``2^width`` for the unknown is a ring map, so any sum of products is
exact even when a step goes negative; only the final result is read back, and it reads back right
when every one of its ways lies in ``0 .. 2^width − 1`` (``Packing.holding``).

The numbers run to hundreds of thousands of bits (100 dice: ~400,000): gmpy2's ``mpz`` multiplies
them tens of times faster than ``int``. Without gmpy2, ``int`` does the same arithmetic more slowly.
"""

from __future__ import annotations

import importlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import cast

Kernel = tuple[tuple[int, int], ...]
"""(delta, ways) pairs: what one die adds, and in how many ways."""

@cache
def _whole_numbers() -> Callable[[int], int]:
    """gmpy2's ``mpz``, imported when the first odds are worked (not at start-up: ~6 ms)."""
    try:
        module = importlib.import_module("gmpy2")
    except ImportError:  # pragma: no cover - gmpy2 is a dependency; int gives the same numbers
        return int
    return cast("Callable[[int], int]", module.mpz)


def big(number: int) -> int:
    """A whole number in the fastest arithmetic at hand (``mpz``, else ``int``); same values."""
    return _whole_numbers()(number)


@dataclass(frozen=True, slots=True)
class Factor:
    """A small polynomial (a die's faces, the weight of an unthrown die) to multiply by.

    ``value`` is the packed polynomial; ``terms`` its (bit shift, ways) pairs, because multiplying
    a long number by a few shifted small ways is cheaper than by the packed ``value`` itself.
    """

    value: int
    terms: tuple[tuple[int, int], ...]

    @classmethod
    def plain(cls, ways: int) -> Factor:
        """A bare count (no keys): multiplying is scaling."""
        return cls(value=big(ways), terms=((0, ways),) if ways else ())

    @classmethod
    def of(cls, terms: dict[int, int]) -> Factor:
        """The factor with these (bit shift → ways) terms, the empty ones dropped."""
        kept = tuple(sorted((shift, ways) for shift, ways in terms.items() if ways))
        return cls(value=sum((big(ways) << shift for shift, ways in kept), big(0)), terms=kept)

    def times(self, number: int) -> int:
        """``number`` times this factor."""
        out = big(0)
        for shift, ways in self.terms:
            out += ways * (number << shift)
        return out

    def __mul__(self, other: Factor) -> Factor:
        out: dict[int, int] = defaultdict(int)
        for shift, ways in self.terms:
            for other_shift, other_ways in other.terms:
                out[shift + other_shift] += ways * other_ways
        return Factor.of(out)

    def __add__(self, other: Factor) -> Factor:
        out: dict[int, int] = defaultdict(int)
        for shift, ways in (*self.terms, *other.terms):
            out[shift] += ways
        return Factor.of(out)

    def scaled(self, by: int) -> Factor:
        """This factor times a whole number (negative too)."""
        return Factor.of({shift: by * ways for shift, ways in self.terms})


@dataclass(frozen=True, slots=True)
class Packing:
    """Keys packed ``width`` bits apart (a whole number of bytes, so reading back slices bytes)."""

    width: int

    @classmethod
    def holding(cls, most: int) -> Packing:
        """Room for ways up to ``most`` in every key."""
        return cls(width=8 * (most.bit_length() // 8 + 1))

    def factor(self, kernel: Kernel, low: int) -> Factor:
        """A die's (delta, ways) kernel with every delta raised by ``−low`` (so none is negative)."""
        terms = tuple((self.width * (delta - low), ways) for delta, ways in kernel if ways)
        return Factor(value=sum((big(ways) << shift for shift, ways in terms), big(0)),
                      terms=terms)

    def monomial(self, ways: int, key: int) -> Factor:
        """``ways`` on the single key ``key``."""
        shift = self.width * key
        return Factor(value=big(ways) << shift, terms=((shift, ways),))

    def unpack(self, number: int, size: int) -> list[int]:
        """The ways on keys ``0 .. size − 1`` of a packed result (each must fit its width)."""
        step = self.width // 8
        raw = number.to_bytes(step * size, "little")
        return [int.from_bytes(raw[i:i + step], "little") for i in range(0, len(raw), step)]


__all__ = ["Factor", "Kernel", "Packing", "big"]
