"""``worn=`` and ``carried=`` of a proposal: changes read into the ruleset's ``ItemEffect`` shape
(ITM-PROPOSE-03..07, -10), so an invented item's effects apply on checks exactly as a catalog item's.

A change is ``+N``, ``-N``, ``+NdM``, ``advantage``, ``disadvantage`` or ``fails`` (saves only), on a
skill or save by name, on ``checks`` or ``saves``, ``+N``/``-N`` on an attribute, and where the
ruleset has combat on attacks or defence (or its own word for defence). The number may follow the
name (``Brawn +1``) and ``bonus`` may follow attacks or defence (``+1 attack roll bonus``).
Defence changes are written as combat modifiers ``to: "defense"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import ValidationError

from middleware.items.propose_read import Change, is_none
from middleware.names import normalize_name
from middleware.rules.combat import Modifier
from middleware.rules.item_entry import AbilityChange, ItemEffect
from middleware.rules.ruleset import Ruleset
from middleware.sheet.names import Target, find_ability, match_check

MAX_FLAT = 20
"""Our bound on one flat change of an invented item at a rarity without a ``bonus`` cap (SPEC §8:
limits hold against hostile input); the page gives none."""

_AMOUNT = r"[+-]\s*\d{1,3}(?:\s*d\s*\d{1,4})?|advantage|disadvantage|fails"
_FRONT = re.compile(rf"^({_AMOUNT})\b\s*(.*)$", re.IGNORECASE)
_BACK = re.compile(rf"^(.*?)\s*({_AMOUNT})$", re.IGNORECASE)
_FILLER = re.compile(r"^(?:on|to|for|with|at)\s+|\s+(?:roll\s+)?(?:bonus|rolls?)$")
_ALL_CHECKS = {"check", "checks", "all checks", "skill checks", "skills", "ability checks"}
_ALL_SAVES = {"save", "saves", "all saves", "saving throws", "saving throw"}
_ATTACKS = {"attack", "attacks", "attack roll", "attack rolls", "to hit", "hit", "hits"}
_DEFENCE = {"defence", "defense", "armor", "armour", "armor class", "armour class", "ac"}


@dataclass(frozen=True, slots=True)
class _Said:
    amount: str
    target: str


def read_effect(ruleset: Ruleset, text: str, when: str) -> tuple[ItemEffect | None, list[Change]]:
    """ITM-PROPOSE-03/04/06/07: the effect ``worn=`` / ``carried=`` describes; None for ``none``."""
    if is_none(text):
        return None, []
    modifiers: list[Modifier] = []
    abilities: dict[str, AbilityChange] = {}
    fails: list[str] = []
    changes: list[Change] = []
    for part in (p.strip() for p in re.split(r"[;,]|\band\b", text) if p.strip()):
        said = _split(part)
        kept = _read_one(ruleset, said, when) if said else f"{part!r} is not a change it reads"
        if isinstance(kept, str):
            changes.append(Change(f"{when}: {kept}; dropped"))
        elif isinstance(kept, Modifier):
            modifiers.append(kept)
        elif isinstance(kept, list):
            fails += [s for s in kept if s not in fails]
        else:
            ability, add = kept
            abilities[ability] = AbilityChange(add=(abilities[ability].add or 0) + add
                                               if ability in abilities else add)
    if not (modifiers or abilities or fails):
        return None, changes
    return ItemEffect(modifiers=tuple(modifiers), abilities=abilities,
                      fails_saves=tuple(fails)), changes


def _split(part: str) -> _Said | None:
    front = _FRONT.match(part)
    back = None if front else _BACK.match(part)
    if front:
        amount, target = front.groups()
    elif back:
        target, amount = back.groups()
    else:
        return None
    cleaned = normalize_name(target)
    while (stripped := _FILLER.sub("", cleaned)) != cleaned:
        cleaned = stripped
    return _Said(re.sub(r"\s+", "", amount.lower()), cleaned)


Kept = Modifier | list[str] | tuple[str, float] | str
"""A modifier, saves failed, an attribute raise, or why the change was dropped."""


def _read_one(ruleset: Ruleset, said: _Said, when: str) -> Kept:
    combat = ruleset.combat is not None
    if said.target in _ALL_CHECKS | _ALL_SAVES:
        to = "checks" if said.target in _ALL_CHECKS else "saves"
        return _all_saves(ruleset, said) if said.amount == "fails" and to == "saves" \
            else _modifier(to, said.amount, None, None)
    if said.target in _ATTACKS or said.target in defence_words(ruleset):
        to = "attacks" if said.target in _ATTACKS else "defense"
        if not combat:
            return f"{said.amount} on {to}: this ruleset has no combat"
        if to == "defense" and said.amount in ("advantage", "disadvantage", "fails"):
            return f"{said.amount} on defence is not a change it takes"
        return _modifier(to, said.amount, None, None)
    return _named(ruleset, said)


def _named(ruleset: Ruleset, said: _Said) -> Kept:
    sheet = ruleset.sheet
    target = _match(ruleset, said.target, said.amount == "fails")
    if target.kind == "ability" and target.id is not None:
        number = _flat(said.amount)
        if number is None:
            return f"{said.amount} on the attribute {target.label} is not a change it takes"
        return target.id, number
    if target.kind == "save" and target.id is not None:
        return [target.id] if said.amount == "fails" else \
            _modifier("saves", said.amount, None, [target.id])
    if target.kind == "skill" and target.id is not None and said.amount != "fails":
        return _modifier("checks", said.amount, [target.id], None)
    if find_ability(sheet, said.target) is None and target.kind == "unknown":
        return f"{said.target!r} is not a skill, save or attribute of this ruleset"
    return f"{said.amount} on {said.target} is not a change it takes"


def _match(ruleset: Ruleset, name: str, save_hint: bool) -> Target:
    singular = re.sub(r"(check|save|saving throw)s$", r"\1", name)
    return match_check(ruleset.sheet, singular, is_save_hint=save_hint)


def _all_saves(ruleset: Ruleset, said: _Said) -> Kept:
    saves = [s.id for s in ruleset.sheet.saves]
    return saves if saves else f"{said.amount} saves: this ruleset has no saves"


def _flat(amount: str) -> int | None:
    return int(amount) if re.fullmatch(r"[+-]\d+", amount) else None


def _modifier(to: str, amount: str, skills: list[str] | None,
              saves: list[str] | None) -> Kept:
    dice = re.fullmatch(r"([+-])(\d+d\d+)", amount)
    flat = _flat(amount)
    try:
        if amount in ("advantage", "disadvantage"):
            return Modifier(to=to, mode=amount, skills=skills, saves=saves)
        if dice:
            return Modifier(to=to, dice=dice.group(2), minus=dice.group(1) == "-",
                            skills=skills, saves=saves)
        if flat:
            return Modifier(to=to, flat=max(-MAX_FLAT, min(MAX_FLAT, flat)), skills=skills,
                            saves=saves)
    except ValidationError:
        pass
    return f"{amount} on {to} is not a change it takes"


def defence_words(ruleset: Ruleset) -> set[str]:
    """The words for defence: the usual ones and the ruleset's own (Ember Roads' Guard)."""
    words = set(_DEFENCE)
    defense = getattr(ruleset.combat, "defense", None)
    derived_id = defense.get("derived") if isinstance(defense, dict) else None
    derived = ruleset.sheet.by_id.derived.get(derived_id) if isinstance(derived_id, str) else None
    if derived is not None:
        words |= {normalize_name(derived.id), normalize_name(derived.label)}
    return words
