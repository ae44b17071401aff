"""The lines that teach the Game Master ``[dice:]`` for one ruleset (for the GM's view).

Pure: a ruleset in, text out. The GM's view places it in its rules block, so it depends only on the
ruleset and stays byte-identical from turn to turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from middleware.rules.kinds.dice_sum import DiceSum

if TYPE_CHECKING:
    from middleware.rules.ruleset import Ruleset


def dice_lines(ruleset: Ruleset) -> str:
    """How to ask for a plain roll, with the ruleset's own dice where it has them."""
    lines = [
        "Plain rolls that are not checks (damage, coins found, hours lost): write "
        '[dice: 2d6+3] or [dice: roll="2d6+3" for="damage"]. The engine throws them and writes '
        'back rolls= and total=; never make up the numbers.',
        "Notation: NdM (d20 is one die), + and - constants, kh/kl to keep the highest or lowest "
        "(4d6kh3), dF for a Fate die, d% for d100; at most 100 dice of at most 1000 sides.",
    ]
    resolution = getattr(ruleset, "resolution", None)
    if isinstance(resolution, DiceSum) and resolution.dice.faces is not None:
        faces = ", ".join(str(f) for f in resolution.dice.faces)
        lines.append(f"dF throws this game's own die (faces {faces}).")
    dice = getattr(resolution, "dice", None)
    if str(getattr(resolution, "kind", "")) == "symbol-pool" and isinstance(dice, (list, tuple)):
        names = ", ".join(str(getattr(d, "label", d)) for d in dice)
        lines.append(f"This game's symbol dice roll by name: [dice: 2 {_first(dice)} vs 1 "
                     f"{_last(dice)}] (dice: {names}).")
    return "\n".join(lines)


def _first(dice: Sequence[object]) -> str:
    return str(getattr(dice[0], "label", dice[0])).lower()


def _last(dice: Sequence[object]) -> str:
    return str(getattr(dice[-1], "label", dice[-1])).lower()
