"""The sheet digest audited against the code (sheet.md), part two: derived values, fields, lists,
live pools, tracks, states and wounds (SHEET-DRV, -FLD, -LST, -LIVE, -WND), and what a check takes
off the sheet (SHEET-PEN, -ADJ, -CHK, -COND), end to end where the record shows it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from middleware.character.check import assemble_check
from middleware.resolve.checks.charms import Entry, find_entry
from middleware.sheet.roller import find_roller
from middleware.state import Character, GameState
from tests.checks.pool_helpers import attrs_of, resolve
from tests.rulesets import by_id
from tests.sheet.audit_helpers import (
    Raw,
    add_derived,
    built,
    changed,
    check_for,
    member,
    ref,
    rules,
    view,
)
from tests.sheet.sheet_helpers import BRAM, JUNO

# --- SHEET-DRV ---------------------------------------------------------------------------------


def test_derived_values_in_declared_order_with_sums() -> None:
    """SHEET-DRV-02/03: resolve_max reads dawn_resolve declared above it (2 + Nerve 3 + 1 = 6);
    Ember grit_max = 4 + toughness 3 + Brawn 1 = 8 for Juno."""
    assert (6, 8) == (view(rules("gravewatch"), member(BRAM)).derived("resolve_max"),
                      view(rules("ember"), member(JUNO)).derived("grit_max"))


def min_max(d: Raw) -> None:
    of = [{"abilityMod": "nerve"}, {"abilityMod": "warmth"}, {"const": 2.5}]
    d["sheet"]["derived"].append({"id": "low", "label": "Low", "op": "min", "of": of})
    d["sheet"]["derived"].append({"id": "high", "label": "High", "op": "max", "of": of})


def test_min_and_max() -> None:
    """SHEET-DRV-04: of Nerve 3, Warmth 2 and 2.5: min 2, max 3."""
    sheet = view(changed("gravewatch", min_max), member(BRAM))
    assert (2, 3) == (sheet.derived("low"), sheet.derived("high"))


@pytest.mark.parametrize(("multiplier", "round_", "expected"), [
    (0.5, "down", 1), (0.5, "up", 2), (0.5, "nearest", 2), (-1, "down", -3), (-0.5, "nearest", -1)])
def test_scale(multiplier: float, round_: str, expected: int) -> None:
    """SHEET-DRV-05: round(Nerve 3 x multiplier): 1.5 down 1, up 2, nearest 2; x -1 is -3;
    -1.5 nearest rounds up to -1."""
    entry = {"id": "scaled", "label": "Scaled", "op": "scale", "of": {"abilityScore": "nerve"},
             "multiplier": multiplier, "round": round_}
    assert expected == view(changed("gravewatch", add_derived(entry)),
                            member(BRAM)).derived("scaled")


@pytest.mark.parametrize(("fields", "states", "dawn", "light"), [
    ({"watch": "dawn"}, {"light": "out"}, 1, -2),
    ({"watch": "noon"}, {"light": "lit"}, 0, 0),
    ({}, {"light": "shuttered"}, 0, -1)])
def test_enum_tables_on_a_field_and_a_live_state(fields: Raw, states: Raw, dawn: int,
                                                 light: int) -> None:
    """SHEET-DRV-07, SHEET-FLD-03, SHEET-LIVE-12: dawn_resolve reads the watch field (a stale
    "noon" reads the default "night" -> 0); light_nerve reads the live Light (out -2, lit 0)."""
    sheet = view(rules("gravewatch"), built({"fields": fields}, {"states": states}))
    assert (dawn, light) == (sheet.derived("dawn_resolve"), sheet.derived("light_nerve"))


def hide_light(d: Raw) -> None:
    by_id(d["sheet"]["live"]["states"], "light")["hideWhen"] = {"field": "watch", "equals": "dawn"}


def test_a_hidden_state_has_no_value_and_reads_the_table_default() -> None:
    """SHEET-DRV-07, SHEET-LIVE-12: Bram's Light hidden on the dawn watch has no value, so
    light_nerve reads the table's default 0 and Ward loses no die."""
    grave = changed("gravewatch", hide_light)
    bram = member(BRAM)
    sheet = view(grave, bram)
    assert (None, 0, 0) == (sheet.live.state_value("light"), sheet.derived("light_nerve"),
                            check_for(grave, bram, "Ward").adjust)


def test_a_hidden_derived_value_is_still_computed() -> None:
    """SHEET-DRV-08: 5e spell_save_dc is hidden for a non-caster and still reads 8 + 2 = 10."""
    sheet = view(rules("5e"), member())
    hidden = sheet.hidden(sheet.ix.derived["spell_save_dc"].hide_when)
    assert (True, 10) == (hidden, sheet.derived("spell_save_dc"))


# --- SHEET-FLD, SHEET-LST ----------------------------------------------------------------------


def extra_fields(d: Raw) -> None:
    d["sheet"]["fields"] += [
        {"id": "age", "label": "Age", "type": "number", "min": 3, "max": 9},
        {"id": "debt", "label": "Debt", "type": "number", "min": -5, "max": -1},
        {"id": "oath", "label": "Oath", "type": "enum", "values": ["iron", "ash"]},
        {"id": "sworn", "label": "Sworn", "type": "boolean"},
        {"id": "story", "label": "Story", "type": "longtext", "maxLength": 400},
        {"id": "fist", "label": "Fist", "type": "dice"}]


def test_field_values_as_the_sheet_reads_them() -> None:
    """SHEET-FLD-01/03: the six types load; a number field without a stored value or default
    reads min(max(0, min), max) (3 and -1); an enum without a default its first value; a
    boolean false; text and dice ""; a stored number is read as stored."""
    sheet = view(changed("gravewatch", extra_fields), built({"fields": {"lantern": 5}}))
    actual = [sheet.field_value(f) for f in ("age", "debt", "oath", "sworn", "story", "fist",
                                             "lantern")]
    assert [3, -1, "iron", False, "", "", 5] == actual


def test_only_number_fields_are_read_by_field_references() -> None:
    """SHEET-FLD-04: a ``field`` reference to the enum ``watch`` or the text ``post`` reads 0."""
    sheet = view(rules("gravewatch"), member(BRAM))
    assert [0, 0] == [ref(sheet, {"field": f}) for f in ("watch", "post")]


def test_hide_when_by_target() -> None:
    """SHEET-FLD-05, SHEET-LIVE-03: 5e slot pools are off a non-caster's sheet (an unset enum
    reads its default ``none``) and on a wizard's; the hidden gear list adds 0 to burden."""
    wizard = built({"fields": {"spellcasting_ability": "int", "slots_max_1": 2}})
    nobody = built({"fields": {"slots_max_1": 2}})
    assert ("slots_1" in view(rules("5e"), wizard).live.pools(),
            "slots_1" in view(rules("5e"), nobody).live.pools()) == (True, False)


def test_a_picked_row_is_a_copy_found_by_its_entry() -> None:
    """SHEET-LST-02/03: Bram renamed and rewrote his Steady Hand row; its ``_catalog`` mark still
    makes it answer ``use="Steady Hand"`` (the entry's label) and its new name."""
    data = copy.deepcopy(BRAM)
    data["sheet"]["build"]["lists"]["charms"][0].update(name="Old Tom's knack", notes="mine")
    bram = member(data)
    found = [find_entry(rules("gravewatch"), bram, n) for n in ("Steady Hand", "OLD TOM'S KNACK")]
    assert ["charms/steady-hand"] * 2 == [e.mark if isinstance(e, Entry) else e for e in found]


def trick_rows(rows: list[Raw]) -> Character:
    data = copy.deepcopy(JUNO)
    data["sheet"]["build"]["lists"]["tricks"] = rows
    data["live"] = {}
    return member(data)


def test_row_pools() -> None:
    """SHEET-LST-04: each row with a name and uses > 0 is a pool keyed ``tricks:<name>``,
    full, with its recharge; a blank name or 0 uses makes none; the first of two names wins."""
    juno = trick_rows([{"name": " Second Breath ", "uses": 2, "recharge": "scene"},
                       {"name": "second breath", "uses": 3}, {"name": "  ", "uses": 1},
                       {"name": "Lucky Step", "uses": 0.5}])
    sheet = view(rules("ember"), juno)
    rows = {k: (r.max, r.recharge) for k, r in sheet.live.row_pools().items()}
    assert ({"tricks:second breath": (2, "scene")}, (2, 2)) == (
        rows, sheet.live.pools()["tricks:second breath"])


# --- SHEET-LIVE: pools, plain tracks, conditions, states ---------------------------------------


def big_luck(d: Raw) -> None:
    by_id(d["sheet"]["live"]["pools"], "luck")["max"] = {"const": 5_000_000}
    by_id(d["sheet"]["live"]["pools"], "grit")["max"] = {"const": 2.7}


def test_pool_maximum_floored_and_capped() -> None:
    """SHEET-LIVE-02: a maximum of 2.7 is 2; one of 5,000,000 is held to 1,000,000."""
    pools = view(changed("ember", big_luck), member()).live.pools()
    assert ((2, 2), (1_000_000, 1_000_000)) == (pools["grit"], pools["luck"])


@pytest.mark.parametrize(("stored", "expected"), [(99, 6), (-3, 0), (None, 6)])
def test_pool_value_clamped_or_full(stored: int | None, expected: int) -> None:
    """SHEET-LIVE-04: a stored value is held to 0..max; nothing stored is a full pool that
    follows its maximum (Bram's dawn watch makes it 6)."""
    live = {"pools": {"resolve": {"value": stored}}} if stored is not None else {}
    bram = member(BRAM, live=live)
    assert (expected, 6) == view(rules("gravewatch"), bram).live.pools()["resolve"]


def heat_without_default(d: Raw) -> None:
    heat = by_id(d["sheet"]["live"]["tracks"], "heat")
    heat.pop("default")
    heat["min"] = 1


@pytest.mark.parametrize(("stored", "expected"), [(9, 5), (-2, 1), (None, 1), (3, 3)])
def test_plain_track_value(stored: int | None, expected: int) -> None:
    """SHEET-LIVE-07/08: Heat 1..5 with no default starts at its min 1; a stored value is held
    to the range."""
    live = {"tracks": {"heat": stored}} if stored is not None else {}
    sheet = view(changed("ember", heat_without_default), built({}, live))
    assert expected == sheet.live.track_read("heat", "value")


def low_max(d: Raw) -> None:
    by_id(d["sheet"]["live"]["tracks"], "heat")["max"] = {"const": -3}


def test_a_computed_track_max_is_never_below_min() -> None:
    """SHEET-LIVE-07: Heat with a computed max of -3 has the range 0..0."""
    sheet = view(changed("ember", low_max), built({}, {"tracks": {"heat": 4}}))
    assert (0, 0) == (sheet.live.track_read("heat", "value"),
                      sheet.live.track_read("heat", "remaining"))


def test_conditions_are_declared_ids_once() -> None:
    """SHEET-LIVE-10, SHEET-STORE-05: an undeclared id is kept but not active; a repeated one
    counts once."""
    juno = member(JUNO, live={"conditions": ["shaken", "hexed", "shaken"]})
    assert (("shaken",), ("shaken", "hexed", "shaken")) == (
        view(rules("ember"), juno).live.active_conditions(), juno.live.conditions)


def no_stance_default(d: Raw) -> None:
    by_id(d["sheet"]["live"]["states"], "stance").pop("default")


@pytest.mark.parametrize(("stored", "expected"), [("reckless", "reckless"), ("wild", "guarded"),
                                                  (None, "guarded")])
def test_state_value_without_default(stored: str | None, expected: str) -> None:
    """SHEET-LIVE-11/12: a value still offered is read; else (no default) the first value."""
    live = {"states": {"stance": stored}} if stored else {}
    assert expected == view(changed("ember", no_stance_default),
                            built({}, live)).live.state_value("stance")


def test_states_reach_checks_through_adjust() -> None:
    """SHEET-LIVE-13: Bram's Light out takes 2 off Ward; Juno guarded moves Scrap by -1 (with
    her burdened -1, an adjust of -2)."""
    bram = member(BRAM, live={"states": {"light": "out"}})
    juno = member(JUNO, live={"states": {"stance": "guarded"}})
    assert (-2, -2) == (check_for(rules("gravewatch"), bram, "Ward").adjust,
                        check_for(rules("ember"), juno, "Scrap").adjust)


# --- SHEET-WND ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("marks", "penalty"), [
    (["strain"], 0), (["strain", "strain"], 0), (["strain", "strain", "strain"], -1)])
def test_boxes_read_the_penalty_table_by_remaining(marks: list[str], penalty: int) -> None:
    """SHEET-WND-04: Juno has 2 + Heart 1 = 3 Strain boxes; the table read at the boxes left
    gives -1 only when none is left."""
    juno = member(JUNO, live={"wounds": {"strain": {"marks": marks}}})
    wound = view(rules("ember"), juno).live.wound("strain")
    assert wound is not None and (3, penalty) == (wound.length, wound.penalty)


def test_sequential_marks_are_sorted_cleaned_and_overflow() -> None:
    """SHEET-WND-06/07: knock-before-tear is re-sorted most severe first, an undeclared "bite"
    is dropped, and six marks on Bram's 5 levels leave one as overflow; value = marks."""
    marks = ["knock", "bite", "tear", "knock", "knock", "tear", "knock"]
    bram = member(BRAM, live={"wounds": {"harm": {"marks": marks}}})
    sheet = view(rules("gravewatch"), bram)
    wound = sheet.live.wound("harm")
    assert wound is not None
    assert (("tear", "tear", "knock", "knock", "knock"), 1, 5, 0) == (
        wound.marks, wound.overflow, sheet.live.track_read("harm", "value"),
        sheet.live.track_read("harm", "remaining"))


def test_indexed_marks_keep_their_boxes() -> None:
    """SHEET-WND-06: on Juno's indexed Strain, ``""`` is an empty box between marks, trailing
    empties are dropped and a mark past box 3 is overflow."""
    juno = member(JUNO, live={"wounds": {"strain": {"marks": ["", "strain", "", "strain"]}}})
    wound = view(rules("ember"), juno).live.wound("strain")
    assert wound is not None and (("", "strain"), 1, 1) == (wound.marks, wound.filled,
                                                            wound.overflow)


# --- SHEET-PEN, SHEET-ADJ: on checks and records -----------------------------------------------


def test_no_penalty_from_means_no_wound_on_checks() -> None:
    """SHEET-PEN-01: Ember Roads names no ``penaltyFrom``; Juno with every Strain box marked
    (-1 on the track) still takes 0 on Sneak."""
    juno = member(JUNO, live={"wounds": {"strain": {"marks": ["strain"] * 3}}})
    assert 0 == check_for(rules("ember"), juno, "Sneak").penalty


def test_the_wound_penalty_is_flat_on_a_sum() -> None:
    """SHEET-PEN-03 (sum): Ember with ``penaltyFrom: strain``: Juno's full Strain is -1 on the
    modifier; Tinker +3 becomes +2 and 4 + 4 + 2 = 10 is the total."""
    ember = changed("ember", lambda d: d["resolution"].update(penaltyFrom="strain"))
    juno = member(JUNO, live={"wounds": {"strain": {"marks": ["strain"] * 3}}})
    record, _ = resolve(ember, (member({"name": "Pell", "player": True}), juno), [4, 4],
                        skill="Tinker", dc="8", who="Juno")
    assert {"modifier": "2", "total": "10", "penalty": "-1"} == attrs_of(
        record, "modifier", "total", "penalty")


def test_down_still_throws_pool_min() -> None:
    """SHEET-PEN-03 (pool), SHEET-ADJ-04: a warden on Down (-99) with the light out (-2) still
    throws one die on Ward; the record carries both."""
    bram = member(BRAM, live={"wounds": {"harm": {"marks": ["tear"] * 5}},
                              "states": {"light": "out"}})
    record, _ = resolve(rules("gravewatch"), (bram,), [8], skill="Ward", dc="1")
    assert {"pool": "1", "penalty": "-99", "adjust": "-2"} == attrs_of(record, "pool", "penalty",
                                                                       "adjust")


def test_penalty_is_the_rollers_own_and_reaches_unknown_checks() -> None:
    """SHEET-PEN-04: three marks put Bram (his scar adds a Winded level) on Winded -1 where a
    scarless warden is on Bleeding -3; a check named "Juggling" takes it too; a stranger 0."""
    marks = {"wounds": {"harm": {"marks": ["tear", "tear", "knock"]}}}
    bram = member(BRAM, live=marks)
    plain = built({}, marks)
    state = GameState(ruleset="gravewatch", party=(bram,))
    stranger = assemble_check(rules("gravewatch"), state, find_roller(state, "Mother Hel"),
                              "Ward", None)
    assert (-1, -3, -1, 0) == (check_for(rules("gravewatch"), bram, "Ward").penalty,
                               check_for(rules("gravewatch"), plain, "Ward").penalty,
                               check_for(rules("gravewatch"), bram, "Juggling").penalty,
                               stranger.penalty)


def test_penalty_and_adjust_on_the_record_only_when_they_count() -> None:
    """SHEET-PEN-05, SHEET-ADJ-05, SHEET-CHK-07: Bram's Ward throws 6 dice with
    ``penalty="-1" adjust="-1"``; ``with="Sinew"`` has no adjust; a clear warden neither."""
    bram = member(BRAM)
    ward, _ = resolve(rules("gravewatch"), (bram,), [2] * 6, skill="Ward", dc="1")
    sinew, _ = resolve(rules("gravewatch"), (bram,), [2] * 7, skill="Ward", dc="1",
                       **{"with": "Sinew"})
    clear, _ = resolve(rules("gravewatch"), (built({"skills": {"ward": "rating_1"}}),), [2] * 3,
                       skill="Ward", dc="1")
    names = ("pool", "penalty", "adjust")
    assert [{"pool": "6", "penalty": "-1", "adjust": "-1"}, {"pool": "7", "penalty": "-1"},
            {"pool": "3"}] == [attrs_of(r, *names) for r in (ward, sinew, clear)]


def unlimited(value: float) -> Callable[[Raw], object]:
    return lambda d: d["resolution"]["adjust"].append({"value": {"const": value}})


def test_adjust_applies_by_the_ability_rolled_with() -> None:
    """SHEET-ADJ-01/02/06: Gravewatch's light_nerve (-1 for Bram) reaches Ward, Listen, Steel,
    a Nerve check, Nerve + Warmth and Soothe ``with="Nerve"``, not Ward ``with="Sinew"`` or
    Dig; with an unlimited entry of -1 added, a "Juggling" check takes only that one."""
    bram = member(BRAM)
    rolls = [("Ward", None), ("Listen", None), ("Steel save", None), ("Nerve", None),
             ("Nerve", "Warmth"), ("Soothe", "Nerve"), ("Ward", "Sinew"), ("Dig", None)]
    got = [check_for(rules("gravewatch"), bram, s, w).adjust for s, w in rolls]
    juggling = check_for(changed("gravewatch", unlimited(-1)), bram, "Juggling").adjust
    assert ([-1] * 6 + [0, 0], -1) == (got, juggling)


def test_ember_adjust_on_brawn_rolls() -> None:
    """SHEET-ADJ-06: Juno's burdened -1 and reckless +2 reach Scrap, a Brawn check and Tinker
    ``with="Brawn"`` (+1), not Tinker or Sneak."""
    juno = member(JUNO)
    rolls = [("Scrap", None), ("Brawn", None), ("Tinker", "Brawn"), ("Tinker", None),
             ("Sneak", None)]
    assert [1, 1, 1, 0, 0] == [check_for(rules("ember"), juno, s, w).adjust for s, w in rolls]


@pytest.mark.parametrize(("extra", "ward", "dig"), [(-1.5, -2, -1), (1.5, 0, 1), (0.5, 0, 0)])
def test_adjust_total_truncates_toward_zero(extra: float, ward: int, dig: int) -> None:
    """SHEET-ADJ-03: light_nerve -1 plus an unlimited entry: Ward -2.5 -> -2, Dig -1.5 -> -1;
    +1.5: Ward 0.5 -> 0, Dig 1.5 -> 1; +0.5: -0.5 -> 0 and 0.5 -> 0."""
    grave = changed("gravewatch", unlimited(extra))
    bram = member(BRAM)
    assert (ward, dig) == (check_for(grave, bram, "Ward").adjust,
                           check_for(grave, bram, "Dig").adjust)


def test_a_stranger_gets_no_adjust() -> None:
    """SHEET-ADJ-04: an unlimited -1 does not reach a stranger's Ward."""
    grave = changed("gravewatch", unlimited(-1))
    state = GameState(ruleset="gravewatch", party=(member(BRAM),))
    check = assemble_check(grave, state, find_roller(state, "Mother Hel"), "Ward", None)
    assert (0, 0) == (check.adjust, check.number)


def test_a_refused_check_stops_before_adjust() -> None:
    """SHEET-CHK-03: a blank warden on Bleeding with the light out: Dig stops at the untrained
    ``refuse`` (no adjust or penalty read); Ward goes on to take both (-2, -3)."""
    warden = built({}, {"states": {"light": "out"},
                        "wounds": {"harm": {"marks": ["tear", "tear", "tear"]}}})
    dig = check_for(rules("gravewatch"), warden, "Dig")
    ward = check_for(rules("gravewatch"), warden, "Ward")
    assert (("refuse", 0, 0), (-2, -3)) == ((dig.untrained, dig.adjust, dig.penalty),
                                            (ward.adjust, ward.penalty))


# --- SHEET-COND --------------------------------------------------------------------------------


def test_conditions_need_the_combat_block() -> None:
    """SHEET-COND-01: Rattled takes a die off Soothe by its label; without a ``combat`` block the
    same condition changes no check."""
    rattled = member(BRAM, live={"conditions": ["rattled"]})
    bare = changed("gravewatch", lambda d: d.pop("combat"))
    assert ([("Rattled", -1)], []) == (
        [(m.source, m.flat) for m in check_for(rules("gravewatch"), rattled, "Barter").modifiers],
        [(m.source, m.flat) for m in check_for(bare, rattled, "Barter").modifiers])


def test_narrowed_sources_skip_ability_and_unknown_checks() -> None:
    """SHEET-COND-04: Rattled (narrowed to Soothe and Barter) gives nothing to a Warmth check or
    a "Juggling" check; 5e Poisoned (not narrowed) leans both."""
    rattled = member(BRAM, live={"conditions": ["rattled"]})
    poisoned = built({}, {"conditions": ["poisoned"]})
    grave = [check_for(rules("gravewatch"), rattled, s).modifiers for s in ("Warmth", "Juggling")]
    five = [check_for(rules("5e"), poisoned, s).leans for s in ("Strength", "Juggling")]
    assert ([(), ()], [(("disadvantage", "Poisoned"),)] * 2) == (grave, five)
