"""How a weapon is put in words (ITM-ENTRY-20/21): its attack, what it shoots and its extras.

Combat has no tag here (SPEC §1), but the Game Master still reads what a weapon does, in the
page's forms:

- ``attack (Action): Brawn to hit, 1d6 + Brawn cut, reach 2 paces, range 10 to 20 paces`` for the
  Game Master, ``Attack (Action): Brawn to hit, 1d6 + Brawn cut damage, ...`` on the stack
  (ITM-ENTRY-20); ``1d8 with a hand free`` for a versatile weapon, ``at 6`` for a per-die target,
  a ``sheetBonus`` under its sheet name;
- ``ammunition Arrow (1 an attack, 50% picked up after a won fight)``, ``holds 1, reload (Act)``,
  ``modes Volley (2 shots, -2 to hit, up to 2 targets)``, ``off hand (Quick)``, ``at least 1 on a
  hit before resistance``, ``+3d6 slashing against Dragon`` and ``Marked for 2 rounds when a hit
  deals 2 or more`` (ITM-ENTRY-21).

The attack is kept as the file's JSON (``Item.attack``). Any value may be written literally or read
from one of the item's own stats (``{"stat": "damage"}``); a stat the item does not give counts as
unwritten, as in combat.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import JsonValue

from middleware.items.words import Words
from middleware.json_input import JsonObject
from middleware.rules.item_entry import Item
from middleware.rules.ruleset import Ruleset

_Part = Callable[[JsonObject, Item, Words], str | None]


def attack_text(item: Item, words: Words, *, gm: bool, off_hand: str | None = None) -> str | None:
    """ITM-ENTRY-20/21: the weapon's whole line, or None for an item without ``attack``.

    ``off_hand`` is the budget id of the ruleset's ``combat.offHand`` (``off_hand_budget``).
    """
    attack = item.attack
    if not isinstance(attack, dict):
        return None
    budget = _read(item, attack.get("budget"))
    head = f"{'attack' if gm else 'Attack'} ({words.say('budgets', str(budget))})" \
        if budget is not None else ("attack" if gm else "Attack")
    parts: list[str | None] = [_to_hit(attack, item, words), _damage(attack, item, words, gm=gm)]
    parts += [part(attack, item, words) for part in _SHOOTING]
    if attack.get("offHand") is True:
        parts.append(f"off hand ({words.say('budgets', off_hand)})" if off_hand else "off hand")
    parts += [part(attack, item, words) for part in _HITTING]
    return f"{head}: {', '.join(p for p in parts if p)}"


def off_hand_budget(ruleset: Ruleset) -> str | None:
    """The budget a second, off-hand attack costs (``combat.offHand.budget``), if any."""
    off_hand = ruleset.combat.off_hand if ruleset.combat is not None else None
    budget = off_hand.get("budget") if isinstance(off_hand, dict) else None
    return budget if isinstance(budget, str) else None


# --- to hit and damage -----------------------------------------------------------------------


def _to_hit(attack: JsonObject, item: Item, words: Words) -> str:
    """``Brawn to hit``, ``Sinew + Dig to hit at 6``, ``Dex + proficiency + 1 to hit``."""
    hit = attack.get("toHit")
    hit = hit if isinstance(hit, dict) else {}
    terms = [_abilities(hit.get("abilities"), item, words)]
    skill = _read(item, hit.get("skill"))
    terms.append(words.say("skills", str(skill)) if skill is not None else None)
    terms.append("proficiency" if hit.get("proficiency") is not None else None)
    terms.append(_sheet_name(hit.get("sheetBonus"), words))
    text = _sum([t for t in terms if t], _read(item, hit.get("bonus")))
    target = _read(item, hit.get("target"))
    return f"{text or '0'} to hit" + (f" at {_number(target)}" if target is not None else "")


def _damage(attack: JsonObject, item: Item, words: Words, *, gm: bool) -> str:
    """``1d6 + Brawn cut`` (``... cut damage`` on the stack), then ``1d8 with a hand free``."""
    damage = attack.get("damage")
    damage = damage if isinstance(damage, dict) else {}
    dice = _read(item, damage.get("dice"))
    terms = [str(dice) if dice is not None else None,
             _abilities(damage.get("abilities"), item, words),
             _sheet_name(damage.get("sheetBonus"), words)]
    text = _sum([t for t in terms if t], _read(item, damage.get("bonus"))) or "successes"
    kind = _read(item, damage.get("type"))
    text += f" {kind}" if kind is not None else ""
    text += "" if gm else " damage"
    versatile = attack.get("versatile")
    spare = _read(item, versatile.get("dice")) if isinstance(versatile, dict) else None
    return text + (f", {spare} with a hand free" if spare is not None else "")


def _abilities(value: JsonValue, item: Item, words: Words) -> str | None:
    """The best of one or more abilities (``Brawn``, ``Str or Dex``), ids read through stats."""
    value = _read(item, value)
    ids = [value] if isinstance(value, str) else [_read(item, v) for v in value] \
        if isinstance(value, list) else []
    names = [words.say("abilities", str(i)) for i in ids if i is not None]
    return " or ".join(names) if names else None


def _sheet_name(ref: JsonValue, words: Words) -> str | None:
    """A ``sheetBonus`` by its sheet name (the value reference's id, labelled where known)."""
    if not isinstance(ref, dict) or not ref:
        return None
    kind, some_id = next(iter(ref.items()))
    return words.say(str(kind), str(some_id)) if isinstance(some_id, str) else None


# --- reach, range and the extras (ITM-ENTRY-21) ----------------------------------------------


def _reach(attack: JsonObject, item: Item, words: Words) -> str | None:
    reach = _read(item, attack.get("reach"))
    return f"reach {_number(reach)} {words.distance or 'cells'}" if reach is not None else None


def _range(attack: JsonObject, item: Item, words: Words) -> str | None:
    span = attack.get("range")
    if not isinstance(span, dict) or _read(item, span.get("normal")) is None:
        return None
    normal, long = _read(item, span.get("normal")), _read(item, span.get("long"))
    far = f" to {_number(long)}" if long is not None else ""
    return f"range {_number(normal)}{far} {words.distance or 'cells'}"


def _ammo(attack: JsonObject, item: Item, words: Words) -> str | None:
    ammo = attack.get("ammo")
    tag = ammo.get("tag") if isinstance(ammo, dict) else None
    if not isinstance(ammo, dict) or not isinstance(tag, str):
        return None
    inside = [f"{_number(ammo.get('perAttack', 1))} an attack"]
    recover = ammo.get("recover")
    if isinstance(recover, int | float) and recover > 0:
        inside.append(f"{_number(recover * 100)}% picked up after a won fight")
    return f"ammunition {words.say('tags', tag)} ({', '.join(inside)})"


def _clip(attack: JsonObject, item: Item, words: Words) -> str | None:
    clip = attack.get("clip")
    if not isinstance(clip, dict):
        return None
    reload = clip.get("reload")
    again = f", reload ({words.say('budgets', reload)})" if isinstance(reload, str) else ""
    return f"holds {_number(_read(item, clip.get('max')))}{again}"


def _modes(attack: JsonObject, item: Item, words: Words) -> str | None:
    modes = [m for m in _listed(attack.get("modes")) if isinstance(m, dict)]
    if not modes:
        return None
    return "modes " + ", ".join(f"{m.get('label', m.get('id'))} ({_mode(m)})" for m in modes)


def _mode(mode: JsonObject) -> str:
    parts = [f"{_number(mode['ammo'])} shots" if mode.get("ammo") is not None else None,
             f"{_signed(mode['toHit'])} to hit" if mode.get("toHit") else None,
             f"target {_signed(mode['target'])}" if mode.get("target") else None,
             f"up to {_number(mode['targets'])} targets" if mode.get("targets") else None]
    return ", ".join(p for p in parts if p) or "as usual"


def _floor(attack: JsonObject, item: Item, words: Words) -> str | None:
    floor = _read(item, attack.get("floor"))
    return f"at least {_number(floor)} on a hit before resistance" if floor is not None else None


def _plus(attack: JsonObject, item: Item, words: Words) -> str | None:
    extras = [_one_plus(p) for p in _listed(attack.get("plus")) if isinstance(p, dict)]
    return ", ".join(extras) if extras else None


def _one_plus(plus: JsonObject) -> str:
    amount = _sum([str(plus["dice"])] if plus.get("dice") else [], plus.get("flat")) or "0"
    text = f"+{amount.lstrip('+')}" + (f" {plus['type']}" if plus.get("type") else "")
    target = plus.get("targetIs")
    types = target.get("types") if isinstance(target, dict) else None
    if isinstance(types, list) and types:
        text += " against " + " or ".join(str(t)[:1].upper() + str(t)[1:] for t in types)
    when = {"critical": " on a critical hit", "toggled": " while switched on"}
    return text + when.get(str(plus.get("when")), "")


def _on_hit(attack: JsonObject, item: Item, words: Words) -> str | None:
    hits = [h for h in _listed(attack.get("onHit")) if isinstance(h, dict) and "condition" in h]
    return ", ".join(_one_hit(h, words) for h in hits) if hits else None


def _one_hit(hit: JsonObject, words: Words) -> str:
    rounds = hit.get("rounds")
    lasting = f" for {_number(rounds)} rounds" if rounds is not None else \
        " until a save ends it" if hit.get("saveEnds") else ""
    return f"{words.say('conditions', str(hit['condition']))}{lasting} when a hit deals " \
           f"{_number(hit.get('atLeast', 1))} or more"


_SHOOTING: tuple[_Part, ...] = (_reach, _range, _ammo, _clip, _modes)
_HITTING: tuple[_Part, ...] = (_floor, _plus, _on_hit)


# --- values ----------------------------------------------------------------------------------


def _read(item: Item, value: JsonValue) -> JsonValue:
    """A literal value, or the item's own stat for ``{"stat": id}`` (None when it gives none)."""
    if isinstance(value, dict) and set(value) == {"stat"}:
        return item.stats.get(str(value["stat"]))
    return value


def _listed(value: JsonValue) -> list[JsonValue]:
    """A list the attack writes; anything else lists nothing."""
    return value if isinstance(value, list) else []


def _sum(terms: list[str], bonus: JsonValue) -> str:
    """Terms joined by `` + ``, then a signed number bonus (``+ 1``, ``- 2``)."""
    text = " + ".join(terms)
    if isinstance(bonus, int | float) and not isinstance(bonus, bool) and bonus:
        sign = "+" if bonus > 0 else "-"
        text = f"{text} {sign} {_number(abs(bonus))}" if text else _signed(bonus)
    return text


def _number(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _signed(value: object) -> str:
    return f"+{_number(value)}" if isinstance(value, int | float) and value > 0 else _number(value)
