"""The rules block's branch part: how to write a branch block, in a game with branch blocks on.

Taught only when the game reads them (``GameState.branches``); never in a game without them, where
the markers would be prose. The section labels are this ruleset's outcome tiers, if it has any, and
``success`` / ``failure`` always.
"""

from __future__ import annotations

from middleware.gm_view.parts import Part, safe
from middleware.rules.ruleset import Ruleset

_FORM = ("Right after a [skill_check:], write what happens for each result and end with [/branch]: "
         "[on success] ... [on failure] ... [/branch]. The Engine throws the dice, keeps the "
         "section the result chose and drops the others; the player never sees them.")
_RULES = ("Tags inside a section happen only if that section is kept, after the check; the ones in "
          "the sections dropped never happen. One block per check, none inside another; never "
          "write the result yourself.")


def branch_part(ruleset: Ruleset) -> Part:
    """The BRANCH BLOCKS part for ``ruleset``."""
    outcomes = ruleset.resolution.outcomes
    lines = [_FORM]
    if outcomes is not None:
        labels = ", ".join(f"[on {safe(t.label)}]" for t in outcomes.tiers)
        lines.append(f"A section may name an outcome instead: {labels}. A result with no section "
                     "of its own keeps [on success] or [on failure].")
    return Part("branches", "BRANCH BLOCKS", (*lines, _RULES))
