"""The State block: where the game stands as the next turn starts, and what the last turn did.

Parts, in order of need (the budget cuts from the end): what the last turn's tags did (the
``feedback`` line of every record of the candidate kept, CHK-COMMON / ITM-BAG-16 / ITM-PROPOSE-12),
the party's numbers (``state_party``), the bags, their status and the purses (``state_bags``), and
the place in force with the day's MARKET block (ITM-MARKET-24, ITM-DAY-13) without the teaching
lines, which the rules block already holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from middleware.gm_view.parts import Part, ViewOptions, capped, joined, safe
from middleware.gm_view.rules_items import market_teaching
from middleware.gm_view.state_bags import bag_lines, purse_text, status_lines
from middleware.gm_view.state_party import party_lines
from middleware.records import Record
from middleware.resolve.market.block import market_block
from middleware.resolve.market.day import size_of
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState

TITLE = "GAME STATE (gm-middleware; authoritative, as this turn starts)"


def state_block(ruleset: Ruleset, state: GameState, records: Iterable[Record],
                options: ViewOptions, *, seed: int, budget: int) -> str:
    """The State block for ``state`` after the kept candidate's ``records``, within ``budget``."""
    yours = "function calls" if options.tools else "tags"
    parts = [Part("last_turn", f"LAST TURN (what the Engine did with your {yours})",
                  tuple(_feedback(records))),
             Part("party", "PARTY", tuple(party_lines(ruleset, state))),
             Part("bags", "BAGS", tuple(bag_lines(ruleset, state)) if ruleset.items else ()),
             Part("load", "LOAD AND SLOTS", tuple(status_lines(ruleset, state))),
             Part("purses", "PURSES", tuple(purse_text(ruleset, state))),
             Part("place", "PLACE", tuple(_place(ruleset, state, seed)))]
    return joined(capped(parts, options), budget, TITLE)


def _feedback(records: Iterable[Record]) -> Iterator[str]:
    for record in records:
        if record.feedback:
            who = f" ({safe(record.who)})" if record.who else ""
            yield f"- {record.tag}{who}: {safe(record.feedback)}"


def _place(ruleset: Ruleset, state: GameState, seed: int) -> Iterator[str]:
    where = state.place
    if where is None:
        yield "No place named yet."
        return
    found = size_of(ruleset, where)
    size = f" ({found.label})" if found is not None else ""
    yield f"The scene is at {safe(where.name)}{size}, day {where.day}."
    teaching = set(market_teaching(ruleset))
    block = market_block(ruleset, state, seed).splitlines()
    yield from (line for line in block if line not in teaching or line == "MARKET")
