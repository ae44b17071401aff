"""Pure bag operations: stacks filled to their limit, pieces taken, split off and merged back
(ITM-BAG-01, -05, -10, -13, ITM-ENTRY-06, ITM-MONEY-01)."""

from __future__ import annotations

from middleware.items.bag import Goods, held, merge_back, put, split_off, take
from middleware.state import Stack

NAILS = Goods(item="kit/silver-nail")
SHILLINGS = Goods(coins="shilling")


def counts(bag: tuple[Stack, ...]) -> list[int]:
    return [s.count for s in bag]


def test_adding_past_the_stack_limit_fills_the_stack_and_starts_new_ones() -> None:
    """ITM-BAG-05: 5 nails held, 20 more with stack 12 → 12, 12, 1."""
    bag = (Stack(item="kit/silver-nail", count=5),)
    assert [12, 12, 1] == counts(put(bag, NAILS, 20, 12))


def test_an_item_with_charges_sits_alone_in_each_stack() -> None:
    """ITM-ENTRY-06 / ITM-BAG-18: limit 1 gives one stack per piece, each fresh (charges unset =
    full, nobody has used it)."""
    bag = put((), Goods(item="kit/dawn-bell"), 3, 1)
    assert [1, 1, 1] == counts(bag)
    assert [None, None, None] == [s.charges for s in bag]


def test_coins_are_stacks_like_any_other() -> None:
    """ITM-MONEY-01: a coin stack merges and splits like an item stack."""
    bag = put((Stack(coins="shilling", count=4),), SHILLINGS, 3, 999_999)
    assert (Stack(coins="shilling", count=7),) == bag


def test_an_equipped_stack_is_never_topped_up() -> None:
    """ITM-BAG-10: an equipped piece keeps its own stack; new pieces start a loose one."""
    bag = (Stack(item="kit/silver-nail", count=1, equipped=True),)
    assert (Stack(item="kit/silver-nail", count=1, equipped=True),
            Stack(item="kit/silver-nail", count=2)) == put(bag, NAILS, 2, 12)


def test_taking_prefers_loose_stacks_and_removes_emptied_ones() -> None:
    """Pieces leave loose stacks first, newest first; an emptied stack is gone."""
    bag = (Stack(item="kit/silver-nail", count=1, equipped=True),
           Stack(item="kit/silver-nail", count=2), Stack(coins="penny", count=9))
    after, taken = take(bag, NAILS, 2)
    assert 2 == taken
    assert (Stack(item="kit/silver-nail", count=1, equipped=True),
            Stack(coins="penny", count=9)) == after


def test_taking_more_than_held_takes_what_there_is() -> None:
    bag = (Stack(item="kit/silver-nail", count=2),)
    assert ((), 2) == take(bag, NAILS, 5)


def test_a_bound_cursed_stack_does_not_let_go() -> None:
    """ITM-BAG-13: a bound stack of a cursed item is never taken."""
    bag = (Stack(item="kit/widows-ring", bound=True, equipped=True),)
    assert (bag, 0) == take(bag, Goods(item="kit/widows-ring"), 1, cursed=True)


def test_a_plain_item_matches_its_name_without_case_or_punctuation() -> None:
    """Plain names compare as every name does (SPEC §1b)."""
    bag = (Stack(plain="Tarred rope"),)
    assert 1 == held(bag, Goods(plain="tarred-ROPE"))
    assert 0 == held(bag, Goods(item="tarred rope"))


def test_a_renamed_stack_stays_its_item() -> None:
    """ITM-BAG-01: a nickname does not change what a stack is."""
    stack = Stack(item="kit/grave-spade", nickname="Old Faithful")
    assert Goods(item="kit/grave-spade") == Goods.of(stack)


def test_split_off_makes_one_piece_its_own_equipped_stack() -> None:
    """ITM-BAG-10: one piece of a larger stack is split off to be equipped."""
    bag = (Stack(item="kit/silver-nail", count=3),)
    assert (Stack(item="kit/silver-nail", count=2),
            Stack(item="kit/silver-nail", count=1, equipped=True)) == \
        split_off(bag, 0, 1, equipped=True)


def test_merge_back_joins_a_stack_that_became_loose_again() -> None:
    """An unequipped piece joins the loose stack of its item, within the limit."""
    bag = (Stack(item="kit/silver-nail", count=2), Stack(item="kit/silver-nail", count=1))
    assert (Stack(item="kit/silver-nail", count=3),) == merge_back(bag, 1, 12)
