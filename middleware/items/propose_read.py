"""Reading the parts of a GM's item proposal as small models write them (ITM-PROPOSE-02/06/07/09).

Pure readers from attribute text to block ids and values. Each returns what it kept and a list of
``Change`` lines saying what it dropped or altered; nothing here raises on model output.

- lists (``tags=``): ids or labels split on ``,`` or ``;``; ``none`` is an empty list;
- pairs (``stats=``, ``slots=``): ``id=value``, ``id: value``, ``Label 2`` or ``2 Label``, split
  only where a new ``key=`` starts, so ``stats="guard=1, worn=+1 Sneak; +1 Sway"`` keeps the
  ``worn`` value whole;
- stat values by the stat's type: numbers rounded half up for whole stats, clamped to the stat's
  range and then to the rarity's cap (ITM-PROPOSE-09, ITM-BLOCK-20).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from middleware.names import normalize_name
from middleware.rules.item_entry import StatValue
from middleware.rules.items import ItemsBlock, ItemStatDef, Named, NumberStat, RarityCap

NONE_WORDS = frozenset({"none", "no", "nothing", "n a", "empty", "-"})
_PAIR_SPLIT = re.compile(r"\s*[,;]\s*(?=[^,;=:]+[=:])")
_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")
_DICE = re.compile(r"^(\d{1,3})\s*[dD]\s*(\d{1,4})$")
_TRUE = frozenset({"yes", "true", "1", "y", "on"})
_FALSE = frozenset({"no", "false", "0", "n", "off"})


@dataclass(frozen=True, slots=True)
class Change:
    """One thing the engine changed in a proposal; ``hidden`` when it names a stat the Game
    Master never sees (ITM-PROPOSE-12, ITM-BLOCK-06)."""

    text: str
    hidden: bool = False


def is_none(text: str) -> bool:
    """ITM-PROPOSE-06: ``none`` (and the like) for an empty list."""
    return normalize_name(text) in NONE_WORDS or not text.strip()


def split_list(text: str) -> list[str]:
    """``"thrown, silver"`` -> ``["thrown", "silver"]``; ``none`` -> ``[]``."""
    if is_none(text):
        return []
    return [part.strip() for part in re.split(r"[,;]", text) if part.strip()]


def split_pairs(text: str) -> list[tuple[str, str]]:
    """``"guard=1, worn=+1 Guard"`` -> ``[("guard", "1"), ("worn", "+1 Guard")]``; a pair
    without ``=`` splits off a leading or trailing number (``Hands 2``, ``2 hands``)."""
    if is_none(text):
        return []
    pairs = []
    splitter = _PAIR_SPLIT if re.search(r"[=:]", text) else re.compile(r"\s*[,;]\s*")
    for part in splitter.split(text.strip()):
        written = re.fullmatch(r"(.*?)\s*[=:]\s*(.*)", part.strip(), re.DOTALL)
        key, value = written.groups() if written else _number_beside(part.strip())
        if key.strip():
            pairs.append((key.strip(), value.strip()))
    return pairs


def _number_beside(part: str) -> tuple[str, str]:
    match = re.fullmatch(r"(.*?)\s*([+-]?\d+(?:\.\d+)?)", part) or \
        re.fullmatch(r"([+-]?\d+(?:\.\d+)?)\s*(.*)", part)
    if match is None:
        return part, ""
    first, second = match.groups()
    return (second, first) if _NUMBER.fullmatch(first) else (first, second)


def find_named(named: tuple[Named, ...], word: str) -> Named | None:
    """A category, rarity or tag by id or label, without case or punctuation."""
    key = normalize_name(word)
    return next((n for n in named if key in (normalize_name(n.id), normalize_name(n.label))), None)


def find_stat(block: ItemsBlock, word: str) -> ItemStatDef | None:
    """A block stat by id or label (ITM-PROPOSE-02)."""
    key = normalize_name(word)
    return next((s for s in block.stats if key in (normalize_name(s.id), normalize_name(s.label))), None)


def read_tags(block: ItemsBlock, text: str) -> tuple[tuple[str, ...], list[Change]]:
    """ITM-PROPOSE-02/07: tag ids the block declares; unknown ones dropped and said."""
    kept: list[str] = []
    changes = []
    for word in split_list(text):
        found = find_named(block.tags, word)
        if found is None:
            changes.append(Change(f"tag {word!r} is not one of this ruleset's; dropped"))
        elif found.id not in kept:
            kept.append(found.id)
    return tuple(kept), changes


def read_slots(block: ItemsBlock, text: str) -> tuple[dict[str, int], list[Change]]:
    """ITM-PROPOSE-02/07, ITM-ENTRY-05: ``id=count`` pairs, at most what a character has."""
    kept: dict[str, int] = {}
    changes = []
    for key, value in split_pairs(text):
        slot = next((s for s in block.slots if normalize_name(key) in (normalize_name(s.id),
                                                                 normalize_name(s.label))), None)
        number = _NUMBER.search(value)
        count = _half_up(float(number.group().replace(",", "."))) if number else 1
        if slot is None:
            changes.append(Change(f"slot {key!r} is not one of this ruleset's; dropped"))
        elif count < 1:
            changes.append(Change(f"{slot.label} {count}: no slot taken; dropped"))
        else:
            if count > slot.count:
                changes.append(Change(f"{slot.label} {count} is more than a character has; "
                                      f"made {slot.count}"))
            kept[slot.id] = min(count, slot.count)
    return kept, changes


def read_stat_value(stat: ItemStatDef, text: str) -> tuple[StatValue | None, list[Change]]:
    """A proposed value for one stat, converted to the stat's type and clamped to its range
    (ITM-PROPOSE-09); None when it cannot be one of the stat's values."""
    hidden = not stat.prompt_visible
    value: StatValue | None
    if isinstance(stat, NumberStat):
        found = _NUMBER.search(text)
        if found is None:
            return None, [Change(f"{stat.label} {text!r} is not a number; dropped", hidden)]
        return clamp_number(stat, float(found.group().replace(",", ".")))
    if stat.type == "boolean":
        key = normalize_name(text)
        value = True if key in _TRUE else False if key in _FALSE else None
    elif stat.type == "enum":
        value = next((v for v in stat.values if normalize_name(v) == normalize_name(text)), None)
    elif stat.type == "dice":
        dice = _DICE.match(text.strip())
        value = f"{int(dice.group(1))}d{int(dice.group(2))}" if dice else None
    else:
        value = text.strip()[:stat.max_length] or None
    if value is None:
        return None, [Change(f"{stat.label} {text!r} is not a value it takes; dropped", hidden)]
    return value, []


def clamp_number(stat: NumberStat, number: float) -> tuple[float, list[Change]]:
    """SPEC §10 rounding (halves up) for a whole stat, then the stat's own ``min``..``max``."""
    changes = []
    value = float(_half_up(number)) if stat.integer else number
    low = -math.inf if stat.min is None else stat.min
    high = math.inf if stat.max is None else stat.max
    if not low <= value <= high:
        value = min(max(value, low), high)
        changes.append(Change(f"{stat.label} {_show(number)} is outside its range; made "
                              f"{_show(value)}", not stat.prompt_visible))
    return value, changes


def cap_stat(stat: NumberStat, value: float, cap: RarityCap | None,
             rarity: str) -> tuple[float, list[Change]]:
    """ITM-PROPOSE-09 / ITM-BLOCK-20: no more than the rarity's cap for this stat."""
    most = cap.stats.get(stat.id) if cap is not None else None
    if most is None or value <= most:
        return value, []
    return most, [Change(f"{stat.label} {_show(value)} is above what a {rarity} item gives; "
                         f"made {_show(most)}", not stat.prompt_visible)]


def _half_up(number: float) -> int:
    return math.floor(number + 0.5)


def _show(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)
