"""Values worked out once per immutable input, looked up by the inputs' identity.

A ruleset is loaded once and never changes, so what is derived from it (its item index, its words,
its market) is built once per ruleset object and reused by every tag. Each entry keeps strong
references to the objects it is keyed on, so an ``id`` cannot be taken by another object while the
entry lives; past its limit the cache starts again empty (a process holds a handful of rulesets).
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")
V = TypeVar("V")


class IdentityCache(Generic[V]):
    """``get(objects, extra, build)``: ``build()`` once per identity of ``objects`` plus the
    hashable ``extra``; later calls with the same objects (by identity) get the same value."""

    __slots__ = ("_entries", "_limit")

    def __init__(self, limit: int = 64) -> None:
        self._limit = limit
        self._entries: dict[Hashable, tuple[tuple[object, ...], V]] = {}

    def get(self, objects: tuple[object, ...], extra: Hashable, build: Callable[[], V]) -> V:
        key = (*map(id, objects), extra)
        hit = self._entries.get(key)
        if hit is not None:
            # A hit is the same objects: the entry holds them, so no other object has their ids.
            return hit[1]
        if len(self._entries) > self._limit:
            self._entries.clear()
        made = build()
        self._entries[key] = (objects, made)
        return made


def per_ruleset(build: Callable[[R], V]) -> Callable[[R], V]:
    """``build(ruleset)`` worked out once per ruleset object (a decorator).

    One object, no extra key: looked up by its id alone, since this runs on every tag."""
    entries: dict[int, tuple[R, V]] = {}

    @functools.wraps(build)
    def once(ruleset: R) -> V:
        hit = entries.get(id(ruleset))
        if hit is not None and hit[0] is ruleset:
            return hit[1]
        if len(entries) > 64:
            entries.clear()
        made = build(ruleset)
        entries[id(ruleset)] = (ruleset, made)
        return made
    return once


class Recent(Generic[K, V]):
    """The values of the ``maxsize`` keys used last: ``get`` and setting a key mark it used, and
    setting one past ``maxsize`` drops the key used longest ago (``cachetools.LRUCache``, for the
    few calls the engine makes on every reply). ``LRUCache`` passes each call through four or five
    Python methods (for the sizes of values, which the engine never weighs): its gets and sets
    were about 3 µs of a replayed turn, twice what these take."""

    __slots__ = ("_entries", "_maxsize")

    def __init__(self, maxsize: int) -> None:
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._maxsize = maxsize

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: V) -> V: ...

    def get(self, key: K, default: V | None = None) -> V | None:
        entries = self._entries
        if key not in entries:
            return default
        entries.move_to_end(key)
        return entries[key]

    def __setitem__(self, key: K, value: V) -> None:
        entries = self._entries
        entries[key] = value
        entries.move_to_end(key)
        if len(entries) > self._maxsize:
            entries.popitem(last=False)

    def pop(self, key: K, default: V | None = None) -> V | None:
        return self._entries.pop(key, default)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
