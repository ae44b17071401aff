"""``seeds_after`` gives the seeds ``derive_seed`` gives (SPEC §5: a transcript's candidates throw
the dice they always have), only with its first parts hashed once."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from middleware.dice import derive_seed, seeds_after

parts = st.one_of(st.integers(), st.text(), st.booleans(), st.none())


@given(st.lists(parts, min_size=1, max_size=3), st.lists(parts, min_size=1, max_size=3))
def test_the_seeds_of_derive_seed(head: list[object], rest: list[object]) -> None:
    assert seeds_after(*head)(*rest) == derive_seed(*head, *rest)


def test_a_replays_seeds_as_they_were() -> None:
    seeds = seeds_after(3, "long")
    assert [seeds(turn, 0) for turn in (1, 2)] == [derive_seed(3, "long", 1, 0),
                                                   derive_seed(3, "long", 2, 0)]


def test_nothing_to_hash_first_is_refused() -> None:
    with pytest.raises(ValueError, match="one part or more"):
        seeds_after()
