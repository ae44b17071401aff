"""How an item is put in words for the Game Master and the player (ITM-ENTRY-07, -17..22).

Pure functions from an item (and the ruleset's ``Words``) to text, for the proxy to put in the
prompt. The forms are the page's own:

- ``Hand axe [Weapon, Common, Thrown; Damage 1d6, Reach close]`` (ITM-ENTRY-18),
- ``costs 3 shillings`` (ITM-ENTRY-07, ITM-MONEY-06),
- ``worn: -1 on checks (Sneak)`` / ``While worn: -1 on checks (Sneak)`` (ITM-ENTRY-19),
- ``use (Act): Steel 7 save negates it, Rattled, 1 of 3 charges`` /
  ``Use (Action): heals 1d4 + 1, range 0 paces, used up`` (ITM-ENTRY-22),
- ``2 of 3 charges left`` (ITM-ENTRY-22, ITM-USE-14);
- a weapon's attack, ammunition and extras: ``describe_attack.py`` (ITM-ENTRY-20/21).
"""

from __future__ import annotations

from typing import Literal

from middleware.items.describe_attack import attack_text
from middleware.items.index import ItemIndex, RulesetItem
from middleware.items.words import Words
from middleware.rules.combat import Modifier
from middleware.rules.item_entry import (
    DiceAmount,
    Item,
    ItemEffect,
    ItemUse,
    Resistance,
    StatRef,
)
from middleware.rules.items import ItemsBlock

_LEANS = {"own-checks-advantage": "advantage on checks",
          "own-checks-disadvantage": "disadvantage on checks",
          "own-saves-advantage": "advantage on saves",
          "own-saves-disadvantage": "disadvantage on saves"}
_SAVE_RESULTS = {"negates": "negates it", "half": "halves it", "none": "does not stop it"}


def item_line(found: RulesetItem, block: ItemsBlock | None, words: Words) -> str:
    """ITM-ENTRY-18: name, then category, rarity and tags, then the visible stats it gives."""
    item = found.item
    kinds = [words.say("categories", item.category)]
    kinds += [words.say("rarities", item.rarity)] if item.rarity else []
    kinds += [words.say("tags", t) for t in item.tags]
    stats = [f"{s.label} {_value(item.stats[s.id])}" for s in (block.stats if block else ())
             if s.prompt_visible and s.id in item.stats]
    inside = ", ".join(kinds) + ("; " + ", ".join(stats) if stats else "")
    return f"{found.label} [{inside}]"


def cost_text(item: Item, index: ItemIndex) -> str | None:
    """ITM-ENTRY-07 / ITM-MONEY-17: ``costs 3 shillings``, a single coin by its ``one`` name."""
    if item.cost is None:
        return None
    coin = index.coin(item.cost.unit)
    name = coin.name_for(item.cost.amount) if coin else item.cost.unit
    return f"costs {item.cost.amount} {name}"


def effect_text(when: Literal["worn", "carried"], effect: ItemEffect, words: Words, *,
                gm: bool) -> str:
    """ITM-ENTRY-19: ``worn: ...`` for the Game Master, ``While worn: ...`` on the stack."""
    parts = [_modifier(m, effect, words) for m in effect.modifiers]
    parts += [_LEANS.get(e, e.replace("-", " ")) for e in effect.effects]
    if effect.fails_saves:
        parts.append(f"fails saves ({_names(effect.fails_saves, 'saves', words)})")
    parts += [_ability(a, c.set, c.add, words) for a, c in effect.abilities.items()]
    parts += [f"resists {_defence(d)}" for d in effect.resist]
    parts += [f"vulnerable to {v}" for v in effect.vulnerable]
    parts += [f"immune to {_defence(d)}" for d in effect.immune]
    parts += [f"immune to {words.say('conditions', c)}" for c in effect.condition_immunities]
    head = when if gm else f"While {when}"
    return f"{head}: {', '.join(parts) if parts else 'no effect'}"


def use_text(item: Item, words: Words, *, gm: bool) -> str | None:
    """ITM-ENTRY-22: what one use does, in the order save, effect, range, what it spends."""
    use = item.use
    if use is None:
        return None
    parts: list[str | None] = [_save(use, item, words), *_effects(use, words)]
    if use.range is not None:
        parts.append(f"range {_value(use.range)} {words.distance or 'cells'}")
    if use.gate is not None:
        parts.append(_gate(use, item, words))
    parts.append(_spends(use, item))
    budget = "free" if use.free or use.budget is None else words.say("budgets", use.budget)
    return f"{'use' if gm else 'Use'} ({budget}): {', '.join(p for p in parts if p)}"


def charges_left(left: int, item: Item) -> str | None:
    """ITM-ENTRY-22 / ITM-USE-14: ``2 of 3 charges left`` next to the item."""
    capacity = _capacity(item)
    return None if capacity is None else f"{left} of {capacity} charges left"


def gm_item_line(found: RulesetItem, index: ItemIndex, words: Words, *,
                 charges: int | None = None, off_hand: str | None = None) -> str:
    """The whole inventory line the Game Master reads: the item line, then what else applies,
    each part after ``; `` (cost, attack, worn, carried, use, charges left); ``off_hand`` is the
    budget of an off-hand attack (``describe_attack.off_hand_budget``)."""
    item = found.item
    parts = [cost_text(item, index), attack_text(item, words, gm=True, off_hand=off_hand)]
    parts += [effect_text("worn", item.worn, words, gm=True)] if item.worn else []
    parts += [effect_text("carried", item.carried, words, gm=True)] if item.carried else []
    parts += [use_text(item, words, gm=True)]
    if item.charges is not None:
        parts.append(charges_left(_capacity(item) or 0 if charges is None else charges, item))
    return "; ".join([item_line(found, index.block, words), *(p for p in parts if p)])


# --- pieces ----------------------------------------------------------------------------------


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _signed(number: float) -> str:
    return f"{'+' if number > 0 else ''}{_value(number)}"


def _names(ids: tuple[str, ...] | list[str], kind: str, words: Words) -> str:
    return ", ".join(words.say(kind, i) for i in ids)


def _modifier(mod: Modifier, effect: ItemEffect, words: Words) -> str:
    """``-1 on checks (Sneak)``, ``+1d4 on saves``, ``advantage on attacks``."""
    amount: str
    if mod.mode is not None:
        amount = mod.mode
    elif mod.dice is not None:
        amount = f"{'-' if mod.minus else '+'}{mod.dice}"
    else:
        amount = _signed(mod.flat or 0)
    narrowed = mod.skills or mod.saves or (effect.skills if mod.to == "checks" else None) \
        or (effect.saves if mod.to == "saves" else None)
    kind = "saves" if mod.saves or mod.to == "saves" else "skills"
    return f"{amount} on {mod.to}" + (f" ({_names(narrowed, kind, words)})" if narrowed else "")


def _ability(ability: str, at_least: float | None, add: float | None, words: Words) -> str:
    name = words.say("abilities", ability)
    parts = [f"{_signed(add)} {name}"] if add is not None else []
    parts += [f"{name} at least {_value(at_least)}"] if at_least is not None else []
    return ", ".join(parts)


def _defence(defence: str | Resistance) -> str:
    if isinstance(defence, str):
        return defence
    return defence.type + (f" except {', '.join(defence.except_)}" if defence.except_ else "")


def _amount(amount: DiceAmount) -> str:
    """``1d4 + 1``, ``1d6``, ``2``."""
    flat = amount.flat or 0
    if amount.dice and flat:
        return f"{amount.dice} {'+' if flat > 0 else '-'} {abs(flat)}"
    return amount.dice or str(flat)


def _save(use: ItemUse, item: Item, words: Words) -> str | None:
    """``Steel 7 save negates it``."""
    save = use.save if isinstance(use.save, dict) else {}
    name = save.get("save")
    if not isinstance(name, str):
        return None
    dc = use.save_difficulty
    number = item.stats.get(dc.stat) if isinstance(dc, StatRef) else dc
    result = _SAVE_RESULTS.get(str(save.get("onSuccess")), "")
    text = f"{words.say('saves', name)}{' ' + _value(number) if number else ''} save"
    return f"{text} {result}".strip()


def _effects(use: ItemUse, words: Words) -> list[str]:
    """Heals / deals / temporary / restores, then the conditions it applies."""
    parts: list[str] = []
    if use.amount is not None:
        verb = "heals" if use.kind == "heal" else "deals"
        damage = f" {use.damage_type}" if use.damage_type and use.kind != "heal" else ""
        parts.append(f"{verb} {_amount(use.amount)}{damage}")
    if use.temporary is not None:
        parts.append(f"{_amount(use.temporary)} temporary")
    if use.restore is not None:
        pool = words.say("pools", use.restore.pool)
        parts.append(f"restores {_amount(use.restore.amount)} {pool}")
    applies = use.applies if isinstance(use.applies, list) else []
    named = [a.get("condition") for a in applies if isinstance(a, dict)]
    parts += [words.say("conditions", c) for c in named if isinstance(c, str)]
    return parts


def _gate(use: ItemUse, item: Item, words: Words) -> str:
    gate = use.gate
    assert gate is not None
    check = gate.check
    name = words.say("skills", check.skill) if check.skill else \
        words.say("abilities", check.ability or "") if check.ability else "a check"
    dc = gate.difficulty
    number = item.stats.get(dc.stat) if isinstance(dc, StatRef) else dc
    text = f"needs {name} {_value(number)} first"
    if gate.unless is not None:
        ref = gate.unless.value
        whose = words.say("abilities", ref.ability_score) if ref.ability_score else "the value"
        text += f" (unless {whose} {_value(gate.unless.at_least)} or more)"
    return text


def _spends(use: ItemUse, item: Item) -> str | None:
    if use.consumes:
        return "used up"
    capacity = _capacity(item)
    if use.charges is not None and capacity is not None:
        return f"{use.charges} of {capacity} charges"
    return None


def _capacity(item: Item) -> int | None:
    if item.charges is None:
        return None
    top = item.charges.max
    if isinstance(top, StatRef):
        value = item.stats.get(top.stat)
        return min(100, int(value)) if isinstance(value, int | float) else None
    return top
