"""``[sheet:]`` damage, heal, restore and temp on pools and wound tracks, on a bundled ruleset
(Lantern and Ledger) and the peer's (Gravewatch, Ember Roads), as the Game Master sees them."""

from __future__ import annotations

from middleware.resolve.sheet.record import SheetRecord
from middleware.rules.load import load_ruleset
from tests.conftest import compat_json
from tests.sheet.sheet_helpers import JUNO
from tests.sheet_tag.helpers import (
    attrs,
    ember_state,
    gravewatch_state,
    lantern_state,
    one,
    party_state,
)


def test_damage_on_a_pool_written_back_with_what_is_left() -> None:
    """SHEET-LIVE-06 damage: Ember Roads Grit 5/8 takes 2 -> 3/8; the tag is written back in the
    peer's attribute names with result, now and max."""
    rules, state = ember_state()
    record, juno = one(rules, state, '[sheet: op="damage" pool="grit" amount="2"]')
    assert {"op": "damage", "pool": "grit", "amount": "2", "result": "ok", "now": "3",
            "max": "8"} == attrs(record)
    assert 3 == juno.live.pools["grit"].value


def test_damage_floors_at_zero_and_is_never_refused() -> None:
    """SHEET-LIVE-06: damage past the value floors at 0 (Pluck 3 takes 10 -> 0), resolved."""
    rules, state = lantern_state()
    record, wren = one(rules, state, '[sheet: op="damage" pool="Pluck" amount="10"]')
    assert ("resolved", 0) == (record.status, wren.live.pools["pluck"].value)


def test_damage_rolled_for_the_amount() -> None:
    """SHEET-LIVE-06 with a rolled amount: amount="1d4+1" on a scripted 3 takes 4; the record
    keeps the roll and its face."""
    rules, state = ember_state()
    record, juno = one(rules, state, '[sheet: op="damage" pool="grit" amount="1d4+1"]', 3)
    assert ("4", "1d4+1", "3", "1") == (attrs(record)["amount"], attrs(record)["roll"],
                                        attrs(record)["rolls"], attrs(record)["now"])
    assert 1 == juno.live.pools["grit"].value


def test_heal_and_restore_cap_at_the_maximum() -> None:
    """SHEET-LIVE-06 restore: Grit 5/8 heals 1 -> 6; restore 9 is capped at 8 and the entry back
    at its start is dropped from the sparse live state (SHEET-STORE-02)."""
    rules, state = ember_state()
    record, juno = one(rules, state, '[sheet: op="heal" pool="grit" amount="1"]')
    assert ("6", 6) == (attrs(record)["now"], juno.live.pools["grit"].value)
    record, juno = one(rules, state, '[sheet: op="restore" pool="grit" amount="9"]')
    assert ("restore", "8") == (attrs(record)["op"], attrs(record)["now"])
    assert "grit" not in juno.live.pools


def test_unknown_pool_is_refused_with_its_code() -> None:
    """SHEET-LIVE-05: a pool name no pool answers to is ``unknown-pool``; nothing changes."""
    rules, state = gravewatch_state()
    record, bram = one(rules, state, '[sheet: op="damage" pool="stamina" amount="2"]')
    assert ("refused", "unknown-pool") == (record.status, record.reason)
    assert state.party[0] == bram


def test_temp_only_on_a_pool_that_allows_it() -> None:
    """SHEET-LIVE-04: a pool without allowTemp takes no buffer (``no-temp``); with it (a parsed
    copy of Ember Roads whose Grit allows one) the buffer is drained before the value."""
    rules, state = ember_state()
    record, _ = one(rules, state, '[sheet: op="temp" pool="grit" amount="3"]')
    assert "no-temp" == record.reason
    data = compat_json("ember-roads.json")
    data["sheet"]["live"]["pools"][0]["allowTemp"] = True
    temp_rules = load_ruleset(data)
    temp_state = party_state(temp_rules, JUNO | {"player": True})
    done = one(temp_rules, temp_state, '[sheet: op="temp" pool="grit" amount="3"]')[1]
    record, juno = one(temp_rules, temp_state.with_character(0, done),
                       '[sheet: op="damage" pool="grit" amount="4"]')
    assert (4, None) == (juno.live.pools["grit"].value, juno.live.pools["grit"].temp)
    assert "3 from its buffer" in (record.feedback or "")


def test_wound_mark_placed_by_severity() -> None:
    """SHEET-WND-09, SHEET-WND-08: Bram's Harm (tear, knock; 5 levels with his scar) takes a knock:
    three marks, the lowest marked level Winded, -1 on every roll."""
    rules, state = gravewatch_state()
    record, bram = one(rules, state, '[sheet: op="damage" track="harm" kind="knock" amount="1"]')
    assert {"now": "3", "max": "5", "level": "Winded", "penalty": "-1", "kind": "knock"}.items() \
        <= attrs(record).items()
    assert ("tear", "knock", "knock") == bram.live.wounds["harm"].marks


def test_wound_tear_goes_before_the_knocks() -> None:
    """SHEET-WND-09: a mark is placed by severity, never appended: a tear lands before the knock."""
    rules, state = gravewatch_state(wounds={"harm": {"marks": ["knock"]}})
    _, bram = one(rules, state, '[sheet: op="damage" track="harm" kind="tear" amount="1"]')
    assert ("tear", "knock") == bram.live.wounds["harm"].marks


def test_full_track_upgrades_the_lightest_then_overflows() -> None:
    """SHEET-WND-09: on a full sequential track the lightest mark moves up one kind; at the top of
    the ladder the harm is overflow. Four tears and a knock (5/5) take three knocks: the knock
    becomes a tear, then two overflow."""
    rules, state = gravewatch_state(wounds={"harm": {"marks": ["tear"] * 4 + ["knock"]}})
    record, bram = one(rules, state, '[sheet: op="damage" track="harm" kind="knock" amount="3"]')
    assert (("tear",) * 5, 2) == (bram.live.wounds["harm"].marks,
                                  bram.live.wounds["harm"].overflow)
    assert ("Down", "-99", "2") == (attrs(record)["level"], attrs(record)["penalty"],
                                    attrs(record)["overflow"])


def test_negative_amount_heals_overflow_first_then_the_lightest() -> None:
    """SHEET-WND-10: amount="-2" on five tears and 1 overflow clears the overflow, then one tear
    (the last of the equally light)."""
    rules, state = gravewatch_state(wounds={"harm": {"marks": ["tear"] * 5, "overflow": 1}})
    record, bram = one(rules, state, '[sheet: op="damage" track="harm" amount="-2"]')
    assert (("tear",) * 4, 0) == (bram.live.wounds["harm"].marks,
                                  bram.live.wounds["harm"].overflow)
    assert "-2" == attrs(record)["amount"]


def test_heal_narrowed_to_a_kind() -> None:
    """SHEET-WND-10: heal with kind="knock" clears a knock even though the tear is listed first."""
    rules, state = gravewatch_state(wounds={"harm": {"marks": ["tear", "knock"]}})
    _, bram = one(rules, state, '[sheet: op="heal" track="harm" kind="knock" amount="1"]')
    assert ("tear",) == bram.live.wounds["harm"].marks


def test_damage_with_no_target_lands_on_health() -> None:
    """combat.health: Gravewatch's health is the Harm track, Ember Roads' the Grit pool; the
    bundled Lantern and Ledger names none and takes its penalty track (resolution.penaltyFrom)."""
    for state_of, where in ((gravewatch_state, "track"), (ember_state, "pool"),
                            (lantern_state, "track")):
        rules, state = state_of()
        record, _ = one(rules, state, '[sheet: op="damage" amount="1"]')
        assert record.status == "resolved" and where in attrs(record), state_of


def test_lantern_cut_marks_and_penalty() -> None:
    """SHEET-WND-09 on the bundled ruleset: Wren (cut, bruise: Hurt -1) takes a cut: cut, cut,
    bruise -> Badly hurt, -2."""
    rules, state = lantern_state()
    record, wren = one(rules, state, '[sheet: op="damage" track="harm" kind="cut" amount="1"]')
    assert ("cut", "cut", "bruise") == wren.live.wounds["harm"].marks
    assert ("Badly hurt", "-2") == (attrs(record)["level"], attrs(record)["penalty"])


def test_indexed_track_fills_the_named_box_or_the_next_free_above() -> None:
    """SHEET-WND-09: Ember Roads Strain (3 boxes, box 1 marked) takes a mark at box=1: it lands on
    box 2; at box 3 then another: the track is full and the next mark is refused ``no-box``."""
    rules, state = ember_state()
    record, juno = one(rules, state, '[sheet: op="damage" track="strain" box="1" amount="1"]')
    assert ("strain", "strain") == juno.live.wounds["strain"].marks
    assert "2" == attrs(record)["now"]
    record, juno = one(rules, state, '[sheet: op="damage" track="strain" box="3" amount="1"]')
    assert ("strain", "", "strain") == juno.live.wounds["strain"].marks
    assert "-1" not in attrs(record).values()
    full = state.with_character(0, juno)
    record, after = one(rules, full, '[sheet: op="damage" track="strain" box="3" amount="1"]')
    assert ("refused", "no-box") == (record.status, record.reason)
    assert juno == after


def test_refuse_on_full_refuses_the_whole_op() -> None:
    """SHEET-WND-09 onFull refuse: two marks with room for one place neither."""
    rules, state = ember_state()
    record, juno = one(rules, state, '[sheet: op="damage" track="strain" box="3" amount="2"]')
    assert ("refused", "no-box") == (record.status, record.reason)
    assert state.party[0] == juno


def test_unknown_kind_is_refused() -> None:
    """SHEET-WND-03: a kind the track does not declare is refused ``unknown-kind``."""
    rules, state = gravewatch_state()
    record, _ = one(rules, state, '[sheet: op="damage" track="harm" kind="burn" amount="1"]')
    assert "unknown-kind" == record.reason


def test_plain_track_damage_points_to_the_track_op() -> None:
    """A plain track (Ember Heat) takes no damage marks: refused ``wrong-track``."""
    rules, state = ember_state()
    record, _ = one(rules, state, '[sheet: op="damage" track="heat" amount="1"]')
    assert "wrong-track" == record.reason


def test_unreadable_amount_is_refused() -> None:
    """A bad amount is a refusal with a code, never an exception."""
    rules, state = ember_state()
    record, _ = one(rules, state, '[sheet: op="damage" pool="grit" amount="lots"]')
    assert isinstance(record, SheetRecord) and "bad-amount" == record.reason


def test_amount_with_words_after_it() -> None:
    """SPEC §1b tolerance: amount="2 points" is 2 and amount="1d4 fire" the roll 1d4."""
    rules, state = ember_state()
    record, juno = one(rules, state, '[sheet: op="damage" pool="grit" amount="2 points"]')
    assert 3 == juno.live.pools["grit"].value
    record, juno = one(rules, state, '[sheet: op="damage" pool="grit" amount="1d4 fire"]', 4)
    assert ("1d4", 1) == (attrs(record)["roll"], juno.live.pools["grit"].value)
