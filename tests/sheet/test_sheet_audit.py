"""The sheet digest audited against the code (sheet.md), part one: how a sheet is worked out
(SHEET-EVAL, -ABL, -TIER, -SKL, -UNT, -SEC, -REF), each requirement no earlier test cited shown on
the real compat rulesets the way a check or an item rule reads it.

Part two (derived values, fields, lists, live state, wounds, and what a check takes off the
sheet) is ``test_sheet_audit_live.py``; import refusals and stored shapes are
``test_sheet_audit_shapes.py``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from middleware.rules.refs import ValueRef
from middleware.rules.sheet import UntrainedBy
from middleware.sheet.evaluate import SheetView
from middleware.sheet.names import find_ability, match_check
from middleware.sheet.numbers import round_by
from tests.rulesets import by_id
from tests.sheet.audit_helpers import Raw, built, changed, check_for, member, ref, rules, view
from tests.sheet.sheet_helpers import BRAM, JUNO

# --- SHEET-EVAL: the order of a sheet's numbers ------------------------------------------------

FIGHTER = {"abilities": {"str": 16, "dex": 12, "wis": 14},
           "skills": {"athletics": "proficient", "perception": "proficient"},
           "fields": {"level": 5}}
"""A 5e level-5 fighter: Strength 16 (+3), Wisdom 14 (+2), proficient Athletics and Perception."""


def test_a_sheet_is_worked_out_in_order() -> None:
    """SHEET-EVAL-01..06: score 16, its modifier +3, the number field level 5, PB 3 worked out
    when the proficient tier needs it, Athletics 3 + 3 = 6, and the derived Passive Perception
    10 + skillMod perception (2 + 3) = 15, the skill number worked out on demand."""
    sheet = view(rules("5e"), built(FIGHTER))
    actual = (sheet.score("str"), sheet.modifier("str"), sheet.number_field("level"),
              sheet.proficiency_bonus(), sheet.skill_number("athletics"),
              sheet.derived("passive_perception"))
    assert (16, 3, 5, 3, 6, 15) == actual


def test_the_live_state_is_resolved_alongside() -> None:
    """SHEET-EVAL-07: Bram's pools, wound track and state are read against his build: Resolve
    4 of 6 (his dawn watch raises the maximum), Harm 2 of 5 with his scar's level, light
    shuttered; derived values that read them (harm_left, light_nerve) see that view."""
    sheet = view(rules("gravewatch"), member(BRAM))
    wound = sheet.live.wound("harm")
    assert wound is not None
    actual = (sheet.live.pools()["resolve"], (wound.filled, wound.length),
              sheet.live.state_value("light"), sheet.derived("harm_left"),
              sheet.derived("light_nerve"))
    assert ((4, 6), (2, 5), "shuttered", 3, -1) == actual


def test_evaluation_never_fails() -> None:
    """SHEET-EVAL-08: a number field holding text reads its default (lantern 3), a bonus that is
    not a finite number reads 0, and references naming nothing read 0."""
    sheet = view(rules("gravewatch"), built({"fields": {"lantern": "plenty"},
                                             "bonuses": {"ward": float("nan")},
                                             "skills": {"ward": "rating_1"}}))
    nothing = [sheet.ref(ValueRef.model_validate(r)) for r in (
        {"derived": "nope"}, {"abilityMod": "luck"}, {"skillMod": "juggle"},
        {"liveTrack": "nope"}, {"livePool": "nope"}, {"field": "nope"})]
    assert (3, 2 + 1, [0, 0, 0, 0, 0, 0]) == (sheet.number_field("lantern"),
                                               sheet.skill_number("ward"), nothing)


# --- SHEET-ABL, SHEET-TIER ---------------------------------------------------------------------


def test_abilities_of_the_three_files() -> None:
    """SHEET-ABL-01: (id, min, max, default) as the examples give them."""
    def shape(name: str) -> list[tuple[str, int, int, int]]:
        return [(a.id, a.min, a.max, a.default) for a in rules(name).sheet.abilities]
    assert [("sinew", 1, 5, 2), ("nerve", 1, 5, 2), ("warmth", 1, 5, 2)] == shape("gravewatch")
    assert [("brawn", -1, 3, 0), ("wits", -1, 3, 0), ("heart", -1, 3, 0)] == shape("ember")
    assert [(a, 1, 30, 10) for a in ("str", "dex", "con", "int", "wis", "cha")] == shape("5e")


def test_a_stored_score_is_read_as_stored() -> None:
    """SHEET-ABL-02, SHEET-BUILD-03: a score outside 1..5 is not clamped on read (Sinew 7 makes
    an untrained Wrestle 7 - 1 = 6 dice); a missing score reads the default 2."""
    sheet = view(rules("gravewatch"), built({"abilities": {"sinew": 7}}))
    assert (7, 2, 6) == (sheet.score("sinew"), sheet.score("nerve"),
                         sheet.skill_number("wrestle"))


BELT = {"id": "ox-belt", "label": "Ox belt", "item": {
    "category": "gear", "carried": {"abilities": {"brawn": {"add": 2}}}}}


def with_belt(d: Raw) -> None:
    catalog = next(c for c in d["catalogs"] if c.get("holds") == "items")
    catalog["entries"].append(BELT)


def test_items_change_scores_but_not_maxima() -> None:
    """SHEET-ABL-03, SHEET-REF-05, SHEET-REF-16: a carried belt adds 2 to Brawn 2 -> 4, held at
    the ability's max 3, counted once for two stacks; load (6 + Brawn) reads 9 but Grit's
    maximum (4 + toughness 2 + Brawn) stays 8, worked out without items."""
    ember = changed("ember", with_belt)
    belted = built({"abilities": {"brawn": 2}})
    belted = belted.model_copy(update={"bag": (
        *member(bag=[{"item": "outfitter/ox-belt"}, {"item": "outfitter/ox-belt"}]).bag,)})
    sheet = view(ember, belted)
    score = sheet.ref(ValueRef.model_validate({"abilityScore": "brawn"}))
    assert (3, 9, 8) == (score, sheet.derived("load"), sheet.live.pools()["grit"][1])


def test_an_ability_answers_to_id_label_and_short() -> None:
    """SHEET-ABL-05: "nerve", "Nerve" and "NRV" all name Nerve, as a check and as ``with=``."""
    sheet = rules("gravewatch").sheet
    found = [find_ability(sheet, n) for n in ("nerve", "Nerve", "NRV")]
    targets = [match_check(sheet, n) for n in ("nerve", "NRV check")]
    assert (["nerve"] * 3, [("ability", "nerve")] * 2) == (
        [a.id if a else None for a in found], [(t.kind, t.id) for t in targets])


@pytest.mark.parametrize(("value", "mode", "expected"), [
    (2.5, "nearest", 3), (-2.5, "nearest", -2), (1.5, "down", 1), (1.5, "up", 2),
    (-1.5, "down", -2), (-1.5, "up", -1)])
def test_tier_rounding(value: float, mode: str, expected: int) -> None:
    """SHEET-TIER-02: down floors, up ceils, nearest rounds halves up toward +inf."""
    assert expected == round_by(value, mode)


def tiers(round_: str) -> Callable[[Raw], object]:
    return lambda d: by_id(d["resolution"]["proficiencyTiers"], "half").update(round=round_,
                                                                              flat=1)


@pytest.mark.parametrize(("round_", "expected"), [("down", 2), ("up", 3), ("nearest", 3)])
def test_a_tier_is_worth_rounded_multiplier_times_pb_plus_flat(round_: str,
                                                               expected: int) -> None:
    """SHEET-TIER-02: 5e ``half`` with flat 1 at PB 3 is round(1.5) + 1 by its rounding."""
    sheet = view(changed("5e", tiers(round_)), built({"fields": {"level": 5},
                                                      "skills": {"arcana": "half"}}))
    assert expected == sheet.skill_number("arcana")


def test_pb_reads_the_build_alone_and_is_zero_without_proficiency() -> None:
    """SHEET-TIER-03, SHEET-EVAL-05: 5e PB follows the level field (3 at level 5, also with
    exhaustion marked in play); Gravewatch has no proficiency, so PB is 0 and tiers are flat."""
    tired = built({"fields": {"level": 5}}, {"tracks": {"exhaustion": 3}})
    grave = view(rules("gravewatch"), member(BRAM))
    assert (3, 0) == (view(rules("5e"), tired).proficiency_bonus(), grave.proficiency_bonus())


def test_an_unknown_tier_reads_as_the_first() -> None:
    """SHEET-TIER-05, SHEET-BUILD-03: 5e Athletics at "master" is ``none`` (+0); a Gravewatch Dig
    at "rating_9" is untrained, so Dig is refused."""
    five = view(rules("5e"), built({"skills": {"athletics": "master"}}))
    dig = check_for(rules("gravewatch"), built({"skills": {"dig": "rating_9"}}), "Dig")
    assert (0, "refuse") == (five.skill_number("athletics"), dig.untrained)


def test_a_save_tier_outside_save_tiers_still_counts_on_read() -> None:
    """SHEET-TIER-06: the evaluator does not enforce ``saveTiers``: a Dexterity save stored as
    ``expertise`` is worth 2 x PB 3 = 6 at level 5 (transcripts refuse it: see the shapes)."""
    sheet = view(rules("5e"), built({"fields": {"level": 5}, "saves": {"dex_save": "expertise"}}))
    assert 6 == sheet.save_number("dex_save")


# --- SHEET-SKL, SHEET-UNT, SHEET-SEC -----------------------------------------------------------


def test_skill_number_parts_and_cap() -> None:
    """SHEET-SKL-02, SHEET-EVAL-06: Bram's Ward is Nerve 3 + rating_3 3 + bonus 1 = 7; his
    Soothe would be Warmth 2 + rating_1 1 = 3, under its cap of the 4 Resolve left."""
    sheet = view(rules("gravewatch"), member(BRAM))
    assert (7, 3, 4) == (sheet.skill_number("ward"), sheet.skill_number("soothe"),
                         sheet.cap(sheet.ix.skills["soothe"]))


def test_a_skill_without_an_ability_stands_alone() -> None:
    """SHEET-SKL-01: Ember Sway with its ability removed is tier 1 + bonus 1 = 2 for Juno,
    whatever her Heart."""
    ember = changed("ember", lambda d: by_id(d["sheet"]["skills"], "sway").pop("ability"))
    assert 2 == view(ember, member(JUNO)).skill_number("sway")


def test_free_bonus_is_read_unclamped() -> None:
    """SHEET-SKL-04: a Ward bonus of 9 (outside bonusRange 0..3) reads as 9 on a blank warden."""
    assert 2 + 9 == view(rules("gravewatch"), built({"bonuses": {"ward": 9}})).skill_number("ward")


WARMTH_WARDEN = {"abilities": {"warmth": 3, "nerve": 2}, "skills": {"soothe": "rating_3"}}


def test_with_swaps_the_ability_then_caps() -> None:
    """SHEET-SKL-05 derived: Warmth 3, Soothe rating_3, Nerve 2, full Resolve 4: uncapped 6,
    capped 4; ``with="Nerve"`` gives 6 - 3 + 2 = 5, capped 4. ``with=`` naming no ability
    is ignored."""
    warden = built(WARMTH_WARDEN)
    sheet = view(rules("gravewatch"), warden)
    soothe = sheet.ix.skills["soothe"]
    plain = check_for(rules("gravewatch"), warden, "Soothe")
    nerve = check_for(rules("gravewatch"), warden, "Soothe", "Nerve")
    luck = check_for(rules("gravewatch"), warden, "Soothe", "Luck")
    assert (6, 5, 4, 4, (4, None)) == (
        sheet.uncapped(soothe, False), sheet.uncapped(soothe, False) - 3 + 2,
        plain.number, nerve.number, (luck.number, luck.with_used))


def test_untrained_rules_own_then_section_then_normal() -> None:
    """SHEET-UNT-01, SHEET-SEC-02: at the first tier Dig's own ``refuse`` beats its section;
    Wrestle takes the labour section's ``by -1``; Listen its own ``harder``; Barter has no rule
    ("normal"); a trained Dig has none."""
    sheet = view(rules("gravewatch"), built({"skills": {"dig": "rating_1"}}))
    blank = view(rules("gravewatch"), member())
    six = {s: blank.untrained_rule(blank.ix.skills[s], False)
           for s in ("dig", "wrestle", "listen", "barter")}
    assert ({"dig": "refuse", "wrestle": UntrainedBy(by=-1), "listen": "harder",
             "barter": "normal"}, None) == (six, sheet.untrained_rule(sheet.ix.skills["dig"],
                                                                      False))


def test_untrained_by_is_part_of_the_number() -> None:
    """SHEET-UNT-02/03: a blank warden's Barter ("normal") is Warmth 2; Wrestle is 2 - 1 = 1 die;
    Ember Tinker untrained with Wits 2 is 2 - 2 = +0."""
    warden = member()
    tinkerer = built({"abilities": {"wits": 2}})
    assert (2, 1, 0) == (check_for(rules("gravewatch"), warden, "Barter").number,
                         check_for(rules("gravewatch"), warden, "Wrestle").number,
                         check_for(rules("ember"), tinkerer, "Tinker").number)


def test_ability_checks_have_no_untrained_rule() -> None:
    """SHEET-UNT-07: a blank warden's Sinew check (the labour section's ability) rolls "normal"
    with Sinew 2, no ``by``."""
    sinew = check_for(rules("gravewatch"), member(), "Sinew")
    assert ("ability", "normal", 2) == (sinew.target, sinew.untrained, sinew.number)


# --- SHEET-REF ---------------------------------------------------------------------------------


def test_a_reference_has_exactly_one_key() -> None:
    """SHEET-REF-01: two keys, no key, ``read`` beside anything but ``liveTrack``, and an
    ``itemStat`` without ``stat`` (unless it counts) are refused; the rest are accepted."""
    bad = [{"const": 1, "field": "level"}, {}, {"livePool": "grit", "read": "value"},
           {"itemStat": {"from": "worn", "pick": "sum"}}]
    good = [{"liveTrack": "heat", "read": "remaining"},
            {"itemStat": {"from": "worn", "pick": "count"}}]
    refused = []
    for raw in bad:
        with pytest.raises(ValueError):
            ValueRef.model_validate(raw)
        refused.append(True)
    assert ([True] * 4, 2) == (refused, len([ValueRef.model_validate(r) for r in good]))


def test_const_field_derived_and_ability_reads() -> None:
    """SHEET-REF-02..06: const 2.5 as it is; the lantern field reads 3 though a dawn warden's
    sheet hides it; derived resolve_max 6; abilityScore 3 and abilityMod 3 (identity)."""
    sheet = view(rules("gravewatch"), member(BRAM))
    actual = [ref(sheet, r) for r in ({"const": 2.5}, {"field": "lantern"},
                                      {"derived": "resolve_max"}, {"abilityScore": "nerve"},
                                      {"abilityMod": "nerve"})]
    assert (True, [2.5, 3, 6, 3, 3]) == (sheet.hidden(sheet.ix.fields["lantern"].hide_when),
                                         actual)


@pytest.mark.parametrize(("ability", "expected"), [("wis", 8 + 3 + 2), ("none", 8 + 3),
                                                  ("str", 8 + 3), ("gone", 8 + 3)])
def test_ability_mod_from_field(ability: str, expected: int) -> None:
    """SHEET-REF-07: spell_save_dc = 8 + PB 3 + the modifier of the ability the field names; a
    value that is not an ability (``none``) reads 0, a value no longer offered reads the
    field's default ``none`` (Strength is an ability, but the field does not offer it)."""
    build = dict(FIGHTER, fields={"level": 5, "spellcasting_ability": ability})
    assert expected == view(rules("5e"), built(build)).derived("spell_save_dc")


def test_skill_mod_is_the_sheet_number_only() -> None:
    """SHEET-REF-08: skillMod ward reads Bram's 7, without adjust (-1), wound (-1) or the Dawn
    bell (+1) the check itself takes."""
    bram = member(BRAM)
    ward = check_for(rules("gravewatch"), bram, "Ward")
    assert (7, (7, -1, -1, 1)) == (ref(view(rules("gravewatch"), bram), {"skillMod": "ward"}),
                                   (ward.number, ward.adjust, ward.penalty,
                                    sum(m.flat for m in ward.modifiers)))


def test_live_track_reads() -> None:
    """SHEET-REF-09, SHEET-WND-07: Bram's Harm value 2 (marks), filled 2, remaining 3, penalty
    -1; Juno's Heat 2 of 0..5: filled 2, remaining 3, and ``penalty`` on a plain track 0; a
    missing track reads 0."""
    bram = view(rules("gravewatch"), member(BRAM))
    juno = view(rules("ember"), member(JUNO))
    reads = ("value", "filled", "remaining", "penalty")
    assert ([2, 2, 3, -1], [2, 2, 3, 0], 0) == (
        [bram.live.track_read("harm", r) for r in reads],
        [juno.live.track_read("heat", r) for r in reads], bram.live.track_read("nope", "value"))


def test_live_pool_reads_declared_pools_only() -> None:
    """SHEET-REF-10: Juno's Grit reads 5; her row pool ``tricks:second breath`` is not readable
    this way (0); a 5e non-caster's hidden slot pool reads 0."""
    juno = view(rules("ember"), member(JUNO))
    caster = view(rules("5e"), built({"fields": {"slots_max_1": 2}}))
    assert (5, 0, 0) == (ref(juno, {"livePool": "grit"}),
                         ref(juno, {"livePool": "tricks:second breath"}),
                         ref(caster, {"livePool": "slots_1"}))


def hide_gear(d: Raw) -> None:
    by_id(d["sheet"]["lists"], "gear")["hideWhen"] = {"field": "calling", "equals": "Scout"}


def test_list_sum_with_only_when_and_a_hidden_list() -> None:
    """SHEET-REF-11: Juno's burden adds bulk where packed (Rope by the column default true 1 +
    Tent 2 = 3, the unpacked boots left out); when the gear list is hidden it adds 0."""
    assert (3, 0) == (view(rules("ember"), member(JUNO)).derived("burden"),
                      view(changed("ember", hide_gear), member(JUNO)).derived("burden"))


def half_more(d: Raw) -> None:
    by_id(d["sheet"]["derived"], "resolve_max")["of"].append({"const": 0.5})
    by_id(d["sheet"]["skills"], "soothe")["cap"] = {"derived": "resolve_max"}
    d["resolution"]["adjust"].append({"value": {"const": 0.5}})


def test_readers_floor_or_truncate_references() -> None:
    """SHEET-REF-13, SHEET-DRV-09, SHEET-REF-17: resolve_max 6.5 stays fractional as a derived
    value; the pool maximum floors it to 6 and so does a cap reading it (Soothe with Warmth 9
    is held to 6); the adjust total -1 + 0.5 truncates toward zero to 0."""
    grave = changed("gravewatch", half_more)
    bram = member(BRAM, live={})
    sheet = view(grave, bram)
    strong = built({"abilities": {"nerve": 3, "warmth": 9}, "fields": {"watch": "dawn"},
                    "skills": {"soothe": "rating_3"}}, {"states": {"light": "shuttered"}})
    soothe, ward = check_for(grave, strong, "Soothe"), check_for(grave, strong, "Ward")
    assert (6.5, 6, 6, 0) == (sheet.derived("resolve_max"), sheet.live.pools()["resolve"][1],
                              soothe.number, ward.adjust)


def test_live_reads_follow_play() -> None:
    """SHEET-REF-14: harm_left (a liveTrack read) and light_nerve (an enum table on a live state)
    follow the live state: Bram's build with a clear track and lit lantern reads 5 (his scar
    makes Harm 5 long) and 0; as he stands, 3 and -1."""
    clear = view(rules("gravewatch"), built(BRAM["sheet"]["build"]))
    bram = view(rules("gravewatch"), member(BRAM))
    assert ((5, 0), (3, -1)) == ((clear.derived("harm_left"), clear.derived("light_nerve")),
                                 (bram.derived("harm_left"), bram.derived("light_nerve")))


def empty_luck(d: Raw) -> None:
    by_id(d["sheet"]["live"]["pools"], "luck")["start"] = "empty"


def test_without_live_state_reads_the_start_of_play() -> None:
    """SHEET-REF-15: with no live state and no items (editor, validate), Juno's build reads a
    full Grit 8, an ``empty`` Luck 0, Heat at its default 0, Strain clear, stance at its
    default (stance_brawn 0) and guard without items 6 + Wits 2 = 8."""
    sheet = SheetView(view(rules("ember"), member(JUNO)).rules,
                      member(JUNO).sheet.build)  # type: ignore[union-attr]
    emptied = SheetView(view(changed("ember", empty_luck), member(JUNO)).rules,
                        member(JUNO).sheet.build)  # type: ignore[union-attr]
    wound = sheet.live.wound("strain")
    assert wound is not None
    assert (8, 0, 0, 0, 0, 8) == (ref(sheet, {"livePool": "grit"}),
                                  ref(emptied, {"livePool": "luck"}),
                                  sheet.live.track_read("heat", "value"), wound.filled,
                                  sheet.derived("stance_brawn"), sheet.derived("guard"))
