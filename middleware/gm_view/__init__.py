"""The Game Master's view (faces layer): what the model is told about the rules and the party.

``build_view(ruleset, state, records, options, seed=...)`` is pure: from the ruleset (with the
game's layers, read off ``state.layers``, and branch blocks when ``state.branches``), the state
the next turn starts from and the records of the candidate kept last turn, it builds two blocks
of text:

- ``rules``: how to write each tag for this ruleset only; byte-identical from turn to turn for the
  same ruleset and layers (so providers' prompt caches hit);
- ``state``: each character's numbers, live state, bag, load, purse, the place and the day's
  MARKET block, and what the last turn's tags did.

The proxy injects both into every upstream request (``middleware.proxy.inject``), the CLI's
``peek`` prints them and bot adapters put them in their own prompts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from middleware.gm_view.parts import ViewOptions, safe
from middleware.gm_view.rules_block import rules_block
from middleware.gm_view.state_block import state_block
from middleware.records import Record
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState

__all__ = ["GMView", "ViewOptions", "build_view", "safe"]


@dataclass(frozen=True, slots=True)
class GMView:
    """The two blocks: ``rules`` (stable for the game) and ``state`` (this turn's)."""

    rules: str
    state: str


def build_view(ruleset: Ruleset, state: GameState, records: Iterable[Record] = (),
               options: ViewOptions | None = None, *, seed: int = 0) -> GMView:
    """The GM's view of a game of ``ruleset`` whose next turn starts from ``state``; ``records``
    are the kept candidate's of the turn before, ``seed`` the game seed (the market's stock)."""
    options = options or ViewOptions()
    rules = rules_block(ruleset, state.layers, options, state.branches)
    left = max(options.budget - len(rules), 0)
    return GMView(rules, state_block(ruleset, state, records, options, seed=seed, budget=left))
