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

Speed: a bag may hold a thousand stacks and a reply forty tags. What is read of every
stack (its goods key, its weight, its names) is kept per bag as a tuple aligned with the bag
(``per_stack``); a bag these functions make remembers how it was spliced from the one before, so
its aligned values are the old ones sliced the same way (C-level) plus the few stacks that changed.
Looking goods up is then ``tuple.index`` over keys, not a Python loop over stacks.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from middleware.names import normalize_name
from middleware.rules.stack_limits import BAG_STACKS
from middleware.state import Stack

Bag = tuple[Stack, ...]
Segment = slice | Stack
"""A run of the parent bag kept as it was, or a stack made anew."""
T = TypeVar("T")
V = TypeVar("V")
GoodsKey = tuple[str | None, ...]


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

    def key(self) -> GoodsKey:
        """What ``matches`` compares: equal keys, same goods."""
        if self.plain is not None:
            return ("plain", _plain_key(self.plain))
        return (self.item, self.coins, self.really)

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
    return sum(bag[i].count for i in positions(bag, goods) if where is None or where(bag[i]))


def holds(bag: Bag, goods: Goods) -> bool:
    """Some stack of the bag holds ``goods``."""
    return goods.key() in per_stack(bag, "goods", stack_key)


def positions(bag: Bag, goods: Goods) -> list[int]:
    """Where the stacks of ``goods`` sit in the bag, in order."""
    if len(bag) <= _SMALL:
        return [i for i, s in enumerate(bag) if goods.matches(s)]
    return every_index(per_stack(bag, "goods", stack_key), goods.key())


def with_item(bag: Bag, ref: str) -> list[int]:
    """Where the stacks showing item ``ref`` sit (a fake passing for it too), in order."""
    return every_index(per_stack(bag, "item", _item_of), ref)


def _item_of(stack: Stack) -> str | None:
    return stack.item


def put(bag: Bag, goods: Goods, count: int, limit: int) -> Bag:
    """ITM-BAG-05: fill loose stacks of ``goods`` up to ``limit``, then start new stacks; never
    past ``BAG_STACKS`` (callers cut the count first with ``stack_room.fitting`` and say so)."""
    changed: dict[int, tuple[Stack, ...]] = {}
    left = count
    for i in positions(bag, goods):
        stack = bag[i]
        if left <= 0:
            break
        if is_loose(stack) and stack.count < limit:
            moved = min(limit - stack.count, left)
            changed[i] = (stack.model_copy(update={"count": stack.count + moved}),)
            left -= moved
    fresh: list[Stack] = []
    while left > 0 and len(bag) + len(fresh) < BAG_STACKS:
        moved = min(limit, left)
        fresh.append(goods.stack(moved))
        left -= moved
    return splice(bag, changed, fresh)


def takeable(stack: Stack, cursed: bool) -> bool:
    """ITM-BAG-13: a bound cursed item does not let go."""
    return not (cursed and stack.bound)


def take(bag: Bag, goods: Goods, count: int, cursed: bool = False) -> tuple[Bag, int]:
    """Remove up to ``count`` pieces; returns the new bag and how many were taken.

    Loose stacks go first, newest first (the oldest stack keeps its place); then equipped or bound
    ones, which are unequipped by leaving. A bound stack of a ``cursed`` item is never taken.
    """
    order = sorted((i for i in positions(bag, goods) if takeable(bag[i], cursed)),
                   key=lambda i: (not is_loose(bag[i]), -i))
    changed: dict[int, tuple[Stack, ...]] = {}
    left = count
    for i in order:
        moved = min(bag[i].count, left)
        left -= moved
        if moved:  # an untouched stack stays the very same stack
            rest = bag[i].count - moved
            changed[i] = (bag[i].model_copy(update={"count": rest}),) if rest > 0 else ()
    return splice(bag, changed), count - left


def split_off(bag: Bag, index: int, count: int, **flags: bool) -> Bag:
    """ITM-BAG-10: ``count`` pieces of stack ``index`` become their own stack with ``flags`` set
    (the whole stack when it holds exactly ``count``); the new stack follows the old one."""
    stack = bag[index]
    marked = stack.model_copy(update={"count": count, **flags})
    if count >= stack.count:
        return splice(bag, {index: (marked,)})
    rest = stack.model_copy(update={"count": stack.count - count})
    return splice(bag, {index: (rest, marked)})


def merge_back(bag: Bag, index: int, limit: int) -> Bag:
    """A stack that became loose again joins the loose stacks of its goods (ITM-BAG-05)."""
    stack = bag[index]
    if not is_loose(stack):
        return bag
    rest = splice(bag, {index: ()})
    goods = Goods.of(stack)
    if not any(is_loose(rest[i]) for i in positions(rest, goods)):
        return bag
    return put(rest, goods, stack.count, limit)


def first_index(bag: Bag, goods: Goods, where: Callable[[Stack], bool]) -> int | None:
    """The first stack of ``goods`` that ``where`` keeps, or None."""
    return next((i for i in positions(bag, goods) if where(bag[i])), None)


# --- per-stack values kept per bag ----------------------------------------------------------


def stack_key(stack: Stack) -> GoodsKey:
    """The ``Goods.key`` of what ``stack`` holds."""
    if stack.plain is not None:
        return ("plain", _plain_key(stack.plain))
    return (stack.item, stack.coins, stack.really)


@functools.lru_cache(maxsize=8192)
def _plain_key(name: str) -> str:
    """A plain name as ``matches`` compares it (the same names come back tag after tag)."""
    return normalize_name(name)


def every_index(values: tuple[object, ...], wanted: object) -> list[int]:
    """Every position of ``wanted`` in ``values``; the scan is ``tuple.index``, in C."""
    found: list[int] = []
    at = -1
    while True:
        try:
            at = values.index(wanted, at + 1)
        except ValueError:
            return found
        found.append(at)


def splice(bag: Bag, changed: dict[int, tuple[Stack, ...]], tail: Iterable[Stack] = ()) -> Bag:
    """``bag`` with each stack at a ``changed`` position replaced by its stacks (none: removed)
    and ``tail`` added at the end; the new bag remembers the splice (see ``per_stack``)."""
    if len(bag) <= _SMALL:
        out = list(bag)
        for at in sorted(changed, reverse=True):  # from the back: earlier positions stay put
            out[at:at + 1] = changed[at]
        return (*out, *tail)
    segments: list[Segment] = []
    after = 0
    for at in sorted(changed):
        segments.extend((slice(after, at), *changed[at]))
        after = at + 1
    segments.extend((slice(after, len(bag)), *tail))
    made = tuple(itertools.chain.from_iterable(_apply(bag, segments, lambda s: s)))
    if len(made) > _SMALL:
        _SPLICED.keep((made,), None, (bag, tuple(segments)))
    return made


def per_stack(bag: Bag, kind: Hashable, of: Callable[[Stack], T],
              also: tuple[object, ...] = ()) -> tuple[T, ...]:
    """``tuple(map(of, bag))``, kept per bag (and ``also``, by identity) under ``kind``: a bag
    ``splice`` made reads its parent's values and works ``of`` out for its new stacks only."""
    if len(bag) <= _SMALL:  # a look at every stack costs less than remembering it
        return tuple(map(of, bag))
    steps: list[tuple[Bag, tuple[Segment, ...]]] = []
    current = bag
    values: tuple[T, ...] | None = _PER_STACK.peek((current, *also), kind)
    while values is None:
        made = _SPLICED.peek((current,), None) if len(steps) < _MAX_STEPS else None
        if made is None:
            values = tuple(map(of, current))
            break
        steps.append((current, made[1]))
        current = made[0]
        values = _PER_STACK.peek((current, *also), kind)
    _PER_STACK.keep((current, *also), kind, values)
    for child, segments in reversed(steps):
        values = tuple(itertools.chain.from_iterable(_apply(values, segments, of)))
        _PER_STACK.keep((child, *also), kind, values)
    return values


def _apply(values: tuple[T, ...], segments: Iterable[Segment],
           of: Callable[[Stack], T]) -> Iterable[tuple[T, ...]]:
    return (values[s] if isinstance(s, slice) else (of(s),) for s in segments)


class _ByIdentity(Generic[V]):
    """Values looked up by the identity of the objects they were made from; each entry holds its
    objects, so an ``id`` is not reused while it lives; past ``limit`` the older half is dropped."""

    __slots__ = ("_entries", "_limit")

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._entries: dict[Hashable, tuple[tuple[object, ...], V]] = {}

    def peek(self, objects: tuple[object, ...], extra: Hashable) -> V | None:
        hit = self._entries.get((*map(id, objects), extra))
        if hit is None or not all(map(operator.is_, hit[0], objects)):
            return None
        return hit[1]

    def keep(self, objects: tuple[object, ...], extra: Hashable, value: V) -> None:
        if len(self._entries) > self._limit:  # the older half goes: the newest bags are read next
            for old in list(itertools.islice(self._entries, self._limit // 2)):
                del self._entries[old]
        self._entries[(*map(id, objects), extra)] = (objects, value)


_SMALL = 24
"""Bags up to this many stacks are read afresh each time (the common case: fast either way)."""
_MAX_STEPS = 64
"""Past this many splices without kept values, working the bag out afresh is as cheap."""
_SPLICED: _ByIdentity[tuple[Bag, tuple[Segment, ...]]] = _ByIdentity(1024)
_PER_STACK: _ByIdentity[Any] = _ByIdentity(1024)
"""Every ``per_stack`` kind's values in one cache: each kind reads back the tuple it kept."""
