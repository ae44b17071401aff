"""A botched branch block keeps what is readable and says so in its ``branch`` record (issue 15):
no section for the result, a check that was not rolled, markers with no check, a block inside a
section, a label written twice, a stray ``[/branch]``. Nothing raises and the prose outside the
block is always kept. With branch blocks off, markers are prose as they always were."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from middleware.resolve.branch import BranchRecord
from tests.branches.helpers import block, branch_records, demo, run, tag_records

CLIMB = '[skill_check: skill="Climb" difficulty="Risky"]'
ROPE = '[inventory: action="add" item="Ledger book"]'
BEFORE, AFTER = "She looks up at the wall.", "The night goes on."


def _one(done: object) -> BranchRecord:
    [record] = branch_records(done)  # type: ignore[arg-type]
    return record


def test_no_section_for_the_result_keeps_none_and_says_so() -> None:
    """Only ``[on success]`` is written and the climb misses: no section is kept, its tag never
    happens, the prose around the block stays; the record is refused ``no-section``."""
    rules, state = demo("lantern-demo")
    done = run(rules, state, f"{BEFORE} {CLIMB}{block({'success': ROPE})} {AFTER}", (1, 1))
    assert done.text.startswith(f"{BEFORE} [skill_check:") and done.text.endswith(f"  {AFTER}")
    assert ["skill_check", "branch"] == [r.tag for r in done.records]
    record = _one(done)
    assert ("refused", "no-section", None, 1) == (record.status, record.reason, record.kept,
                                                  record.dropped_tags)
    assert "no section was written for this result" in (record.feedback or "")


def test_a_check_that_was_not_rolled_keeps_no_section() -> None:
    """A check that names no skill is not rolled (ignored, ``no-skill``): nothing decided, no
    section kept (``no-result``), the tags in both sections never happen."""
    rules, state = demo("lantern-demo")
    check = '[skill_check: dc="7"]'
    done = run(rules, state, f"{check}{block({'success': ROPE, 'failure': ROPE})} {AFTER}", ())
    assert ("ignored", "no-skill") == (done.records[0].status, done.records[0].reason)
    assert ("refused", "no-result", 2) == (_one(done).status, _one(done).reason,
                                           _one(done).dropped_tags)
    assert done.text.endswith(f"]  {AFTER}") and ROPE not in done.text  # the spaces both sides


def test_markers_with_no_check_before_them_stay_as_written() -> None:
    """Nothing decides a block with no check before it: it stays as the model wrote it, markers
    and all, and its tags resolve as any other tag (``no-check``, ignored)."""
    rules, state = demo("lantern-demo")
    reply = f"{BEFORE}{block({'success': ROPE, 'failure': 'Nothing.'})} {AFTER}"
    done = run(rules, state, reply, ())
    off = run(rules, demo("lantern-demo", branches=False)[1], reply, ())
    assert (off.text, list(off.records)) == (done.text, tag_records(done))
    assert ["branch", "inventory"] == [r.tag for r in done.records]
    assert ("ignored", "no-check") == (_one(done).status, _one(done).reason)


def test_a_block_inside_a_section_is_chosen_by_its_own_check() -> None:
    """A check inside the success section with its own block: the outer climb keeps its success
    section, and the inner check keeps its own failure section; the inner record says
    ``nested``."""
    rules, state = demo("lantern-demo")
    slip = '[skill_check: skill="Slip" dc="7"]'
    inner = f"Up. {slip} [on success] Unseen. [on failure] Seen. [/branch]"
    reply = f"{CLIMB}{block({'success': inner, 'failure': 'Down.'})} {AFTER}"
    done = run(rules, state, reply, (5, 5, 1, 1))
    assert ["skill_check", "branch", "skill_check", "branch"] == [r.tag for r in done.records]
    outer, nested = branch_records(done)
    assert ("success", [], "failure", ["nested"]) == (outer.kept, outer.problems, nested.kept,
                                                      nested.problems)
    assert done.text.endswith(f"] Seen. {AFTER}") and "Up. [skill_check: skill=\"Slip\"" in done.text


def test_a_label_written_twice_keeps_the_first() -> None:
    """Two ``[on success]`` sections: the first is kept, the second never is (``repeated``)."""
    rules, state = demo("lantern-demo")
    reply = f"{CLIMB} [on success] First. [on failure] Down. [on success] Second. [/branch]"
    done = run(rules, state, reply, (5, 5))
    assert done.text.endswith("] First.")
    assert ("resolved", "repeated", ["repeated"]) == (_one(done).status, _one(done).reason,
                                                      _one(done).problems)


def test_a_stray_end_stays_as_written() -> None:
    """A ``[/branch]`` that closes nothing is prose, as written (``stray-end``)."""
    rules, state = demo("lantern-demo")
    done = run(rules, state, f"{BEFORE} [/branch] {AFTER}", ())
    assert f"{BEFORE} [/branch] {AFTER}" == done.text
    assert ("ignored", "stray-end") == (_one(done).status, _one(done).reason)


def test_with_branch_blocks_off_markers_are_prose_and_every_tag_resolves() -> None:
    """A game without branch blocks reads ``[on success] … [/branch]`` as prose, as before:
    both sections stay, both sections' tags resolve, and there is no branch record."""
    rules, state = demo("lantern-demo", branches=False)
    reply = f"{CLIMB}{block({'success': ROPE, 'failure': ROPE})} {AFTER}"
    done = run(rules, state, reply, (5, 5))
    assert ["skill_check", "inventory", "inventory"] == [r.tag for r in done.records]
    assert done.text.count("[on success]") == 1 and done.text.endswith(f"[/branch] {AFTER}")
    assert 2 == sum(s.count for s in done.state.party[0].bag if s.item == "chandlery/ledger-book")


_PIECES = st.sampled_from([CLIMB, ROPE, "[on success]", "[on failure]", "[/branch]",
                           "[on Miss]", "[ON Success at a cost]", " ", "prose ", "\n", "[on",
                           "[/bra", '[skill_check: skill="Slip" dc="7"]', "[on the table]"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=24), st.lists(st.integers(1, 6), max_size=12))
def test_any_marker_soup_resolves_without_raising(pieces: list[str], faces: list[int]) -> None:
    """Whatever order markers, checks and tags come in, the reply resolves (never an error
    record), every branch record names its problems as codes, and prose before the first marker
    is kept byte for byte."""
    rules, state = demo("lantern-demo")
    reply = "".join(pieces)
    done = run(rules, state, f"{BEFORE} {reply}", tuple(faces))
    assert done.text.startswith(f"{BEFORE} ")
    assert all(r.status != "error" for r in done.records)
    assert all(r.reason == (r.problems[0] if r.problems else None) for r in branch_records(done))


@pytest.mark.parametrize("faces", [(5, 5), (1, 1)])
def test_the_prose_after_a_botched_block_is_kept(faces: tuple[int, ...]) -> None:
    """A block whose ``[/branch]`` is followed by more prose and a second, check-less block: the
    first is chosen, the second stays as written, and the prose between and after is all there."""
    rules, state = demo("lantern-demo")
    reply = f"{CLIMB}{block({'success': 'Up.', 'failure': 'Down.'})} Between.{block({'x': 'y'})} " \
            f"{AFTER}"
    done = run(rules, state, reply, faces)
    assert done.text.endswith(f"{'Up.' if faces == (5, 5) else 'Down.'} Between. [on x] y "
                              f"[/branch] {AFTER}")
