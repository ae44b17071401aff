"""The rules block's item parts: inventory actions, the ruleset's items, money, loot, proposals
and the MARKET teaching, each only where the ruleset has the rule behind it.

- ITM-BAG-11: equip/unequip only with ``slots``, bind/unbind only with ``binding``;
- ITM-BAG-07 / ITM-BLOCK-23/24: the native and freeform rules in one sentence;
- ITM-ENTRY-18 and ITM-BLOCK-06: items by ``gm_item_line`` (``promptVisible: false`` stats never
  shown); ITM-MONEY-15, ITM-LOOT-15, ITM-PROPOSE-17: the existing instruction writers;
- ITM-MARKET-25 / ITM-DAY-13: the MARKET teaching, the instruction lines of ``market_block``
  (read off a game with no place named, so they never change with the state).
"""

from __future__ import annotations

from collections.abc import Iterator

from middleware.gm_view.parts import Part
from middleware.items.describe import gm_item_line
from middleware.items.index import item_index
from middleware.items.loot import loot_instructions
from middleware.items.money import money_instructions
from middleware.items.propose import propose_instructions
from middleware.items.words import words_of
from middleware.resolve.market.block import is_market_day, market_block
from middleware.rules.layers import removed
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState


def item_parts(ruleset: Ruleset, layers: tuple[str, ...]) -> list[Part]:
    """The item parts of the rules block (none for a ruleset without an items block)."""
    if ruleset.items is None:
        return [Part("inventory", "INVENTORY", tuple(_plain_inventory()))]
    instructions = [money_instructions(ruleset), loot_instructions(ruleset)]
    return [Part("inventory", "INVENTORY", tuple(_inventory(ruleset))),
            Part("money", "MONEY AND LOOT", tuple(i for i in instructions if i)),
            Part("propose", "NEW ITEMS",
                 (*_lines(propose_instructions(ruleset)), *_caps(ruleset))),
            Part("market", "", tuple(market_teaching(ruleset))),
            Part("items", "ITEMS OF THIS GAME", tuple(_items(ruleset, layers)))]


def market_teaching(ruleset: Ruleset) -> list[str]:
    """``MARKET`` and its instruction lines; [] for a ruleset without a market (ITM-MARKET-25)."""
    block = market_block(ruleset, GameState(ruleset=ruleset.id), 0)
    lines = block.splitlines()
    return lines[:-1] if lines else []


def _plain_inventory() -> Iterator[str]:
    yield ('Add, remove and give things with [inventory: action="add" item="<name>" count="1" '
           'who="<name>"] (action="remove", action="give" with to="<name>").')


def inventory_actions(ruleset: Ruleset) -> list[str]:
    """The inventory actions this ruleset has (ITM-BAG-11): the bag's own, equip and unequip only
    with slots, bind and unbind only with binding, pay and earn only with coins, buy only with a
    market and sell only on a market day (as the MARKET teaching says). Tool mode's ``inventory``
    function offers exactly these."""
    block = ruleset.items
    if block is None:
        return ["add", "remove", "give"]
    actions = ["add", "remove", "give", "use", "inspect", "reveal"]
    actions += ["equip", "unequip"] if block.slots else []
    actions += ["bind", "unbind"] if block.binding else []
    actions += ["pay", "earn"] if block.currencies else []
    actions += ["buy"] if block.market else []
    return actions + (["sell"] if block.market and is_market_day(block.market) else [])


def _inventory(ruleset: Ruleset) -> Iterator[str]:
    block = ruleset.items
    assert block is not None
    bag = [a for a in inventory_actions(ruleset) if a not in ("pay", "earn", "buy", "sell")]
    if block.binding:  # taught with the binding's own name
        bag[bag.index("bind"):bag.index("unbind") + 1] = [f"bind, unbind ({block.binding.label})"]
    yield ('Write [inventory: action="<action>" item="<name>" count="1" who="<name>"]; give also '
           'takes to="<name>". Actions here: ' + ", ".join(bag) + ".")
    if not block.native:
        yield ("Only this game's items and items you invent can be added; more of something "
               "already held is fine.")
    elif block.freeform == "refuse":
        yield "A name that is no item of this game is refused."
    else:
        yield "A name that is no item of this game is kept as a plain item."
    yield ("Nothing goes past anyone's carrying limit: what nobody can carry stays behind, and "
           "you are told.")


def _items(ruleset: Ruleset, layers: tuple[str, ...]) -> Iterator[str]:
    index = item_index(ruleset)
    words = words_of(ruleset)
    gone = removed(ruleset, layers).items
    for found in index.items:
        if found.ref not in gone:
            yield gm_item_line(found, index, words)


def _caps(ruleset: Ruleset) -> Iterator[str]:
    """ITM-BLOCK-20: the most an invented item of each rarity may give (visible stats only)."""
    block = ruleset.items
    if block is None or not block.propose:
        return
    rarities = {r.id: r.label for r in block.rarities}
    stats = {s.id: s.label for s in block.stats if s.prompt_visible}
    for cap in block.rarity_caps:
        parts = [f"{stats[k]} {v:g}" for k, v in cap.stats.items() if k in stats]
        parts += [f"bonus +{cap.bonus}"] if cap.bonus is not None else []
        if parts:
            yield f"At most, {rarities.get(cap.rarity, cap.rarity)}: {', '.join(parts)}."


def _lines(text: str | None) -> list[str]:
    return text.splitlines() if text else []
