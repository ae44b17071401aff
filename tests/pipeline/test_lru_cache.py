"""The engine's caches forget the least recently used entry first, exactly as
``cachetools.LRUCache`` (which it used before) does: the same entries are kept after any run of
reads, writes and removals."""

from __future__ import annotations

import pytest
from cachetools import LRUCache
from hypothesis import given
from hypothesis import strategies as st

from middleware.cache import LruCache

KEYS = st.integers(0, 6)
OPS = st.lists(st.one_of(
    st.tuples(st.just("get"), KEYS), st.tuples(st.just("getitem"), KEYS),
    st.tuples(st.just("set"), KEYS), st.tuples(st.just("setdefault"), KEYS),
    st.tuples(st.just("pop"), KEYS), st.tuples(st.just("in"), KEYS)), max_size=60)


def _apply(cache: LRUCache[int, int] | LruCache[int, int], op: str, key: int, n: int) -> object:
    if op == "get":
        return cache.get(key)
    if op == "getitem":
        try:
            return cache[key]
        except KeyError:
            return None
    if op == "set":
        cache[key] = n
        return None
    if op == "setdefault":
        return cache.setdefault(key, n)
    if op == "pop":
        return cache.pop(key, None)
    return key in cache


@given(st.integers(1, 4), OPS)
def test_same_answers_and_entries_as_cachetools(maxsize: int, ops: list[tuple[str, int]]) -> None:
    """Every answer is the same, and so is what is kept, in the order it would be evicted."""
    theirs: LRUCache[int, int] = LRUCache(maxsize=maxsize)
    ours: LruCache[int, int] = LruCache(maxsize=maxsize)
    for n, (op, key) in enumerate(ops):
        assert _apply(theirs, op, key, n) == _apply(ours, op, key, n)
        assert len(theirs) == len(ours)
    survivors = []
    for key in range(7):  # a write past the limit evicts one entry at a time, oldest use first
        ours[100 + key] = theirs[100 + key] = key
        survivors.append((sorted(theirs.keys()), sorted(k for k in range(200) if k in ours)))
    assert all(a == b for a, b in survivors)


def test_no_room_refuses_the_entry() -> None:
    """A cache of size 0 keeps nothing: a write is refused, as cachetools refuses it."""
    ours: LruCache[str, int] = LruCache(maxsize=0)
    with pytest.raises(ValueError):
        ours["a"] = 1
    assert 0 == len(ours)
