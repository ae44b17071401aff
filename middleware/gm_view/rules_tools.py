"""The rules block in tool mode (``serve --tools``): the model calls functions, it writes no tags.

The functions' own schemas (``middleware.proxy.tools.schemas``) carry the form of each call and
enumerate the names it takes; this block says when to call which, that the Engine throws and
counts, and the facts a call needs that a schema cannot hold: what a check rolls, the ladder, the
outcome tiers, spends and charms, the coins, the loot tables, the market's sizes and the items of
the game. It teaches no tag: a model told both ways writes both.
"""

from __future__ import annotations

from collections.abc import Iterator

from middleware.gm_view.parts import Part
from middleware.gm_view.rules_checks import check_parts, roll_line
from middleware.gm_view.rules_items import item_parts
from middleware.items.index import item_index
from middleware.items.loot import loot_tables
from middleware.items.money import coin_list
from middleware.resolve.market.day import market_of
from middleware.rules.common import Rung
from middleware.rules.ruleset import Ruleset

ENGINE = ("The Engine throws every die and applies every change. In this game you call functions; "
          "you never write tags. Call skill_check when an action is risky, inventory when "
          "something is taken, given, used, paid, earned, bought or sold, place when the scene "
          "moves, loot when something is found, sheet for damage, healing, conditions and rests, "
          "and dice for a plain roll. Call each where it happens in the story, wait for its "
          "answer, then narrate what the answer says: a failed check fails. Never write rolls, "
          "totals, results or what a bag holds yourself. The resolved tags in earlier replies "
          "are the Engine's record of what really happened; do not write them.")

_KEPT_CHECK_PARTS = ("names", "ladder", "tiers", "spends", "charms")


def tool_parts(ruleset: Ruleset, layers: tuple[str, ...], ladder: tuple[Rung, ...]) -> list[Part]:
    """The parts of the tool-mode rules block after the guidance, in the order the model needs."""
    checks = [p for p in check_parts(ruleset, ladder) if p.name in _KEPT_CHECK_PARTS]
    items = [p for p in item_parts(ruleset, layers) if p.name == "items"]
    return [Part("checks", "CHECKS", (roll_line(ruleset.resolution),
                                      "Without who the player rolls.")),
            *checks,
            Part("goods", "MONEY, LOOT AND MARKET", tuple(_goods(ruleset))),
            *items]


def _goods(ruleset: Ruleset) -> Iterator[str]:
    index = item_index(ruleset)
    coins = coin_list(index) if index.block and index.block.currencies else ""
    if coins:
        yield f"Coins: {coins}. Pay and earn with inventory (action pay or earn, amount)."
    tables = loot_tables(ruleset)
    if tables:
        yield "Loot tables: " + ", ".join(f"{t.id} ({t.label})" for t in tables) + "."
    market = market_of(ruleset)
    if market is not None:
        sizes = ", ".join(f"{s.id} ({s.label})" for s in market.places)
        yield (f"Call place with the scene's name and size (sizes: {sizes}) before anyone buys or "
               "sells; a buy is priced at the place in force at the end of the reply.")
