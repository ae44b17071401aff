"""Pure operations on one bag: a tuple of stacks in, a new tuple out (ITM-BAG-01, -05, -10, -13).

``Goods`` is what a stack is, whatever the player renamed it to (ITM-BAG-01): a ruleset item by its
``<catalog>/<entry>`` ref, a coin by its id (coins are stacks like any other, ITM-MONEY-01), or a
plain item by its name. Every function here is pure; none reads the ruleset except through the
stack limit it is given.

- ``put`` fills the loose stacks of the same goods up to the limit, then starts new ones
  (ITM-BAG-05); an item with charges therefore always sits alone (limit 1, ITM-ENTRY-06).
- ``take`` removes pieces, loose stacks first and the newest first, never a bound cursed one
  (ITM-BAG-13), and equipped ones only when nothing loose is left.
- ``split_off`` makes one stack of ``count`` pieces to equip or bind (ITM-BAG-10).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from middleware.state import Stack, normalize_name

Bag = tuple[Stack, ...]


@dataclass(frozen=True, slots=True)
class Goods:
    """What a stack holds: exactly one of a ruleset item ref, a coin id or a plain item's name."""

    item: str | None = None
    coins: str | None = None
    plain: str | None = None
    really: str | None = None
    """ITM-FAKE-07: a fake that shows as ``item``; it never joins a stack of the real thing."""

    @classmethod
    def of(cls, stack: Stack) -> Goods:
        """The goods of ``stack``."""
        return cls(stack.item, stack.coins, stack.plain, stack.really)

    def matches(self, stack: Stack) -> bool:
        """The stack holds these goods (a plain name without case, accents or punctuation)."""
        if self.plain is not None:
            return stack.plain is not None and normalize_name(stack.plain) == \
                normalize_name(self.plain)
        return (stack.item, stack.coins, stack.really) == (self.item, self.coins, self.really) \
            and stack.plain is None

    def stack(self, count: int) -> Stack:
        """A fresh stack of ``count`` pieces: unequipped, unbound, switched off, full (charges and
        loaded left unset: ITM-BAG-18/19, an item nobody has used is full and loaded)."""
        return Stack(item=self.item, coins=self.coins, plain=self.plain, count=count,
                     really=self.really)


def is_loose(stack: Stack) -> bool:
    """Not equipped, bound or switched on: pieces may join it or leave it freely."""
    return not (stack.equipped or stack.bound or stack.on)


def held(bag: Bag, goods: Goods, where: Callable[[Stack], bool] | None = None) -> int:
    """How many pieces of ``goods`` the bag holds (only in stacks ``where`` keeps, when given)."""
    return sum(s.count for s in bag if goods.matches(s) and (where is None or where(s)))


def put(bag: Bag, goods: Goods, count: int, limit: int) -> Bag:
    """ITM-BAG-05: fill loose stacks of ``goods`` up to ``limit``, then start new stacks."""
    out = list(bag)
    left = count
    for i, stack in enumerate(out):
        if left <= 0:
            break
        if goods.matches(stack) and is_loose(stack) and stack.count < limit:
            moved = min(limit - stack.count, left)
            out[i] = stack.model_copy(update={"count": stack.count + moved})
            left -= moved
    while left > 0:
        moved = min(limit, left)
        out.append(goods.stack(moved))
        left -= moved
    return tuple(out)


def takeable(stack: Stack, cursed: bool) -> bool:
    """ITM-BAG-13: a bound cursed item does not let go."""
    return not (cursed and stack.bound)


def take(bag: Bag, goods: Goods, count: int, cursed: bool = False) -> tuple[Bag, int]:
    """Remove up to ``count`` pieces; returns the new bag and how many were taken.

    Loose stacks go first, newest first (the oldest stack keeps its place); then equipped or bound
    ones, which are unequipped by leaving. A bound stack of a ``cursed`` item is never taken.
    """
    order = sorted(
        (i for i, s in enumerate(bag) if goods.matches(s) and takeable(s, cursed)),
        key=lambda i: (not is_loose(bag[i]), -i))
    counts = {i: bag[i].count for i in order}
    left = count
    for i in order:
        moved = min(counts[i], left)
        counts[i] -= moved
        left -= moved
    out = tuple(s if i not in counts else s.model_copy(update={"count": counts[i]})
                for i, s in enumerate(bag) if i not in counts or counts[i] > 0)
    return out, count - left


def split_off(bag: Bag, index: int, count: int, **flags: bool) -> Bag:
    """ITM-BAG-10: ``count`` pieces of stack ``index`` become their own stack with ``flags`` set
    (the whole stack when it holds exactly ``count``); the new stack follows the old one."""
    stack = bag[index]
    marked = stack.model_copy(update={"count": count, **flags})
    if count >= stack.count:
        return (*bag[:index], marked, *bag[index + 1:])
    rest = stack.model_copy(update={"count": stack.count - count})
    return (*bag[:index], rest, marked, *bag[index + 1:])


def merge_back(bag: Bag, index: int, limit: int) -> Bag:
    """A stack that became loose again joins the loose stacks of its goods (ITM-BAG-05)."""
    stack = bag[index]
    if not is_loose(stack):
        return bag
    rest = (*bag[:index], *bag[index + 1:])
    if not any(Goods.of(stack).matches(s) and is_loose(s) for s in rest):
        return bag
    return put(rest, Goods.of(stack), stack.count, limit)


def first_index(bag: Bag, goods: Goods, where: Callable[[Stack], bool]) -> int | None:
    """The first stack of ``goods`` that ``where`` keeps, or None."""
    return next((i for i, s in enumerate(bag) if goods.matches(s) and where(s)), None)
