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


K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


class LruCache(Generic[K, V]):
    """At most ``maxsize`` entries; past it the least recently used goes first (a read with
    ``get``, ``[]`` or ``setdefault`` and a write make an entry the most recently used; ``in``
    does not). The same answers as ``cachetools.LRUCache`` with every entry weighing one, on an
    ``OrderedDict`` whose reordering is done in C: the engine asks several per request, and
    cachetools' layers of Python methods cost more than the rest of a cached look-up."""

    __slots__ = ("_entries", "maxsize")

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._entries: OrderedDict[K, V] = OrderedDict()

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: T) -> V | T: ...

    def get(self, key: K, default: object = None) -> object:
        entries = self._entries
        if key in entries:
            entries.move_to_end(key)
            return entries[key]
        return default

    def __getitem__(self, key: K) -> V:
        entries = self._entries
        value = entries[key]
        entries.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        entries = self._entries
        if key in entries:
            entries[key] = value
            entries.move_to_end(key)
            return
        if self.maxsize < 1:
            raise ValueError("value too large")
        while len(entries) >= self.maxsize:
            entries.popitem(last=False)
        entries[key] = value

    def setdefault(self, key: K, default: V) -> V:
        if key in self._entries:
            return self[key]
        self[key] = default
        return default

    def pop(self, key: K, default: V | None = None) -> V | None:
        return self._entries.pop(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)
