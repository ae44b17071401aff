"""``[dice: …]``: a plain roll that is not a check (damage, coins found, hours lost).

``[dice: 2d6+3]`` or ``[dice: roll="2d6+3"]`` is thrown through the engine's dice seam and written
back as ``[dice: roll="2d6+3" rolls="4|2" total="9"]``. The notation is ``grammar/dice.lark``
(``notation.py``); a symbol-pool ruleset's own dice may be rolled by name too
(``[dice: 2 tuned vs 1 static]``, CHK-SYM-19). A roll that cannot be read stays as written and is
an ``ignored`` record saying why. Nothing in the game's state changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from middleware.records import IgnoredRecord, clean_value
from middleware.resolve import Context, Resolution
from middleware.resolve.checks.symbol_pool.roll import roll_symbols
from middleware.resolve.dice.notation import Notation, read_notation
from middleware.resolve.dice.record import DiceRecord
from middleware.resolve.dice.throw import throw_notation
from middleware.rules.kinds.dice_sum import DiceSum
from middleware.segments import Tag
from middleware.state import GameState

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset

__all__ = ["DiceRecord", "dice_instructions", "resolve_dice", "ruleset_faces"]


def resolve_dice(tag: Tag, state: GameState, ctx: Context) -> Resolution:
    """Throw the roll the tag names; the state is returned unchanged. A text that is no roll is
    tried as the ruleset's symbol dice by name, then as a roll followed by what it is for
    (``[dice: 2d6+3 for damage]``)."""
    written = tag.get("roll", "dice")
    text = (written or " ".join(tag.words)).strip()
    faces = ruleset_faces(ctx)
    notation = read_notation(text, faces)
    if not isinstance(notation, str):
        return Resolution(state, _thrown(tag, notation, ctx, None))
    symbols = _symbols(tag, text, ctx)
    if symbols is not None:
        return Resolution(state, symbols)
    found = _leading_roll(tag.words, faces) if written is None else None
    if found is not None:
        return Resolution(state, _thrown(tag, found[0], ctx, found[1]))
    return Resolution(state, IgnoredRecord(tag="dice", reason="unreadable", source=tag.raw,
                                           feedback=clean_value(notation)))


MAX_WORDS = 12
"""Bare words tried as a roll followed by what it is for: beyond them a tag is not read as one."""


def _leading_roll(words: tuple[str, ...],
                  faces: tuple[int, ...] | None) -> tuple[Notation, str] | None:
    """The longest run of leading words that reads as a roll with dice in it, and the words
    after it; None when there is none."""
    if len(words) > MAX_WORDS:
        return None
    for count in range(len(words) - 1, 0, -1):
        notation = read_notation(" ".join(words[:count]), faces)
        if not isinstance(notation, str) and notation.groups:
            return notation, " ".join(words[count:])
    return None


def ruleset_faces(ctx: Context) -> tuple[int, ...] | None:
    """The face list of the ruleset's own check dice (``resolution.dice.faces``), if any."""
    resolution = ctx.ruleset.resolution
    return resolution.dice.faces if isinstance(resolution, DiceSum) else None


def _thrown(tag: Tag, notation: Notation, ctx: Context, rest: str | None) -> DiceRecord:
    thrown = throw_notation(notation, ctx.dice)
    said = f"{notation.text}: {' '.join(str(r) for r in thrown.rolls) or 'no dice'}"
    if thrown.keeps:
        said += f", kept {' '.join(str(k) for k in thrown.kept)}"
    said += f" = {thrown.total}."
    if notation.clamped:
        said += " " + "; ".join(notation.clamped) + "."
    return DiceRecord.trusted(
        status="resolved", roll=notation.text, rolls=list(thrown.rolls),
        kept=list(thrown.kept) if thrown.keeps else None, total=thrown.total,
        who=tag.get("who"), purpose=tag.get("for") or _purpose(rest),
        feedback=clean_value(said), source=tag.raw)


def _purpose(rest: str | None) -> str | None:
    """``for damage`` after the roll: what it was for, without the ``for``."""
    if rest is None:
        return None
    words = rest.split()
    return clean_value(" ".join(words[1:] if words[0].lower() == "for" else words)) or None


def _symbols(tag: Tag, text: str, ctx: Context) -> DiceRecord | None:
    """A symbol-pool ruleset's dice by name (CHK-SYM-19); None when they are not that either."""
    if str(ctx.ruleset.resolution.kind) != "symbol-pool" or not text:
        return None
    rolled = roll_symbols(ctx.ruleset, text, ctx.dice)
    if rolled.error or rolled.reading is None:
        return None
    return DiceRecord.trusted(
        status="resolved", roll=clean_value(text), rolls=[t.face for t in rolled.dice],
        symbols=clean_value(rolled.symbols or "nothing"), total=rolled.reading.total,
        who=tag.get("who"), purpose=tag.get("for"),
        feedback=clean_value(rolled.summary or ""), source=tag.raw)


def dice_instructions(ruleset: Ruleset) -> str:
    """The lines that teach the Game Master ``[dice:]`` for ``ruleset`` (the GM's view)."""
    from middleware.resolve.dice.teach import dice_lines

    return dice_lines(ruleset)
