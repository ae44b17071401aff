"""``[dice: …]``: plain rolls thrown by the engine (SPEC §5), written back as records, never
changing the game's state; the notation read by ``grammar/dice.lark``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from middleware.dice import Dice
from middleware.pipeline import resolve_reply
from middleware.resolve import Context
from middleware.resolve.dice.notation import MAX_DICE, Notation, read_notation
from middleware.rules.load import load_ruleset
from middleware.state import GameState
from tests.conftest import compat_json
from tests.sheet_tag.helpers import bundled, gravewatch_state, lantern_state, run


def test_plain_roll_written_back() -> None:
    """SPEC §5/§6: [dice: 2d6+3] on scripted 4, 2 is written back with every face and the total."""
    rules, state = lantern_state()
    done = run(rules, state, "Damage: [dice: 2d6+3]!", 4, 2)
    assert 'Damage: [dice: roll="2d6+3" rolls="4|2" total="9"]!' == done.text
    assert ("resolved", [4, 2], 9) == (done.records[0].status,
                                       done.records[0].model_dump()["rolls"],
                                       done.records[0].model_dump()["total"])


def test_roll_attribute_and_purpose() -> None:
    """[dice: roll="…"] reads the same; for= says what it was for, and stays on the record."""
    rules, state = lantern_state()
    done = run(rules, state, '[dice: roll="1d8 + 1d4 - 1" for="coins found"]', 7, 2)
    assert '[dice: roll="1d8+1d4-1" for="coins found" rolls="7|2" total="8"]' == done.text


def test_no_state_changes() -> None:
    """A plain roll changes nothing: the very state comes back."""
    rules, state = gravewatch_state()
    done = run(rules, state, "[dice: 3d10] [dice: d20]", 1, 2, 3, 4)
    assert done.state is state


def test_keep_highest_and_lowest() -> None:
    """4d6kh3 on 1, 5, 3, 6 keeps 5, 3, 6 (in the order thrown): 14; 2d20kl1 on 17, 4 keeps 4."""
    rules, state = lantern_state()
    done = run(rules, state, "[dice: 4d6kh3] [dice: 2d20kl1]", 1, 5, 3, 6, 17, 4)
    assert ('[dice: roll="4d6kh3" rolls="1|5|3|6" kept="5|3|6" total="14"] '
            '[dice: roll="2d20kl1" rolls="17|4" kept="4" total="4"]') == done.text


def test_fate_dice_and_the_rulesets_own_faces() -> None:
    """4dF throws a d3 per die read as -1, 0, +1; on a ruleset whose check dice declare faces
    (a parsed copy of Lantern and Ledger with faces -1 -1 0 0 1 1) dF throws those faces."""
    rules, state = lantern_state()
    done = run(rules, state, "[dice: 4dF]", 1, 2, 3, 3)
    assert '[dice: roll="4dF" rolls="-1|0|1|1" total="1"]' == done.text
    data = bundled("lantern-and-ledger").source
    own = load_ruleset({**data, "resolution": {**data["resolution"], "dice": {
        "count": 4, "sides": 6, "faces": [-1, -1, 0, 0, 1, 1]}}})
    done = resolve_reply("[dice: 2dF]", GameState(ruleset=own.id), Context(own, Dice(1, [2, 6])))
    assert '[dice: roll="2dF" rolls="-1|1" total="0"]' == done.text


def test_symbol_dice_by_name() -> None:
    """CHK-SYM-19: on a symbol-pool ruleset (Far Signal) the dice roll by name and write their
    symbols; the total is the net successes."""
    rules = bundled("far-signal")
    done = resolve_reply("[dice: 2 tuned vs 1 static]", GameState(ruleset=rules.id),
                         Context(rules, Dice(1, [2, 4, 2])))
    record = done.records[0].model_dump()
    assert ("resolved", [2, 4, 2]) == (record["status"], record["rolls"])
    assert record["symbols"] and "symbols=" in done.text


def test_counts_and_sides_are_bounded() -> None:
    """SPEC §8: 500d6 throws the 100 dice a check may throw at most; 2d5000 is held to 1000
    sides; the Game Master is told."""
    rules, state = lantern_state()
    done = run(rules, state, "[dice: 500d6] [dice: 2d5000]")
    big, wide = (r.model_dump() for r in done.records)
    assert (MAX_DICE, "100d6") == (len(big["rolls"]), big["roll"])
    assert "held to 100" in big["feedback"] and "2d1000" == wide["roll"]


def test_unreadable_roll_stays_text_and_is_ignored() -> None:
    """SPEC §8: a roll that is not dice notation stays exactly as written: an ignored record."""
    rules, state = lantern_state()
    text = "He rolls [dice: a handful of bones] and laughs."
    done = run(rules, state, text)
    assert text == done.text
    assert ("ignored", "unreadable") == (done.records[0].status, done.records[0].reason)
    assert done.state is state


def test_numbers_the_model_wrote_are_thrown_afresh() -> None:
    """SPEC §3: rolls= and total= written by the model are discarded."""
    rules, state = gravewatch_state()
    done = run(rules, state, '[dice: roll="1d10" rolls="10" total="10"]', 3)
    assert '[dice: roll="1d10" rolls="3" total="3"]' == done.text


def test_peer_ruleset_roll() -> None:
    """On the peer's Ember Roads a plain 2d6 is thrown like anywhere else."""
    rules = load_ruleset(compat_json("ember-roads.json"))
    done = resolve_reply("[dice: 2d6]", GameState(ruleset=rules.id), Context(rules, Dice(1, [6, 6])))
    assert '[dice: roll="2d6" rolls="6|6" total="12"]' == done.text


# --- the grammar: strategies one per rule (STYLE habit 9) --------------------------------------

counts = st.one_of(st.just(""), st.integers(0, 999).map(str))
faces = st.one_of(st.integers(0, 99999).map(str), st.sampled_from(["F", "f", "%"]))
keeps = st.one_of(st.just(""), st.tuples(st.sampled_from(["k", "kh", "kl", "KH"]),
                                         st.integers(0, 300)).map(lambda t: f"{t[0]}{t[1]}"))
dice = st.tuples(counts, st.sampled_from(["d", "D"]), faces, keeps).map("".join)
terms = st.one_of(dice, st.integers(0, 10**6).map(str))
signs = st.sampled_from(["+", "-", " + ", " - ", "−"])
rolls = st.tuples(st.sampled_from(["", "-", "+"]), terms,
                  st.lists(st.tuples(signs, terms).map("".join), max_size=14)) \
    .map(lambda t: t[0] + t[1] + "".join(t[2]))


@settings(max_examples=300, deadline=None)
@given(text=rolls)
def test_every_roll_the_grammar_allows_reads_and_writes_back_the_same(text: str) -> None:
    """A roll is read or refused with a problem, never an exception; the roll written back reads
    again as itself (nothing past the bounds comes back)."""
    read = read_notation(text)
    if isinstance(read, str):
        assert "terms" in read
        return
    again = read_notation(read.text)
    assert isinstance(again, Notation) and read.text == again.text
    assert sum(g.count for g in read.groups) <= MAX_DICE


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=40))
def test_any_text_reads_or_is_a_problem(text: str) -> None:
    """Whatever the model writes in a [dice:] tag, reading it never raises."""
    assert isinstance(read_notation(text), (str, Notation))


def test_a_roll_followed_by_what_it_is_for() -> None:
    """SPEC §1b tolerance: [dice: 2d6+3 for damage] throws 2d6+3 and keeps "damage" as what it was
    for; a bare number and a word ([dice: 2 lots]) is no roll and stays as written."""
    rules, state = lantern_state()
    done = run(rules, state, "[dice: 2d6+3 for damage] [dice: 2 lots]", 3, 4)
    assert '[dice: roll="2d6+3" for="damage" rolls="3|4" total="10"] [dice: 2 lots]' == done.text


def test_symbol_dice_are_not_read_as_a_leading_number() -> None:
    """On Far Signal "2 tuned" is two Tuned dice, never the constant 2."""
    rules = bundled("far-signal")
    done = resolve_reply("[dice: 2 tuned]", GameState(ruleset=rules.id),
                         Context(rules, Dice(1, [3, 3])))
    assert [3, 3] == done.records[0].model_dump()["rolls"]
