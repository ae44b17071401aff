"""The pools part of the ``--json`` state summary (SHEET-TRN-06, SPEC §7)."""

from __future__ import annotations

from middleware.sheet.check import view_for
from middleware.sheet.rules_view import RulesetLike
from middleware.state import Character, GameState


def pools_summary(ruleset: RulesetLike, character: Character,
                  state: GameState | None = None) -> dict[str, int]:
    """Every pool the character has, by key, with the value as read (SHEET-LIVE-04), row pools
    included (``"tricks:second breath"``); ``state`` lets a maximum read invented items."""
    pools = view_for(ruleset, character, state=state).live.pools()
    return {key: value for key, (value, _) in pools.items()}
