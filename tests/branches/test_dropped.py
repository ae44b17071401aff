"""Tags in the sections not taken are never resolved (issue 15): a branch that pays, uses an item,
takes harm or moves the scene changes nothing when the dice do not take it; the kept section's tags
resolve in reading order after the check."""

from __future__ import annotations

from middleware.resolve.branch import BranchRecord
from middleware.state import GameState
from tests.branches.helpers import block, branch_records, demo, peer_game, run, tag_records

CLIMB = '[skill_check: skill="Climb" difficulty="Risky"]'
SPENDS = ('[inventory: action="pay" amount="2 groats"] '
          '[inventory: action="add" item="Ledger book"] '
          '[sheet: op="damage" track="harm" kind="cut" amount="1"] [place: name="Ropewalk"]')


def _wren(state: GameState) -> dict[str, object]:
    wren = state.party[0]
    return {"bag": [(s.item or s.coins, s.count) for s in wren.bag],
            "harm": list(wren.live.wounds["harm"].marks), "place": state.place}


def test_a_section_not_taken_pays_nothing_uses_nothing_and_hurts_no_one() -> None:
    """Wren's climb succeeds: the failure section's payment, ledger book, cut and place never
    happen; her purse, bag and Harm are as they were, and the scene has not moved."""
    rules, state = demo("lantern-demo")
    done = run(rules, state, f"{CLIMB}{block({'success': 'Up.', 'failure': SPENDS})}", (5, 5))
    assert _wren(state) == _wren(done.state)
    assert ["skill_check", "branch"] == [r.tag for r in done.records]
    assert 4 == branch_records(done)[0].dropped_tags


def test_the_kept_sections_tags_resolve_in_reading_order_after_the_check() -> None:
    """Wren's climb misses: the failure section's four tags resolve after the check and the
    branch record, in order (the groats paid, the ledger book in her bag, the cut marked)."""
    rules, state = demo("lantern-demo")
    done = run(rules, state, f"{CLIMB}{block({'success': 'Up.', 'failure': SPENDS})}", (1, 1))
    assert ["skill_check", "branch", "inventory", "inventory", "sheet", "place"] == \
        [r.tag for r in done.records]
    assert all(r.status == "resolved" for r in done.records)
    after = _wren(done.state)
    assert [("chandlery/lamp-oil", 2), ("groat", 1), ("farthing", 5),
            ("chandlery/ledger-book", 1)] == after["bag"]
    assert ["cut", "cut", "bruise"] == after["harm"]
    assert "Ropewalk" == done.state.place.name  # type: ignore[union-attr]


def test_a_check_inside_the_section_not_taken_throws_no_dice() -> None:
    """The failure section holds a second check: on a success it is never thrown, so the dice
    that follow go to the check written after the block."""
    rules, state = demo("lantern-demo")
    slip = '[skill_check: skill="Slip" dc="7"]'
    reply = f"{CLIMB}{block({'success': 'Up.', 'failure': slip})} {slip}"
    done = run(rules, state, reply, (5, 5, 6, 6))
    checks = [r for r in tag_records(done) if r.tag == "skill_check"]
    assert [[5, 5], [6, 6]] == [r.rolls for r in checks]  # type: ignore[attr-defined]


def test_the_purse_of_a_peer_ruleset_is_untouched_by_a_branch_not_taken() -> None:
    """Ember Roads, Juno: a Sneak that fails keeps her 12 marks; the success section's
    payment and the waystone she would have used never happened."""
    rules, state = peer_game("ember")
    check = '[skill_check: skill="Sneak" dc="9"]'
    paid = '[inventory: action="pay" amount="3 marks"] [inventory: action="use" item="Waystone"]'
    done = run(rules, state, f"{check}{block({'success': paid, 'failure': 'Spotted.'})}", (2, 2))
    assert state.party[0].bag == done.state.party[0].bag
    assert isinstance(done.records[1], BranchRecord) and 2 == done.records[1].dropped_tags
