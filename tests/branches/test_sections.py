"""Branch blocks keep the section the dice choose (issue 15): for each result and each outcome
tier of the bundled rulesets that have tiers, and success/failure on the peer's Ember Roads and
Gravewatch. A reply with a block plays exactly as the reply with only the kept section written."""

from __future__ import annotations

import pytest

from middleware.resolve.branch import BranchRecord
from tests.branches.helpers import block, branch_records, demo, peer_game, run, same_play

CLIMB = '[skill_check: skill="Climb" difficulty="Risky"]'
SPOT = '[skill_check: skill="Spot Hidden" difficulty="Regular"]'
SNEAK = '[skill_check: skill="Sneak" difficulty="Clean"]'
TUNE = '[skill_check: skill="Tune" dc="2"]'

TIERS = [  # (demo game, check, faces, the tier the faces land in)
    ("lantern-demo", CLIMB, (5, 5), "Clean success"),
    ("lantern-demo", CLIMB, (3, 3), "Success at a cost"),
    ("lantern-demo", CLIMB, (1, 1), "Miss"),
    ("archive-demo", SPOT, (1,), "Critical"),
    ("archive-demo", SPOT, (2,), "Extreme success"),
    ("archive-demo", SPOT, (20,), "Hard success"),
    ("archive-demo", SPOT, (50,), "Regular success"),
    ("archive-demo", SPOT, (99,), "Failure"),
    ("archive-demo", SPOT, (100,), "Fumble"),
    ("shadow-demo", SNEAK, (6, 6), "Two sixes"),
    ("shadow-demo", SNEAK, (6, 5), "Clean job"),
    ("shadow-demo", SNEAK, (4, 4), "Done, at a cost"),
    ("shadow-demo", SNEAK, (1, 1), "It goes bad"),
    ("signal-demo", TUNE, (4, 4, 4, 4), "Clear signal"),
    ("signal-demo", TUNE, (2, 2, 2, 2), "Through the static"),
    ("signal-demo", TUNE, (1, 1, 1, 1), "Lost signal"),
]


def _line(label: str) -> str:
    return f"It goes the {label} way."


@pytest.mark.parametrize(("game", "check", "faces", "tier"), TIERS)
def test_each_tier_keeps_its_own_section(game: str, check: str, faces: tuple[int, ...],
                                         tier: str) -> None:
    """With a section written per tier label of the ruleset (in the ruleset's order), the tier
    the dice land in keeps its section and only it; the text after the block stays."""
    rules, state = demo(game)
    labels = [t.label for t in rules.resolution.outcomes.tiers]  # type: ignore[union-attr]
    reply = f"She tries. {check}{block({label: _line(label) for label in labels})} Night falls."
    done = run(rules, state, reply, faces)
    same_play(done, run(rules, state, f"She tries. {check} {_line(tier)} Night falls.", faces))
    [record] = branch_records(done)
    assert (tier, labels, "resolved", None) == (record.kept, record.sections, record.status,
                                                record.reason)


FALLBACKS = [  # with only [on success] and [on failure] written
    ("lantern-demo", CLIMB, (5, 5), "success"),
    ("lantern-demo", CLIMB, (3, 3), "success"),
    ("lantern-demo", CLIMB, (1, 1), "failure"),
    ("archive-demo", SPOT, (1,), "success"),  # a critical success, no critical section
    ("archive-demo", SPOT, (100,), "failure"),  # a fumble
    ("shadow-demo", SNEAK, (6, 6), "success"),
    ("shadow-demo", SNEAK, (1, 1), "failure"),
    ("signal-demo", TUNE, (2, 2, 2, 2), "success"),
    ("signal-demo", TUNE, (1, 1, 1, 1), "failure"),
]


@pytest.mark.parametrize(("game", "check", "faces", "kept"), FALLBACKS)
def test_without_a_tier_section_success_or_failure_is_kept(game: str, check: str,
                                                           faces: tuple[int, ...],
                                                           kept: str) -> None:
    """A tiered ruleset, sections only for success and failure: every success tier (criticals
    too) keeps ``[on success]``, every failing one ``[on failure]``."""
    rules, state = demo(game)
    reply = f"{check}{block({'success': 'Up.', 'failure': 'Down.'})}"
    done = run(rules, state, reply, faces)
    same_play(done, run(rules, state, f"{check} {'Up.' if kept == 'success' else 'Down.'}", faces))
    assert kept == branch_records(done)[0].kept


def test_the_tier_section_wins_over_success_wherever_it_is_written() -> None:
    """``[on success]`` first, ``[on Success at a cost]`` after it: a total at a cost keeps the
    tier's section; a clean success (no section of its own) keeps ``[on success]``."""
    rules, state = demo("lantern-demo")
    reply = f"{CLIMB}{block({'success': 'Clean.', 'Success at a cost': 'Costly.'})}"
    assert "Costly." == run(rules, state, reply, (3, 3)).text.split("] ")[-1]
    assert "Clean." == run(rules, state, reply, (5, 5)).text.split("] ")[-1]


def test_a_critical_section_is_kept_for_a_critical() -> None:
    """Dim Archive: a 01 is the Critical tier; with no section for the tier but one for
    ``critical success``, that one is kept rather than ``[on success]``."""
    rules, state = demo("archive-demo")
    reply = f"{SPOT}{block({'success': 'Found.', 'critical success': 'Found twice.'})}"
    assert run(rules, state, reply, (1,)).text.endswith("] Found twice.")
    assert run(rules, state, reply, (50,)).text.endswith("] Found.")


@pytest.mark.parametrize(("game", "check", "faces", "kept"), [
    ("ember", '[skill_check: skill="Sneak" dc="9"]', (3, 3), "success"),
    ("ember", '[skill_check: skill="Sneak" dc="9"]', (2, 2), "failure"),
    ("gravewatch", '[skill_check: skill="Ward" dc="2"]', (8,) * 10, "success"),
    ("gravewatch", '[skill_check: skill="Ward" dc="2"]', (5,) * 10, "failure"),
    ("gravewatch", '[skill_check: skill="Ward" dc="2"]', (1,) * 10, "failure"),
])
def test_the_peers_rulesets_keep_success_or_failure(game: str, check: str,
                                                    faces: tuple[int, ...], kept: str) -> None:
    """Ember Roads (2d6, no tiers) and Gravewatch (d10 pool; all 8s a critical success, all 1s a
    critical failure): success and failure sections, the result keeps its own."""
    rules, state = peer_game(game)
    reply = f"{check}{block({'success': 'It works.', 'failure': 'It does not.'})}"
    done = run(rules, state, reply, faces)
    text = "It works." if kept == "success" else "It does not."
    same_play(done, run(rules, state, f"{check} {text}", faces))


def test_the_models_own_result_never_chooses() -> None:
    """SPEC §3: a check written with ``result="success" total="99"`` is thrown afresh; the dice
    miss and the failure section is kept."""
    rules, state = demo("lantern-demo")
    check = '[skill_check: skill="Climb" difficulty="Risky" result="success" total="99"]'
    done = run(rules, state, f"{check}{block({'success': 'Up.', 'failure': 'Down.'})}", (1, 1))
    assert ("failure", "Down.") == (branch_records(done)[0].kept, done.text.split("] ")[-1])


def test_markers_read_in_any_case_and_spacing_and_a_quoted_label() -> None:
    """``[ On  SUCCESS ]``, ``[on_failure]``, ``[ON "Success at a cost"]``, ``[ / Branch ]``."""
    rules, state = demo("lantern-demo")
    reply = (f'{CLIMB} [ On  SUCCESS ] Clean. [ON "Success at a cost"] Costly. '
             "[on_failure] Down. [ / Branch ] After.")
    for faces, kept in (((5, 5), "Clean."), ((3, 3), "Costly."), ((1, 1), "Down.")):
        assert run(rules, state, reply, faces).text.endswith(f"] {kept} After.")


def test_a_block_without_its_end_runs_to_the_end_of_the_reply() -> None:
    """A missing ``[/branch]`` at the end of the reply is no fault: the last section runs to the
    end, and no problem is recorded."""
    rules, state = demo("lantern-demo")
    reply = f"{CLIMB} [on success] Up, and on. [on failure] Down, and out."
    done = run(rules, state, reply, (1, 1))
    assert done.text.endswith("] Down, and out.")
    assert ([], "resolved") == (branch_records(done)[0].problems, branch_records(done)[0].status)


def test_the_kept_section_is_read_as_if_written_alone() -> None:
    """Line breaks around the markers go with them: the kept section sits where the block was."""
    rules, state = demo("lantern-demo")
    reply = f"She climbs.\n{CLIMB}\n[on success]\nShe is up.\n[on failure]\nShe slips.\n" \
            "[/branch]\nThe wind howls."
    done = run(rules, state, reply, (5, 5))
    assert done.text.startswith("She climbs.\n[skill_check: ")
    assert done.text.endswith('"]\nShe is up.\nThe wind howls.')


def test_the_branch_record_says_what_was_kept_and_what_never_happened() -> None:
    """The record after the check: the check's skill and result, the sections written, the one
    kept, and how many tags the others held (they never happened)."""
    rules, state = demo("lantern-demo")
    rope = '[inventory: action="add" item="Rope"]'
    reply = f"{CLIMB} [on success] {rope} {rope} [on failure] Down. [/branch]"
    done = run(rules, state, reply, (1, 1))
    record = done.records[1]
    assert isinstance(record, BranchRecord)
    assert ("Climb", "failure", "Miss", "failure", ["success", "failure"], 2) == (
        record.check, record.result, record.outcome, record.kept, record.sections,
        record.dropped_tags)
    assert 'kept "on failure" for Miss; 2 tags in the other sections never happened' == \
        record.feedback
