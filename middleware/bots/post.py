"""What a bot posts (pure): replies split at the platform's limit, button data, the dice card.

- ``split_text`` cuts a long reply into messages of at most ``limit`` characters at line breaks;
  a single line longer than the limit (rare: a wall of prose) is cut at its last space before the
  limit, and only a line with no space in reach is cut mid-word.
- Buttons carry ``gm:<action>:<generation>:<turn>:<candidate>`` (``Button``), short enough for
  Telegram's 64-byte callback data and Discord's 100-character custom ids. The generation tells a
  button on a turn that was undone from one on the turn played again in its place.
- ``dice_card`` shows each check of a reply: the dice, the throw, the total against the number
  it was read by, the outcome, and the exact chance of success.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from middleware.records import Record
from middleware.resolve.checks.record import CheckRecord

TELEGRAM_LIMIT: Final = 4096
DISCORD_LIMIT: Final = 2000

Action = Literal["regenerate", "previous", "next", "dice"]
_CODES: Final[dict[str, Action]] = {"r": "regenerate", "p": "previous", "n": "next", "d": "dice"}


def utf16_length(text: str) -> int:
    """Telegram counts message length in UTF-16 code units (an emoji outside the BMP is two)."""
    return len(text.encode("utf-16-le")) // 2


def split_text(text: str, limit: int, measure: Callable[[str], int] = len) -> list[str]:
    """``text`` as messages of at most ``limit`` (by ``measure``), cut between lines."""
    chunks: list[str] = []
    current = ""
    for line in _fitting_lines(text, limit, measure):
        joined = f"{current}\n{line}" if current else line
        if current and measure(joined) > limit:
            chunks.append(current)
            joined = line
        current = joined
    if current.strip():
        chunks.append(current)
    return [c for c in chunks if c.strip()] or ["…"]


def _fitting_lines(text: str, limit: int, measure: Callable[[str], int]) -> list[str]:
    out: list[str] = []
    for line in text.split("\n"):
        while measure(line) > limit:
            head = _head(line, limit, measure)
            out.append(head.rstrip())
            line = line[len(head):].lstrip(" ")
        out.append(line)
    return out


def _head(line: str, limit: int, measure: Callable[[str], int]) -> str:
    """The longest prefix of ``line`` that fits, ending at a space when one is in reach."""
    end = min(len(line), limit)  # every character measures at least 1
    while end > 1 and measure(line[:end]) > limit:
        end -= 1
    space = line.rfind(" ", 0, end)
    return line[: space + 1] if space > end // 2 else line[:end]


@dataclass(frozen=True, slots=True)
class Button:
    """A button's meaning: its action, the game's generation, the turn and candidate it sits on."""

    action: Action
    generation: int
    turn: int
    candidate: int

    @property
    def data(self) -> str:
        code = next(c for c, a in _CODES.items() if a == self.action)
        return f"gm:{code}:{self.generation}:{self.turn}:{self.candidate}"


def read_button(data: str | None) -> Button | None:
    """The ``Button`` a callback's data names, or None for data that is not ours."""
    parts = (data or "").split(":")
    if len(parts) != 5 or parts[0] != "gm" or parts[1] not in _CODES:
        return None
    try:
        numbers = [int(p) for p in parts[2:]]
    except ValueError:
        return None
    return Button(_CODES[parts[1]], *numbers)


def dice_card(records: Sequence[Record]) -> str:
    """One line per check of a reply, with its exact chance; a note when there is none."""
    lines = [_check_line(r) for r in records if isinstance(r, CheckRecord)]
    return "\n".join(lines) if lines else "No dice were thrown in this reply."


def _check_line(check: CheckRecord) -> str:
    who = f" ({check.who})" if check.who else ""
    if check.status != "resolved":
        return f"🎲 {check.skill}{who}: {check.status}, {check.reason or 'not rolled'}"
    rolls = " ".join(map(str, check.rolls))
    modifier = f" {check.modifier:+d}" if check.modifier else ""
    against = f" vs {check.dc}" if check.dc is not None else ""
    outcome = (check.result or "").replace("_", " ")
    if check.outcome:
        outcome = f"{outcome} ({check.outcome})"
    chance = f" · chance {_exact(check.chance)}" if check.chance is not None else ""
    return (f"🎲 {check.skill}{who}: {check.dice} [{rolls}]{modifier} = {check.total}"
            f"{against} → {outcome}{chance}")


def _exact(chance: float) -> str:
    """The chance as the fraction it was worked out as (the engine's odds are exact fractions;
    the record keeps their float, from which a die-sized denominator comes back) and a percent."""
    fraction = Fraction(chance).limit_denominator(1_000_000)
    if fraction in (0, 1) or float(fraction) != chance:
        return f"{chance:.2%}"
    return f"{fraction.numerator}/{fraction.denominator} = {chance:.2%}"
