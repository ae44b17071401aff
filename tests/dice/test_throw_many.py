"""``Dice.throw_many`` throws what as many ``Dice.throw`` calls would, and seeding waits for the
first seeded face (SPEC §5: a stored seed and script replay exactly, every face is recorded)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import middleware.dice as dice_module
from middleware.dice import Dice
from middleware.errors import DiceError

SIDES = (1, 2, 3, 6, 10, 20, 100, 1000, 65_537)

Asked = list[tuple[int, int]]
"""Dice asked for in turn: (how many, how many sides)."""

requests = st.lists(st.tuples(st.integers(0, 12), st.sampled_from(SIDES)), max_size=6)
scripts = st.lists(st.integers(1, 6), max_size=10)


def one_at_a_time(dice: Dice, asked: Asked) -> list[list[int]]:
    return [[dice.throw(sides) for _ in range(count)] for count, sides in asked]


def all_at_once(dice: Dice, asked: Asked) -> list[list[int]]:
    return [dice.throw_many(count, sides) for count, sides in asked]


def outcome(throw: Callable[[Dice, Asked], list[list[int]]], dice: Dice,
            asked: Asked) -> tuple[list[list[int]] | str, list[int]]:
    """What the throws came to (their faces, or the error they raised) and ``thrown`` after."""
    try:
        return throw(dice, asked), dice.thrown
    except DiceError as exc:
        return str(exc), dice.thrown


@given(seed=st.integers(0, 2**63 - 1), script=scripts, asked=requests)
def test_throw_many_is_throw_repeated(seed: int, script: list[int], asked: Asked) -> None:
    """Any seed, any script (run out midway or not, faces out of range or not), any dice asked
    for: the faces in order, the error at the same throw, and the same ``thrown``."""
    expected = outcome(one_at_a_time, Dice(seed, script), asked)
    assert expected == outcome(all_at_once, Dice(seed, script), asked)


def test_a_script_that_runs_out_midway_continues_with_the_seed() -> None:
    """Three scripted faces, then the faces ``random.Random(seed)`` throws, in one ``throw_many``."""
    seeded = random.Random(7)
    dice = Dice(7, script=[6, 5, 4])
    expected = [6, 5, 4, *(seeded.randint(1, 6) for _ in range(5))]
    assert expected == dice.throw_many(8, 6) == dice.thrown
    assert 0 == dice.script_left


def test_a_bad_scripted_face_in_throw_many_names_its_throw_and_keeps_the_ones_before() -> None:
    """SPEC §5: the error names the throw; the faces thrown before it are recorded, as with
    ``throw``."""
    dice = Dice(0, script=[3, 9, 2])
    with pytest.raises(DiceError, match="scripted throw 2 is 9, outside a d6"):
        dice.throw_many(3, 6)
    assert [3] == dice.thrown


def test_a_die_of_no_sides_is_an_error_only_when_thrown() -> None:
    """Nothing thrown, nothing checked: no dice of a bad size is no error; one is."""
    dice = Dice(0)
    assert [] == dice.throw_many(0, 0)
    with pytest.raises(DiceError, match="sides, not 0"):
        dice.throw_many(1, 0)


def test_scripted_faces_never_seed_the_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``Dice`` fed only scripted faces never seeds a generator (seeding costs more than a
    check); the first seeded face does, and throws what an eager seeding would have."""
    seeded: list[int] = []

    def counting_random(seed: int) -> random.Random:
        seeded.append(seed)
        return random.Random(seed)

    monkeypatch.setattr(dice_module, "Random", counting_random)
    dice = Dice(11, script=[1, 2, 3])
    assert [1, 2, 3] == dice.throw_many(3, 6)
    assert [] == seeded
    assert [random.Random(11).randint(1, 20)] == dice.throw_many(1, 20)
    assert [11] == seeded


@given(seed=st.integers(-(2**80), 2**80) | st.integers(0, 2**63 - 1), asked=requests)
def test_a_seed_throws_what_random_random_throws(seed: int, asked: Asked) -> None:
    """SPEC §5: a stored seed throws the faces it always has, those of ``random.Random(seed)``'s
    ``randint``, whatever its size or sign (a transcript may give a seed wider than 64 bits)."""
    seeded = random.Random(seed)
    expected = [[seeded.randint(1, sides) for _ in range(count)] for count, sides in asked]
    assert expected == all_at_once(Dice(seed), asked)
