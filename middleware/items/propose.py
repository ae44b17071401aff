"""GM-invented items: ``[inventory: action="add" item=… like=… category=… …]`` (ITM-PROPOSE-01..18).

``propose`` reads what the Game Master described and answers with a ``Proposal``: the ruleset
item the name already means (ITM-PROPOSE-11), the invention this game already made under that name
(ITM-PROPOSE-13), a new ``InventedItem`` held to the block's limits (ITM-PROPOSE-07..10, -14..16),
a plain item, or a refusal. ``changes`` are the lines for the Game Master (``note=``), which never
name a stat he is not shown (ITM-PROPOSE-12). The add action stores a new invention with
``Proposal.kept_in(state)`` and puts a stack of ``proposal.item.ref`` in the bag.

Decisions where the page is silent (ours): without ``like=`` and without a category the ruleset
has, the name becomes a plain item where plain items are allowed, else the add is refused with
``unknown-category`` (Ambiguity 15); with ``propose: false`` the description is ignored and the name
follows the plain/``native`` rules (Ambiguity 29); a service cannot be a template; given ``tags=``
and ``slots=`` replace the template's, given ``stats=`` are set over the template's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from pydantic import ValidationError

from middleware.items.index import RulesetItem, item_index
from middleware.items.invented import invented_ref
from middleware.items.lookup import as_ruleset_item, find_invented, find_item, remember
from middleware.items.propose_caps import (
    cap_for,
    defence_stats,
    held_effect,
    held_stats,
    without_defence,
)
from middleware.items.propose_effects import read_effect
from middleware.items.propose_read import (
    Change,
    find_named,
    find_stat,
    read_slots,
    read_stat_value,
    read_tags,
    split_pairs,
)
from middleware.items.propose_weapon import stats_read, weapon_template
from middleware.names import normalize_name
from middleware.rules.catalogs import CatalogEntry
from middleware.rules.item_entry import Binds, Item, ItemEffect, StatValue
from middleware.rules.items import ItemsBlock
from middleware.rules.ruleset import Ruleset
from middleware.state import GameState, InventedItem

INVENTION_KEYS = ("like", "category", "rarity", "tags", "stats", "slots", "binds", "worn",
                  "carried", "summary")
"""ITM-PROPOSE-02: the attributes that describe a new item."""

Outcome = Literal["ruleset", "known", "invented", "plain", "refused"]
_INNER = ("worn", "carried", "summary")
_UNSAFE = re.compile(r"[\x00-\x1f\x7f\[\]\"]|\{\{|\}\}")


@dataclass(frozen=True, slots=True)
class Proposal:
    """What an add that describes an item means.

    ``outcome``: ``ruleset`` (the name is a ruleset item), ``known`` (invented earlier in this
    game), ``invented`` (new: ``invented`` holds it), ``plain`` (a rule-less item named ``name``),
    ``refused`` (``reason`` is the code; nothing changes).
    """

    outcome: Outcome
    name: str
    item: RulesetItem | None = None
    invented: InventedItem | None = None
    changes: tuple[str, ...] = ()
    reason: str | None = None

    @property
    def note(self) -> str | None:
        """The Game Master's line: what was changed, ``; ``-separated (ITM-PROPOSE-12)."""
        return "; ".join(self.changes) or None

    def kept_in(self, state: GameState) -> GameState:
        """``state`` with a new invention stored for the rest of the game (ITM-PROPOSE-13)."""
        return remember(state, self.invented) if self.invented is not None else state


def describes_item(tag_attrs: Mapping[str, str]) -> bool:
    """ITM-PROPOSE-01/02: the add tag describes an item (any invention attribute given)."""
    return any(k.lower() in INVENTION_KEYS and str(v).strip() for k, v in tag_attrs.items())


def propose(ruleset: Ruleset, state: GameState, tag_attrs: Mapping[str, str],
            name: str) -> Proposal:
    """ITM-PROPOSE-01..18: what ``name`` with the tag's description adds to a bag."""
    attrs = {k.lower(): str(v) for k, v in tag_attrs.items() if str(v).strip()}
    label = clean_name(name)
    if not label:
        return Proposal("refused", label, reason="unknown-item",
                        changes=("an item needs a name",))
    found = item_index(ruleset).find(label)
    if found is not None:
        said = (f"{found.label} is this ruleset's own item; the description was not used",)
        return Proposal("ruleset", found.label, found, changes=said if describes_item(attrs)
                        else ())
    known = find_invented(state, label)
    if known is not None:
        said = (f"{known.label} was made earlier in this game and stays as it was",)
        return Proposal("known", known.label, as_ruleset_item(known),
                        changes=said if describes_item(attrs) else ())
    block = ruleset.items
    if block is None or not block.propose:
        return _plain(block, label, ["this ruleset does not let the Game Master invent items"])
    return _invent(ruleset, state, block, attrs, label)


def clean_name(name: str) -> str:
    """A name safe as an item label: no brackets, quotes, ``{{`` or line breaks; 80 at most."""
    return " ".join(_UNSAFE.sub(" ", name).split())[:80].strip()


def _plain(block: ItemsBlock | None, label: str, why: list[str]) -> Proposal:
    """Ambiguities 15/29: a plain item where allowed, else ``not-ruleset-item``."""
    if block is None or block.native:
        return Proposal("plain", label, changes=(*why, f"{label} is added as a plain item"))
    reason = "not-ruleset-item" if not block.propose else "unknown-category"
    categories = ", ".join(c.label for c in block.categories)
    return Proposal("refused", label, reason=reason,
                    changes=(*why, f"only this ruleset's items may be added (categories: "
                             f"{categories})"))


@dataclass(frozen=True, slots=True)
class _Parts:
    """Everything read from the tag and the template, before the limits are applied."""

    category: str
    rarity: str | None
    tags: tuple[str, ...]
    stats: dict[str, StatValue]
    slots: dict[str, int]
    binds: Binds | None
    worn: ItemEffect | None
    carried: ItemEffect | None
    summary: str | None


def _invent(ruleset: Ruleset, state: GameState, block: ItemsBlock, attrs: dict[str, str],
            label: str) -> Proposal:
    changes: list[Change] = []
    like = _like(ruleset, state, attrs.get("like"), changes)
    attrs = _with_inner_parts(block, attrs)
    category = _category(block, attrs.get("category"), like, changes)
    if category is None:
        return _plain(block, label, [c.text for c in changes if not c.hidden])
    parts = _read_parts(ruleset, block, attrs, like, category, changes)
    template = None if like is not None else \
        weapon_template(item_index(ruleset), category, label)
    parts, attack = _fights_as(parts, like, template, "slots" in attrs, changes)
    item, entry_changes = _held(ruleset, block, parts, like, attack)
    changes += entry_changes
    return _new(state, label, parts.summary, item, like, template, changes)


def _like(ruleset: Ruleset, state: GameState, text: str | None,
          changes: list[Change]) -> RulesetItem | None:
    if text is None:
        return None
    found = find_item(ruleset, state, text)
    if found is None or found.is_service:
        changes.append(Change(f"like {text!r} is not an item of this ruleset; ignored"))
        return None
    return found


def _with_inner_parts(block: ItemsBlock, attrs: dict[str, str]) -> dict[str, str]:
    """ITM-PROPOSE-06: ``worn=``, ``carried=``, ``summary=`` written inside ``stats=`` when the
    block has no stat of that name; an attribute of the tag itself wins."""
    inner = {key.lower(): value for key, value in split_pairs(attrs.get("stats", ""))
             if key.lower() in _INNER and find_stat(block, key) is None}
    return {**inner, **attrs}


def _category(block: ItemsBlock, text: str | None, like: RulesetItem | None,
              changes: list[Change]) -> str | None:
    found = find_named(block.categories, text) if text else None
    if text and found is None:
        changes.append(Change(f"category {text!r} is not one of this ruleset's"
                              + (f"; kept {like.item.category}" if like else "")))
    if found is not None:
        return found.id
    return like.item.category if like is not None else None


def _read_parts(ruleset: Ruleset, block: ItemsBlock, attrs: dict[str, str],
                like: RulesetItem | None, category: str, changes: list[Change]) -> _Parts:
    base = like.item if like is not None else None
    tags, said = read_tags(block, attrs["tags"]) if "tags" in attrs else \
        (base.tags if base else (), [])
    changes += said
    slots, said = read_slots(block, attrs["slots"]) if "slots" in attrs else \
        (dict(base.slots) if base else {}, [])
    changes += said
    worn, carried = base.worn if base else None, base.carried if base else None
    if "worn" in attrs:
        worn, said = read_effect(ruleset, attrs["worn"], "worn")
        changes += said
    if "carried" in attrs:
        carried, said = read_effect(ruleset, attrs["carried"], "carried")
        changes += said
    summary = _summary(attrs.get("summary")) or (like.entry.summary if like else None)
    return _Parts(category, _rarity(block, attrs.get("rarity"), base, changes), tags,
                  _stats(block, attrs.get("stats"), base, changes), slots,
                  _binds(block, attrs.get("binds"), base, changes), worn, carried, summary)


def _rarity(block: ItemsBlock, text: str | None, base: Item | None,
            changes: list[Change]) -> str | None:
    """ITM-PROPOSE-08, Ambiguity 16: unknown -> the lowest; absent -> the template's or lowest."""
    if not block.rarities:
        if text:
            changes.append(Change(f"this ruleset has no rarities; {text!r} dropped"))
        return None
    lowest = block.rarities[0]
    found = find_named(block.rarities, text) if text else None
    if text and found is None:
        changes.append(Change(f"rarity {text!r} is not one of this ruleset's; made "
                              f"{lowest.label}"))
    if found is not None:
        return found.id
    return base.rarity if base is not None and base.rarity and not text else lowest.id


def _stats(block: ItemsBlock, text: str | None, base: Item | None,
           changes: list[Change]) -> dict[str, StatValue]:
    stats: dict[str, StatValue] = dict(base.stats) if base else {}
    for key, value in split_pairs(text or ""):
        stat = find_stat(block, key)
        if stat is None:
            if key.lower() not in _INNER:
                changes.append(Change(f"stat {key!r} is not one of this ruleset's; dropped"))
            continue
        read, said = read_stat_value(stat, value)
        changes += said
        if read is not None:
            stats[stat.id] = read
    return stats


def _binds(block: ItemsBlock, text: str | None, base: Item | None,
           changes: list[Change]) -> Binds | None:
    if text is None:
        return base.binds if base else None
    word = normalize_name(text)
    if block.binding is None:
        if word not in ("no", "none", "false"):
            changes.append(Change(f"binds {text!r} dropped: this ruleset has no binding"))
        return None
    if word in ("yes", "true", "binds", "bound"):
        return Binds()
    if word == "cursed":
        return Binds(cursed=True)
    if word not in ("no", "none", "false"):
        changes.append(Change(f"binds {text!r} is not yes, cursed or no; made no"))
    return None


def _summary(text: str | None) -> str | None:
    return " ".join(_UNSAFE.sub(" ", text).split())[:2000] or None if text else None


def _fights_as(parts: _Parts, like: RulesetItem | None, template: RulesetItem | None,
               slots_given: bool, changes: list[Change]) -> tuple[_Parts, object]:
    """ITM-PROPOSE-14/16: the attack it keeps; a template's stats and slots fill the gaps."""
    if like is not None:
        return parts, like.item.attack
    if template is None or template.item.attack is None:
        return parts, None
    attack = template.item.attack
    stats = {**{k: v for k, v in template.item.stats.items() if k in stats_read(attack)},
             **parts.stats}
    slots = parts.slots if slots_given or parts.slots else dict(template.item.slots)
    changes.append(Change(f"It fights as {template.label} does."))
    return _replace(parts, stats=stats, slots=slots), attack


def _replace(parts: _Parts, **update: object) -> _Parts:
    values = {name: getattr(parts, name) for name in parts.__slots__}
    return _Parts(**{**values, **update})


def _held(ruleset: Ruleset, block: ItemsBlock, parts: _Parts, like: RulesetItem | None,
          attack: object) -> tuple[Item, list[Change]]:
    """The finished item, held to the block's limits (ITM-PROPOSE-05/09/10/15)."""
    cap = cap_for(block, parts.rarity)
    rarity = next((r.label for r in block.rarities if r.id == parts.rarity), "")
    stats, changes = held_stats(block, parts.stats, cap, rarity)
    worn, said = held_effect(parts.worn, "worn", cap, rarity)
    changes += said
    carried, said = held_effect(parts.carried, "carried", cap, rarity)
    changes += said
    counted = [s for s in defence_stats(ruleset) if s in stats]
    worn, dropped = without_defence(worn) if counted else (worn, False)
    if dropped:
        shown = [s.label for s in block.stats if s.id in counted and s.prompt_visible]
        changes.append(Change(f"worn defence change dropped: the item's "
                              f"{', '.join(shown) or 'stats'} already raise defence"))
    if attack is not None and not parts.slots and parts.binds is None:
        changes.append(Change("it takes no slot and does not bind, so it is never worn and "
                              "has no attack"))
        attack = None
    base = like.item if like is not None else None
    item = Item(category=parts.category, rarity=parts.rarity, tags=parts.tags, stats=stats,
                slots=parts.slots, stack=base.stack if base else None, binds=parts.binds,
                worn=worn, carried=carried, requires=base.requires if base else (),
                attack=attack if isinstance(attack, dict) else None,
                weapons=base.weapons if base else None, toggle=base.toggle if base else None,
                use=base.use if base else None, charges=base.charges if base else None)
    return item, changes


def _new(state: GameState, label: str, summary: str | None, item: Item,
         like: RulesetItem | None, template: RulesetItem | None,
         changes: list[Change]) -> Proposal:
    ref = invented_ref(normalize_name(label), (i.ref for i in state.invented))
    try:
        # Through its JSON form, so the stored item equals the one read back from a store
        # (the template's ``$comment``s are not kept).
        entry = CatalogEntry(id=ref.split("/", 1)[1], label=label, summary=summary,
                             item=Item.model_validate(item.model_dump()))
    except ValidationError:
        return Proposal("refused", label, reason="unreadable",
                        changes=("the described item could not be made",))
    invented = InventedItem(ref=ref, entry=entry, like=like.ref if like else None,
                            fights_as=template.ref if template and item.attack else None,
                            changes=tuple(c.text for c in changes))
    return Proposal("invented", label, as_ruleset_item(invented), invented,
                    tuple(c.text for c in changes if not c.hidden))


def propose_instructions(ruleset: Ruleset) -> str | None:
    """ITM-PROPOSE-17 (and -02/03/04): the Game Master's proposal form, in the ruleset's words;
    None when the ruleset does not let him invent items (ITM-BLOCK-22)."""
    block = ruleset.items
    if block is None or not block.propose:
        return None
    lines = [
        'New items: [inventory: action="add" item="Name" like="a ruleset item" category= '
        "rarity= tags= stats=\"id=value, ...\" slots=\"id=count\""
        + (" binds=yes|cursed|no" if block.binding else "")
        + ' worn="+1 Skill; disadvantage on Skill checks" carried="+1 Attribute" summary=]',
        f"Categories: {', '.join(c.label for c in block.categories)}.",
    ]
    lines += [f"Rarities: {', '.join(r.label for r in block.rarities)}."] if block.rarities else []
    lines += [f"Tags: {', '.join(t.label for t in block.tags)}."] if block.tags else []
    shown = [s.label for s in block.stats if s.prompt_visible]
    lines += [f"Stats: {', '.join(shown)}."] if shown else []
    lines += [f"Slots: {', '.join(s.label for s in block.slots)}."] if block.slots else []
    lines.append("A weapon made like= another weapon fights like it; an item like= a usable item "
                 "is used like it. The engine holds every invention to the ruleset's limits.")
    return "\n".join(lines)
