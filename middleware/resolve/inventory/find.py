"""Who and what an inventory tag names (SPEC §1b, §10, ITM-BAG-01/03/04).

- ``holder``: ``who=`` (or ``to=``) names a party member as checks do (SHEET-CHK-02); absent, the
  player. A name nobody answers to, or two members share, is ``unknown-character``.
- ``named_goods``: what a name means in the ruleset: a ruleset item (by ref or label, the first
  listed wins), then a coin (by id, label or ``one``).
- ``held_goods``: what a name means in one bag: the ruleset item or coin it names when the bag holds
  it, else a stack whose plain name or nickname it is (ITM-BAG-01: a renamed stack stays its item).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from middleware.items.bag import Bag, Goods, holds, per_stack
from middleware.items.index import STANDARD_STACK, ItemIndex, RulesetItem
from middleware.names import normalize_name
from middleware.sheet.roller import find_roller
from middleware.state import Character, GameState, Stack


@dataclass(frozen=True, slots=True)
class Member:
    """A party member by index, as they stand in the state the action starts from."""

    index: int
    character: Character

    @property
    def name(self) -> str:
        return self.character.name


@dataclass(frozen=True, slots=True)
class Named:
    """Goods a name resolved to, their name in the rewritten tag, and the stack limit."""

    goods: Goods
    label: str
    limit: int = STANDARD_STACK
    found: RulesetItem | None = None


def holder(state: GameState, who: str | None) -> Member | None:
    """``who`` (absent: the player) as a party member, or None when nobody answers to it."""
    roller = find_roller(state, who)
    if roller.index is None or roller.stranger:
        return None
    return Member(roller.index, state.party[roller.index])


def named_goods(index: ItemIndex, name: str, state: GameState | None = None) -> Named | None:
    """ITM-BAG-03/04: the ruleset item the name is (first listed wins), else an item invented in
    this game (ITM-PROPOSE-13), else the coin it is."""
    found = seen(index, state).find(name)
    if found is not None:
        return Named(Goods(item=found.ref), found.label, found.stack_limit, found)
    coin = index.coin(name)
    if coin is not None:
        return Named(Goods(coins=coin.unit.id), coin.unit.label)
    return None


def held_goods(index: ItemIndex, bag: Bag, name: str,
               state: GameState | None = None) -> Named | None:
    """What ``name`` means in ``bag``: a ruleset item or coin it holds, else a plain item or a
    stack's nickname; None when the bag holds nothing by that name."""
    known = named_goods(index, name, state)
    if known is not None and holds(bag, known.goods):
        return known
    fake = _first(per_stack(bag, "passes-for", _passes_for), known.goods.item) if known else None
    if fake is not None:  # ITM-FAKE-07: a fake answers to the name it passes under
        return named_of(index, Goods.of(bag[fake]), state)
    key = normalize_name(name)
    plain = _first(per_stack(bag, "plain-name", lambda s: _name_key(s.plain or "")), key)
    nick = _first(per_stack(bag, "nickname", lambda s: _name_key(s.nickname or "")), key)
    found = min((at for at in (plain, nick) if at is not None), default=None)
    return named_of(index, Goods.of(bag[found]), state) if found is not None else None


_name_key = functools.lru_cache(maxsize=8192)(normalize_name)
"""Stack names come back tag after tag: each is worked out once."""

_GENUINE = object()
"""What a stack that is no fake passes for: nothing a name can be."""


def _passes_for(stack: Stack) -> object:
    """The item ref a fake shows as (ITM-FAKE-07)."""
    return stack.item if stack.really else _GENUINE


def _first(values: tuple[object, ...], wanted: object) -> int | None:
    """The first position of ``wanted`` (a C-level scan, issue 4)."""
    try:
        return values.index(wanted)
    except ValueError:
        return None


def named_of(index: ItemIndex, goods: Goods, state: GameState | None = None) -> Named:
    """The ``Named`` form of goods already in a bag (an invented item by its stored ref)."""
    if goods.item is not None:
        found = seen(index, state).by_ref(goods.item)
        if found is not None:
            return Named(goods, found.label, found.stack_limit, found)
        return Named(goods, goods.item)
    if goods.coins is not None:
        coin = index.coin(goods.coins)
        return Named(goods, coin.unit.label if coin else goods.coins)
    return Named(goods, goods.plain or "")


def seen(index: ItemIndex, state: GameState | None) -> ItemIndex:
    """ITM-PROPOSE-13: ``index`` with the game's invented items (as it is without a state)."""
    return index.with_invented(state.invented) if state is not None else index


def anyone_holds(state: GameState, index: ItemIndex, name: str) -> bool:
    """Somebody in the party holds something by this name."""
    return any(held_goods(index, member.bag, name, state) is not None for member in state.party)
