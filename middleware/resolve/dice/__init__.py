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
from middleware.resolve.checks.symbol_roll import roll_symbols
from middleware.resolve.dice.notation import Notation, read_notation
from middleware.resolve.dice.record import DiceRecord
from middleware.resolve.dice.throw import throw_notation
from middleware.rules.kinds.sum import DiceSum
from middleware.segments import Tag
from middleware.state import GameState

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset

__all__ = ["DiceRecord", "dice_instructions", "resolve_dice", "ruleset_faces"]


def resolve_dice(tag: Tag, state: GameState, ctx: Context) -> Resolution:
    """Throw the roll the tag names; the state is returned unchanged."""
    text = (tag.get("roll", "dice") or " ".join(tag.words)).strip()
    notation = read_notation(text, ruleset_faces(ctx))
    if isinstance(notation, str):
        record = _symbols(tag, text, ctx) or IgnoredRecord(
            tag="dice", reason="unreadable", source=tag.raw, feedback=clean_value(notation))
        return Resolution(state, record)
    return Resolution(state, _thrown(tag, notation, ctx))


def ruleset_faces(ctx: Context) -> tuple[int, ...] | None:
    """The face list of the ruleset's own check dice (``resolution.dice.faces``), if any."""
    resolution = ctx.ruleset.resolution
    return resolution.dice.faces if isinstance(resolution, DiceSum) else None


def _thrown(tag: Tag, notation: Notation, ctx: Context) -> DiceRecord:
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
        who=tag.get("who"), purpose=tag.get("for"), feedback=clean_value(said), source=tag.raw)


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
