"""``cache.Recent`` keeps what ``cachetools.LRUCache`` keeps, for the calls the engine makes: the
engine's memory of chats swapped one for the other must drop the same chats in the same order."""

from __future__ import annotations

from cachetools import LRUCache
from hypothesis import given
from hypothesis import strategies as st

from middleware.cache import Recent

calls = st.lists(st.tuples(st.sampled_from(["get", "set", "pop"]), st.integers(0, 6),
                           st.integers()), max_size=60)


@given(st.integers(1, 4), calls)
def test_the_keys_and_values_an_lru_cache_keeps(maxsize: int,
                                                done: list[tuple[str, int, int]]) -> None:
    recent: Recent[int, int] = Recent(maxsize)
    lru: LRUCache[int, int] = LRUCache(maxsize=maxsize)
    for call, key, value in done:
        if call == "get":
            assert recent.get(key) == lru.get(key)
            assert recent.get(key, -1) == lru.get(key, -1)
        elif call == "set":
            recent[key] = value
            lru[key] = value
        else:
            assert recent.pop(key, None) == lru.pop(key, None)
        assert len(recent) == len(lru)
        assert all(recent.get(k) == lru.get(k) for k in range(7))


def test_the_key_used_longest_ago_is_dropped() -> None:
    recent: Recent[str, int] = Recent(2)
    recent["a"], recent["b"] = 1, 2
    recent.get("a")
    recent["c"] = 3
    assert (recent.get("a"), recent.get("b"), recent.get("c")) == (1, None, 3)
    recent.clear()
    assert len(recent) == 0
