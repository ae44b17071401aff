"""Bag operations keep their results when a bag's per-stack values come from the bag before
(issue 4: big bags), and answer exactly as a fresh look at every stack does (ITM-BAG-01, -05, -10,
-13, -14)."""

from __future__ import annotations

from middleware.items.bag import (
    Goods,
    held,
    holds,
    merge_back,
    per_stack,
    positions,
    put,
    split_off,
    stack_key,
    take,
    with_item,
)
from middleware.items.carry import bag_weight
from middleware.items.index import item_index
from middleware.resolve.inventory.find import held_goods
from middleware.rules.registry import load_bundled
from middleware.state import Stack

ROPE = Goods(item="pack/rope")
TRINKETS = tuple(Stack(plain=f"Trinket {i}") for i in range(200))


def fresh_keys(bag: tuple[Stack, ...]) -> list[tuple[str | None, ...]]:
    return [stack_key(s) for s in bag]


def test_keys_of_a_bag_made_by_many_changes_match_a_fresh_look() -> None:
    """Issue 4: after puts, takes, splits and merges the kept keys equal each stack's own key."""
    bag = put(TRINKETS, ROPE, 30, 12)
    per_stack(bag, "goods", stack_key)  # kept here, so the later bags are worked out from it
    bag = put(bag, Goods(plain="trinket 7"), 2, 20)
    bag, _ = take(bag, Goods(plain="Trinket 3"), 1)
    bag = split_off(bag, 200, 1, equipped=True)  # the second rope stack: 11 and 1
    unequipped = (*bag[:201], bag[201].model_copy(update={"equipped": False}), *bag[202:])
    bag = merge_back(unequipped, 201, 12)
    assert [12, 12, 6] == [s.count for s in bag if s.item == ROPE.item]
    assert fresh_keys(bag) == list(per_stack(bag, "goods", stack_key))


def test_plain_names_match_without_case_or_punctuation_in_a_big_bag() -> None:
    """ITM-BAG-01: ``trinket-150`` is the stack ``Trinket 150``; it alone is found."""
    assert [150] == positions(TRINKETS, Goods(plain="trinket-150"))
    assert 1 == held(TRINKETS, Goods(plain="TRINKET 150"))
    assert not holds(TRINKETS, Goods(plain="Trinket 9999"))


def test_a_plain_name_never_matches_a_ruleset_item_and_back() -> None:
    """ITM-BAG-01: a plain item called like a ref is still a plain item."""
    bag = (Stack(plain="pack/rope"), Stack(item="pack/rope", count=3))
    assert [1] == positions(bag, ROPE)
    assert [0] == positions(bag, Goods(plain="pack/rope"))


def test_adding_then_removing_leaves_the_bag_as_it_was() -> None:
    """ITM-BAG-05/13: a pebble added to 200 trinkets and taken out again leaves the same bag."""
    bag = put(TRINKETS, Goods(plain="Pebble"), 1, 20)
    after, taken = take(bag, Goods(plain="pebble"), 5)
    assert (201, 1, 200) == (len(bag), taken, len(after))
    assert TRINKETS == after
    assert 0 == held(after, Goods(plain="Pebble"))


def test_take_goes_newest_loose_first_and_keeps_untouched_stacks() -> None:
    """ITM-BAG-13: loose stacks first, newest first; the oldest stack keeps its place."""
    bag = (Stack(item="pack/rope", count=5), *TRINKETS[:3],
           Stack(item="pack/rope", count=2))
    after, taken = take(bag, ROPE, 4)
    assert 4 == taken
    assert [3] == [s.count for s in after if s.item == ROPE.item]
    assert 0 == positions(after, ROPE)[0]


def test_a_fake_shows_under_the_item_it_passes_for() -> None:
    """ITM-FAKE-07: ``with_item`` finds stacks by the ref they show, fakes included."""
    bag = (*TRINKETS[:2], Stack(item="pack/rope", really="pack/old-rope"))
    assert [2] == with_item(bag, "pack/rope")
    assert [] == positions(bag, ROPE)


def test_the_weight_of_a_changed_bag_is_the_sum_stack_by_stack() -> None:
    """ITM-BAG-14: rope weighs by its carry stat; after a put and a take the load is the same
    float as adding every stack up in bag order."""
    rules = load_bundled("hearth-and-haul")
    index = item_index(rules)
    start = (*TRINKETS[:50], Stack(coins="penny", count=37))
    bag_weight(index, start)
    bag = put(start, ROPE, 3, 12)
    bag, _ = take(bag, Goods(coins="penny"), 5)
    expected = sum(bag_weight(index, (s,)) for s in bag)
    assert expected == bag_weight(index, bag)
    assert bag_weight(index, bag) > 0


def test_a_nickname_deep_in_a_big_bag_names_its_stack() -> None:
    """ITM-BAG-01: a renamed stack answers to its nickname and stays its item, however many
    stacks come before it."""
    index = item_index(load_bundled("hearth-and-haul"))
    bag = (*TRINKETS[:60], Stack(item="pack/rope", nickname="Bessie"), *TRINKETS[60:])
    found = held_goods(index, bag, "bessie")
    assert found is not None
    assert ROPE == found.goods


def test_a_plain_name_deep_in_a_big_bag_is_found_by_either_spelling() -> None:
    """ITM-BAG-01 / SPEC §1b: ``trinket 150`` finds the stack ``Trinket 150``; a name nobody
    holds finds nothing."""
    index = item_index(load_bundled("hearth-and-haul"))
    found = held_goods(index, TRINKETS, "TRINKET-150")
    assert found is not None
    assert Goods(plain="Trinket 150") == found.goods
    assert held_goods(index, TRINKETS, "Lantern of nowhere") is None
