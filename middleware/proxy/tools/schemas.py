"""The functions the proxy offers the model in tool mode, one per tag family, from the ruleset.

Each function's parameters are the attributes the tag grammar reads for that tag (README "The tag
language"), and only those this ruleset uses: ``skill_check`` names its skills, saves and
abilities as an enum and offers only the attributes its resolution kind reads; ``inventory`` lists
the actions this ruleset has (equip only with slots, bind only with binding, pay and earn only with
coins, buy and sell only with a market); ``place``, ``loot`` and ``sheet`` enumerate the sizes,
tables, pools, tracks and rests by id. No parameter carries a result (``rolls``, ``total``,
``result``, ``now``): the Engine throws and counts, and every property not listed is dropped
(``additionalProperties: false``, and ``calls.tag_text`` reads only listed keys).

Pure and worked out once per ruleset object and layers, so the tool list sent upstream is the same
on every turn (providers' prompt caches hit).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from middleware.cache import IdentityCache
from middleware.gm_view.rules_items import inventory_actions
from middleware.items.loot import loot_tables
from middleware.json_input import JsonObject
from middleware.resolve.market.day import market_of
from middleware.resolve.sheet import OPS
from middleware.rules.layers import ladder_of
from middleware.rules.resolution import AnyResolution, DiceHighest, DicePool, DiceSum, RollAgainst, SymbolPool
from middleware.rules.ruleset import Ruleset

Schema = JsonObject
"""A JSON Schema object as sent upstream: a ``tools`` entry, a map of properties, or one property."""

ENGINE_TOOLS: Final = ("skill_check", "inventory", "place", "loot", "sheet", "dice")
"""The functions the Engine answers itself, named as the tags they stand for."""

FLAGS: Final = {"sheet": ("mark", "clear", "remove")}
"""Boolean parameters written as a bare word in the tag (``[sheet: op="track" mark]``)."""

_TOOLS: IdentityCache[tuple[Schema, ...]] = IdentityCache(64)

_WHO = "the character, by name (default: the player)"


def engine_tools(ruleset: Ruleset, layers: tuple[str, ...] = ()) -> tuple[Schema, ...]:
    """The OpenAI ``tools`` entries of the six functions for a game of ``ruleset``."""
    return _TOOLS.get((ruleset,), layers, lambda: _build(ruleset, layers))


def _build(ruleset: Ruleset, layers: tuple[str, ...]) -> tuple[Schema, ...]:
    return (_tool("skill_check", _CHECK, _check(ruleset, layers), ["skill"]),
            _tool("inventory", _INVENTORY, _inventory(ruleset), ["action"]),
            _tool("place", _PLACE, _place(ruleset), ["name"]),
            _tool("loot", _LOOT, _loot(ruleset), ["table"]),
            _tool("sheet", _SHEET, _sheet(ruleset), ["op"]),
            _tool("dice", _DICE, _dice(), ["roll"]))


def _tool(name: str, what: str, properties: Schema, required: list[str]) -> Schema:
    return {"type": "function",
            "function": {"name": name, "description": what,
                         "parameters": {"type": "object", "properties": properties,
                                        "required": [r for r in required if r in properties],
                                        "additionalProperties": False}}}


def _text(description: str, choices: Sequence[str] | None = None) -> Schema:
    found: Schema = {"type": "string", "description": description}
    return {**found, "enum": [*choices]} if choices else found


def _number(description: str, low: int | None = None, high: int | None = None) -> Schema:
    bounds = {**({"minimum": low} if low is not None else {}),
              **({"maximum": high} if high is not None else {})}
    return {"type": "integer", "description": description, **bounds}


_CHECK = ("Roll a check when an action is risky. The Engine throws the dice and answers with the "
          "resolved check (rolls, total, result); narrate what the result says.")
_INVENTORY = ("Change a bag or purse: add, remove, give, use, pay, earn, buy, sell ... The Engine "
              "applies it and answers with what moved and what the bag holds now.")
_PLACE = "Name the place the scene is in (and its size, where there is a market)."
_LOOT = "Draw from a loot table; the Engine throws the dice and adds what falls to a bag."
_SHEET = ("Change a character's live sheet: damage, heal, temp, track, condition, state, note, "
          "rest, use. The Engine applies it and answers with what the sheet holds now.")
_DICE = "A plain roll that is not a check (damage dealt, coins found); the Engine throws it."


def _check(ruleset: Ruleset, layers: tuple[str, ...]) -> Schema:
    sheet, res = ruleset.sheet, ruleset.resolution
    names = [*(s.label for s in (*sheet.skills, *sheet.saves)), *(a.label for a in sheet.abilities)]
    ladder = [r.label for r in ladder_of(ruleset, layers)]
    names = list(dict.fromkeys(names))  # a save may share its ability's label
    found: Schema = {"skill": _text("the skill, save or ability checked", names or None),
                     "dc": _number("the difficulty (a number)"),
                     **({"difficulty": _text("a rung of the difficulty ladder (dc wins when both "
                                             "are given)", ladder)} if ladder else {}),
                     "who": _text(_WHO)}
    if sheet.abilities:
        found["with"] = _text("roll with another ability", [a.label for a in sheet.abilities])
    found.update(_kind_attributes(res))
    if res.spend:
        found["spend"] = _text('points offered to a spend rule, "pool:N"')
    charms = [e.label for c in ruleset.catalogs for e in c.entries
              if e.mechanics is not None and e.mechanics.check is not None]
    if charms:
        found["use"] = _text("a catalog entry the roller has marked on their sheet", charms)
    return found


def _kind_attributes(res: AnyResolution) -> Schema:
    """Only the attributes this resolution kind and its keys read (as the rules block says)."""
    found: Schema = {}
    if isinstance(res, DiceSum) and res.advantage:
        found["mode"] = _text("roll twice and keep the better or worse",
                              ["advantage", "disadvantage"])
    if isinstance(res, DicePool):
        if res.target.min < res.target.max:
            found["threshold"] = _number("the per-die target", res.target.min, res.target.max)
        for word, rule in (("explode", res.explode), ("double", res.double)):
            if rule is not None and rule.min is not None:
                found[word] = _number(f"the face the {word} rule applies from", rule.min)
        if res.reroll:
            found["reroll"] = _text("a named free re-roll", [r.id for r in res.reroll])
    if isinstance(res, DicePool | DiceHighest) and res.situational_dice is not None:
        found["bonus"] = _number("dice added (negative: taken)", res.situational_dice.min,
                                 res.situational_dice.max)
    if isinstance(res, DiceHighest) and res.dark is not None:
        found["dark"] = _number(f"{res.dark.label} added", 0, res.dark.max)
    if isinstance(res, RollAgainst) and res.tens is not None:
        found["bonus"] = _number("bonus (negative: penalty) tens dice", -res.tens.max, res.tens.max)
    if isinstance(res, SymbolPool):
        found.update(_symbol_attributes(res))
    return found


def _symbol_attributes(res: SymbolPool) -> Schema:
    found: Schema = {}
    if res.difficulty.upgrade:
        found["upgrade"] = _number("opposing dice upgraded", 0)
    if res.setback is not None:
        found["setback"] = _number("setback dice added", 0, res.setback.max)
    if res.boost is not None or res.setback is not None:
        found["bonus"] = _number("boost dice added (negative: setback dice)")
    if res.allow_own_upgrade:
        found["upgradeOwn"] = _number("the roller's own dice upgraded", 0)
    return found


def _inventory(ruleset: Ruleset) -> Schema:
    market = market_of(ruleset)
    actions = inventory_actions(ruleset)  # never empty: the bag's own add, remove, give
    found: Schema = {"action": _text("what happens", actions),
                     "item": _text("the item, by name"),
                     "count": _number("how many (default 1)", 1),
                     "who": _text("whose bag (default: the player)"),
                     "to": _text("who receives it (give)")}
    if "pay" in actions:
        found["amount"] = _text('money paid or earned (pay, earn), e.g. "3 shillings"')
    if market is not None:
        found["level"] = _text("the price level of a purchase", [p.id for p in market.prices])
        found["seller"] = _text("who sells or buys (buy, sell)")
    found["with"] = _text("how an inspect looks through fakes")
    if ruleset.items is not None and ruleset.items.propose:
        for key in ("like", "category", "rarity", "tags", "stats", "slots", "worn", "carried",
                    "summary"):
            found[key] = _text(f"invent an item on add: {key}")
    return found


def _place(ruleset: Ruleset) -> Schema:
    market = market_of(ruleset)
    found: Schema = {"name": _text("the place the scene is in")}
    if market is not None:
        found["size"] = _text("the place's size (sets what the market sells)",
                              [p.id for p in market.places])
        found["day"] = _text("start a new market day", ["new"])
    return found


def _loot(ruleset: Ruleset) -> Schema:
    tables = [t.id for t in loot_tables(ruleset)]
    return {"table": _text("the loot table", tables or None),
            "who": _text("whose bag it falls into (default: the carry rule)")}


def _sheet(ruleset: Ruleset) -> Schema:
    live = ruleset.sheet.live
    ops = [op for op in OPS if _has_op(ruleset, op)]
    found: Schema = {"op": _text("what changes", ops), "who": _text(_WHO),
                     "amount": _text('how much: a whole number or a roll ("2", "1d6")')}
    if live.pools:
        found["pool"] = _text("the pool", [p.id for p in live.pools])
    if live.tracks:
        found["track"] = _text("the track", [t.id for t in live.tracks])
        kinds = sorted({k.id for t in live.tracks for k in t.kinds or ()})
        if kinds:
            found["kind"] = _text("the kind of wound mark", kinds)
        if any(t.indexed for t in live.tracks):
            found["box"] = _number("the box the mark goes on (a track that fills by box)", 1)
        found["mark"] = {"type": "boolean", "description": "op=track: raise it by amount"}
        found["clear"] = {"type": "boolean", "description": "op=track: lower it by amount"}
    found["value"] = _text("op=track: the value to set; op=state: one of the state's values")
    found["name"] = _text("the condition, state, note field or ability meant")
    found["remove"] = {"type": "boolean", "description": "op=condition: lift it"}
    found["level"] = _number("a levelled condition's level", 0)
    found["text"] = _text("op=note: the note")
    if ruleset.rests:
        found["rest"] = _text("op=rest: the rest taken", [r.id for r in ruleset.rests])
    return found


def _has_op(ruleset: Ruleset, op: str) -> bool:
    """Whether this ruleset's sheet has what ``op`` changes (a spend is written on the check)."""
    live = ruleset.sheet.live
    needs = {"temp": any(p.allow_temp for p in live.pools), "track": bool(live.tracks),
             "condition": bool(live.conditions), "state": bool(live.states),
             "note": bool(live.text), "rest": bool(ruleset.rests), "use": bool(ruleset.catalogs),
             "spend": False}
    return needs.get(op, True)


def _dice() -> Schema:
    return {"roll": _text('dice notation: "2d6+3", "d20", "4d6kh3", "dF", "d%"'),
            "for": _text("what the roll is for")}
