"""A pool throw is counted with its check's face table: the same successes and cancelling dice as
the rules read die by die (CHK-POOL-05/06/09/18/19)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from middleware.dice import Dice
from middleware.resolve.checks.dice_pool.rules import (
    PoolCheck,
    count_faces,
    die_successes,
    roll_pool,
)


@st.composite
def pool_checks(draw: st.DrawFn) -> PoolCheck:
    """Any counting rules on a small die: a target, a double, a cancel, a stance, an exact rule."""
    sides = draw(st.integers(2, 12))
    face = st.integers(1, sides)
    return PoolCheck(
        sides=sides, dice=draw(st.integers(0, 8)), target=draw(face),
        double=draw(st.none() | face), cancel=draw(st.none() | face),
        count=draw(st.sampled_from(["reach", "below", "above"])),
        exact_counts=draw(st.none() | st.booleans()),
        explode=draw(st.none() | face), explode_cap=draw(st.integers(0, 6)),
    )


@given(check=pool_checks(), data=st.data())
def test_the_face_table_counts_what_the_rules_count_die_by_die(check: PoolCheck,
                                                               data: st.DataObject) -> None:
    """Any rules, any faces: the table's successes and cancels are the per-die rules' sums."""
    faces = tuple(data.draw(st.lists(st.integers(1, check.sides), max_size=12)))
    by_rule = (sum(die_successes(check, face) for face in faces),
               sum(1 for face in faces if check.cancel is not None and face <= check.cancel))
    assert by_rule == count_faces(check, faces)


@given(check=pool_checks(), seed=st.integers(0, 2**32))
def test_a_seeded_pool_throw_counts_its_own_faces(check: PoolCheck, seed: int) -> None:
    """CHK-POOL-07/09: ``net`` is the successes of the dice that counted less those that cancel,
    never below zero; every starting and explosion die is in ``rolls``, in order."""
    roll = roll_pool(check, Dice(seed))
    successes, cancelled = count_faces(check, roll.faces)
    assert (successes, max(successes - cancelled, 0)) == (roll.successes, roll.net)
    assert roll.rolls == roll.faces
    assert check.dice + roll.exploded == len(roll.rolls)
