"""Dice notation read by ``grammar/dice.lark``: ``2d6+3``, ``d20``, ``4d6kh3``, ``2d20kl1``, ``4dF``,
``d%``, several dice groups and constants (``1d8 + 1d6 - 1``).

The grammar says what a roll looks like; the bounds are ours, the same as a check's dice
(``SumDice``: at most 100 dice, 2..1000 sides; a ``dc`` held to ±1000), so a hostile roll is
clamped, never thrown at full size (SPEC §8). What the grammar cannot read is a problem string,
never an exception. ``F`` is the ruleset's own face list when its check dice declare one
(``resolution.dice.faces``), else a Fate die (−1, 0, +1).

This module builds its own Lark parser over ``grammar/dice.lark``: the tag front (``parse.py``)
reads tag bodies, and a roll is read inside a body after that.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from lark import Lark, Token, Tree
from lark.exceptions import LarkError

__all__ = ["MAX_CONSTANT", "MAX_DICE", "MAX_SIDES", "MAX_TERMS", "DiceGroup", "Notation",
           "read_notation"]

MAX_DICE: Final = 100
"""Dice in one roll, all groups together (a check throws at most 100)."""
MAX_SIDES: Final = 1000
"""Sides of one die (a check's die has 2..1000)."""
MAX_CONSTANT: Final = 1000
"""The size of a constant term (a check's ``dc`` is held to ±1000)."""
MAX_TERMS: Final = 12
"""Terms (dice groups and constants) in one roll."""
MAX_TEXT: Final = 200
"""Characters of notation read; a longer roll is not read at all."""

FATE_FACES: Final = (-1, 0, 1)


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """``count`` dice of ``faces`` (face values, thrown as a die with one side per face), the
    ``keep`` highest (``"h"``) or lowest (``"l"``) counted, added with ``sign``."""

    count: int
    faces: tuple[int, ...] | None
    sides: int
    keep: tuple[str, int] | None = None
    sign: int = 1
    label: str = ""

    def value(self, side: int) -> int:
        """The value of ``side`` (1-based) of this die."""
        return self.faces[side - 1] if self.faces is not None else side


@dataclass(frozen=True, slots=True)
class Notation:
    """A readable roll: its dice groups, the constant added, the roll written back, and what was
    clamped to the bounds (said to the Game Master)."""

    groups: tuple[DiceGroup, ...]
    constant: int
    text: str
    clamped: tuple[str, ...] = ()


@lru_cache(maxsize=2048)
def read_notation(text: str, faces: tuple[int, ...] | None = None) -> Notation | str:
    """``text`` as a roll, or the problem that keeps it from being one. ``faces`` is the ruleset's
    own face list that ``F`` throws (None: a Fate die). A game writes the same few rolls again and
    again, and the answer is a frozen value: each text is read once."""
    if len(text) > MAX_TEXT:
        return f"a roll is at most {MAX_TEXT} characters"
    try:
        tree = _parser().parse(text)
    except LarkError as exc:  # the one place a lark error of a roll becomes ours
        return _problem(exc, text)
    return _Builder(faces).roll(tree)


def _problem(exc: LarkError, text: str) -> str:
    column = getattr(exc, "column", None)
    where = f" at column {column}" if isinstance(column, int) and column > 0 else ""
    return f"not a roll{where}: {text!r} (write it as 2d6+3, d20, 4d6kh3 or 4dF)"


class _Builder:
    """The tree of one roll into a ``Notation``, clamping as it goes."""

    def __init__(self, faces: tuple[int, ...] | None) -> None:
        self.faces = faces
        self.clamped: list[str] = []
        self.dice_left = MAX_DICE

    def roll(self, tree: Tree[Token]) -> Notation | str:
        groups: list[DiceGroup] = []
        constant, sign = 0, 1
        parts: list[str] = []
        terms = 0
        for child in tree.children:
            if isinstance(child, Token):  # a SIGN
                sign = -1 if child != "+" else 1
                continue
            terms += 1
            if terms > MAX_TERMS:
                return f"a roll has at most {MAX_TERMS} terms"
            term = child.children[0]
            if isinstance(term, Token):
                value = self._held(int(term), MAX_CONSTANT, "a constant")
                constant += sign * value
                parts.append(_signed(sign, str(value), not parts))
            else:
                group = self._dice(term, sign)
                if group is not None:
                    groups.append(group)
                    parts.append(_signed(sign, group.label, not parts))
            sign = 1
        return Notation(tuple(groups), constant, "".join(parts) or "0", tuple(self.clamped))

    def _dice(self, tree: Tree[Token], sign: int) -> DiceGroup | None:
        tokens = [c for c in tree.children if isinstance(c, Token)]
        count = int(tokens[0]) if tokens[0].type == "INT" else 1
        faces_tree, keep_tree = (next((c for c in tree.children if isinstance(c, Tree)
                                       and c.data == name), None) for name in ("faces", "keep"))
        assert faces_tree is not None
        face = faces_tree.children[0]
        assert isinstance(face, Token)
        count = self._count(count)
        if count == 0:
            return None
        values, sides, written = self._faces(face)
        keep = self._keep(keep_tree, count)
        label = f"{count}d{written}" + (f"k{keep[0]}{keep[1]}" if keep else "")
        return DiceGroup(count, values, sides, keep, sign, label)

    def _count(self, count: int) -> int:
        allowed = min(max(count, 1), self.dice_left)
        if allowed != count:
            self.clamped.append(f"{count} dice held to {allowed} (at most {MAX_DICE} in a roll)")
        self.dice_left -= allowed
        return allowed

    def _faces(self, face: Token) -> tuple[tuple[int, ...] | None, int, str]:
        if face.type == "FATE":
            values = self.faces or FATE_FACES
            return values, len(values), "F"
        if face.type == "PERCENT":
            return None, 100, "100"
        sides = self._held(int(face), MAX_SIDES, "sides", low=2)
        return None, sides, str(sides)

    def _keep(self, tree: Tree[Token] | None, count: int) -> tuple[str, int] | None:
        if tree is None:
            return None
        word, number = (str(t) for t in tree.children)
        low = word.lower().endswith("l")
        kept = min(max(int(number), 1), count)
        if kept != int(number):
            self.clamped.append(f"keep {number} held to {kept} of {count} dice")
        return ("l" if low else "h", kept)

    def _held(self, value: int, high: int, what: str, low: int = 0) -> int:
        held = min(max(value, low), high)
        if held != value:
            self.clamped.append(f"{what} {value} held to {held}")
        return held


def _signed(sign: int, text: str, first: bool) -> str:
    if sign < 0:
        return f"-{text}"
    return text if first else f"+{text}"


@cache
def _parser() -> Lark:
    """The roll parser, built once on first use (STYLE habit 2)."""
    grammar = _grammar_path().read_text(encoding="utf-8")
    return Lark(grammar, start="roll", parser="lalr", maybe_placeholders=False)


def _grammar_path() -> Path:
    package = Path(__file__).parents[2]
    installed = package / "grammar" / "dice.lark"
    return installed if installed.exists() else package.parent / "grammar" / "dice.lark"
