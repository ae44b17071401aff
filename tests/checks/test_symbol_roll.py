"""Rolling a ruleset's symbol dice by name, outside a check (CHK-SYM-19/20)."""

from __future__ import annotations

from middleware.dice import Dice
from middleware.resolve.checks.symbol_pool.roll import MAX_NAMED_DICE, roll_symbols
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from tests.rules.kind_examples import GENESYS, ruleset_with
from tests.rulesets import bundled_json

REF: Ruleset = load_ruleset(ruleset_with(GENESYS))


def test_page_example_counts_and_cancels_as_in_a_check() -> None:
    """CHK-SYM-19, CHK-SYM-15: ``1 proficiency 2 ability vs 1 difficulty`` with faces 12, 7, 8, 2
    → 1s 3a 1t, one net success, the Triumph marked; opposing dice are thrown after."""
    rolled = roll_symbols(REF, "1 proficiency 2 ability vs 1 difficulty",
                          Dice(0, script=[12, 7, 8, 2]))
    assert rolled.reading is not None
    assert ("1s 3a 1t", 1, True, True) == (rolled.symbols, rolled.reading.total, rolled.success,
                                           rolled.reading.critical_success)
    assert [("proficiency", 12, "roller"), ("ability", 7, "roller"), ("ability", 8, "roller"),
            ("difficulty", 2, "opposing")] == [(t.die.id, t.face, t.side) for t in rolled.dice]


def test_dice_by_id_or_label_in_any_case_and_plural() -> None:
    """CHK-SYM-19: ``2 Ability 1 PROFICIENCY vs 2 difficulties`` names the same dice as the ids;
    a name without a count means one die."""
    rolled = roll_symbols(REF, "2 Ability 1 PROFICIENCY vs 2 difficulties", Dice(3))
    bare = roll_symbols(REF, "boost vs setback", Dice(3))
    assert ["ability", "ability", "proficiency", "difficulty", "difficulty"] == [
        t.die.id for t in rolled.dice]
    assert ["boost", "setback"] == [t.die.id for t in bare.dice]


def test_the_page_text_reads_as_written() -> None:
    """CHK-SYM-19: the page's own ``2 ability 1 proficiency vs 2 difficulty`` throws five dice,
    in the order named."""
    dice = Dice(0, script=[4, 1, 12, 2, 3])
    rolled = roll_symbols(REF, "2 ability 1 proficiency vs 2 difficulty", dice)
    # Ability 4 [s s], Ability 1 [], Proficiency 12 [t], Difficulty 2 [f], Difficulty 3 [f f].
    assert ("1t", 0, False) == (rolled.symbols, rolled.reading.total if rolled.reading else None,
                                rolled.success)


def test_empty_result_is_named() -> None:
    """CHK-SYM-20: blanks only → no net symbols, and the summary says ``nothing``."""
    rolled = roll_symbols(REF, "1 ability", Dice(0, script=[1]))
    assert ("", "Ability 1 (blank) -> nothing") == (rolled.symbols, rolled.summary)


def test_unknown_die_is_an_error_value() -> None:
    """CHK-SYM-19: a name no die answers to is ``unknown-die`` (no exception, no dice thrown)."""
    dice = Dice(0)
    rolled = roll_symbols(REF, "2 ability vs 1 goblin", dice)
    assert ("unknown-die", (), []) == (rolled.error, rolled.dice, dice.thrown)
    assert "goblin" in (rolled.message or "")


def test_other_bad_texts_are_error_values() -> None:
    """CHK-SYM-19, SPEC §8: nothing named, two ``vs``, too many dice: each its own error code."""
    assert "no-dice" == roll_symbols(REF, "  ", Dice(0)).error
    assert "unreadable" == roll_symbols(REF, "1 ability vs 1 boost vs 1 setback", Dice(0)).error
    assert "too-many-dice" == roll_symbols(REF, f"{MAX_NAMED_DICE + 1} ability", Dice(0)).error
    assert "too-many-dice" == roll_symbols(REF, "60 ability vs 60 difficulty", Dice(0)).error


def test_a_ruleset_without_symbol_dice_says_so() -> None:
    """CHK-SYM-19: a dice-sum ruleset has no symbol dice to roll by name."""
    lantern = load_ruleset(bundled_json("lantern-and-ledger"))
    assert "not-symbol-pool" == roll_symbols(lantern, "2 ability", Dice(0)).error
