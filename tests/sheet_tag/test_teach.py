"""The GM's-view teaching of ``[sheet:]`` and ``[dice:]`` for one ruleset: pure functions that name
what this ruleset's sheet has, and whose examples resolve when the Game Master writes them."""

from __future__ import annotations

import re

import pytest

from middleware.resolve.dice import dice_instructions
from middleware.resolve.sheet import sheet_instructions
from middleware.rules.ruleset import Ruleset
from tests.sheet.sheet_helpers import BRAM, JUNO
from tests.sheet_tag.helpers import WREN, bundled, party_state, peer, run

CASES = [(peer("gravewatch"), BRAM), (peer("ember-roads"), JUNO),
         (bundled("lantern-and-ledger"), WREN)]


@pytest.mark.parametrize(("rules", "member"), CASES, ids=lambda c: getattr(c, "id", ""))
def test_every_taught_example_resolves(rules: Ruleset, member: dict[str, object]) -> None:
    """Each [sheet: …] example the lines teach, written as taught, is resolved on the worked
    example's character (bundled Lantern and Ledger and the peer's two rulesets)."""
    taught = sheet_instructions(rules)
    examples = [e for e in re.findall(r"\[sheet: op=[^\]]*\]", taught) if "..." not in e]
    assert len(examples) >= 4
    state = party_state(rules, member | {"player": True})
    for example in examples:
        done = run(rules, state, example, 1, 1, 1, 1)
        assert "resolved" == done.records[0].status, (example, done.records[0].feedback)


def test_names_the_rulesets_own_pools_tracks_conditions_states_and_rests() -> None:
    """Gravewatch's teaching names Resolve, Harm with its kinds and levels, Rattled and Marked,
    the Light state's values and both rests, by label with the id to write."""
    taught = sheet_instructions(peer("gravewatch"))
    for words in ("Resolve", 'pool="resolve"', "Harm", "knock (K)", "tear (T)", "Down -99",
                  "Rattled, Marked", "Lit, Shuttered, Out", "Stand down from the vigil",
                  'rest="breather"', "spend="):
        assert words in taught, words


def test_teaches_only_what_the_sheet_has() -> None:
    """Ember Roads has a plain track (Heat) and a box track; Far Signal has no tracks, no states:
    no track or state line is taught there."""
    ember = sheet_instructions(peer("ember-roads"))
    assert 'op="track" track="heat"' in ember and 'box="N"' in ember
    signal = sheet_instructions(bundled("far-signal"))
    assert "track=" not in signal and 'op="state"' not in signal


def test_the_lines_are_the_same_every_time() -> None:
    """A rules block built from them stays byte-identical: a pure function of the ruleset."""
    rules = bundled("lantern-and-ledger")
    assert sheet_instructions(rules) == sheet_instructions(rules)
    assert dice_instructions(rules) == dice_instructions(rules)


def test_dice_lines_name_the_notation_and_the_rulesets_symbol_dice() -> None:
    """The dice lines teach [dice: 2d6+3] and, on a symbol-pool ruleset, its dice by name; the
    example taught resolves there."""
    rules = bundled("far-signal")
    taught = dice_instructions(rules)
    assert "[dice: 2d6+3]" in taught and "Tuned" in taught
    example = re.findall(r"\[dice: \d [a-z]+ vs \d [a-z]+\]", taught)[0]
    assert "resolved" == run(rules, party_state(rules), example).records[0].status
