"""Juno on the Ember Roads (SHEET-TRN-12..14), the 5e vectors and the blank sheets (SHEET-BLANK)."""

from __future__ import annotations

import pytest

from middleware.character.check import assemble_check, view_for
from middleware.character.summary import pools_summary
from middleware.sheet.evaluate import SheetView, blank_build
from middleware.sheet.names import match_check
from middleware.sheet.roller import find_roller
from middleware.sheet.rules_view import sheet_rules
from tests.sheet.sheet_helpers import JUNO, raw, ruleset, state_of

EMBER = ruleset("ember")
FIVE = ruleset("5e")
JUNO_STATE = state_of("ember-roads", {"name": "Pell", "player": True}, JUNO)


NAMES = ("grit_max", "guard", "burden", "burdened", "load", "bulk_carried", "strain_boxes",
         "stance_brawn")


def test_juno_evaluated_sheet() -> None:
    """SHEET-TRN-13: guard 9 with the worn leather coat's guard 1; bulk_carried 6 (coat 3 + axe 1
    + rations 2 x 1; the waystone gives no bulk, coins never count)."""
    view = view_for(EMBER, JUNO_STATE.party[1])
    actual = {n: view.derived(n) for n in NAMES}
    expected = {"grit_max": 8, "guard": 9, "burden": 3, "burdened": -1, "load": 7,
                "bulk_carried": 6, "strain_boxes": 3, "stance_brawn": 2}
    assert expected == actual
    wound = view.live.wound("strain")
    assert wound is not None and (wound.length, wound.filled, wound.penalty) == (3, 1, 0)
    assert view.live.track_read("heat", "value") == 2


def test_juno_outside_play_reads_defaults() -> None:
    """ITM-SHEET-11: with nobody holding anything, guard is 8 and bulk_carried its default 0."""
    bare = JUNO_STATE.party[1].model_copy(update={"bag": ()})
    view = view_for(EMBER, bare)
    assert (8, 0) == (view.derived("guard"), view.derived("bulk_carried"))


def test_juno_pools_summary() -> None:
    """SHEET-TRN-06/13: pools by key with the value as read, the row pool included."""
    expected = {"grit": 5, "luck": 2, "tricks:second breath": 0}
    assert expected == pools_summary(EMBER, JUNO_STATE.party[1])


@pytest.mark.parametrize(("skill", "with_", "sheet", "adjust", "effects", "modifier"), [
    ("Scrap", None, 1, 1, (), 2), ("Sneak", None, 4, 0, (("Leather coat", -1),), 3),
    ("Tinker", None, 3, 0, (), 3), ("Tinker", "Brawn", 2, 1, (), 3),
    ("Sway", None, 3, 0, (("Waystone", 1),), 4), ("Brawn", None, 1, 1, (), 2),
    ("Wits", None, 2, 0, (), 2), ("Heart", None, 1, 0, (), 1)])
def test_juno_modifiers(skill: str, with_: str | None, sheet: int, adjust: int,
                        effects: tuple[tuple[str, int], ...], modifier: int) -> None:
    """SHEET-TRN-14: sheet, adjust, item effects (the worn leather coat -1 on Sneak, the carried
    waystone +1 on Sway) and the modifier they make."""
    check = assemble_check(EMBER, JUNO_STATE, find_roller(JUNO_STATE, "juno"), skill, with_)
    got = tuple((m.source, m.flat) for m in check.modifiers)
    total = check.number + check.adjust + check.penalty + sum(m.flat for m in check.modifiers)
    assert (sheet, adjust, 0, effects, modifier) == (check.number, check.adjust, check.penalty,
                                                     got, total)


def test_guarded_scrap() -> None:
    """SHEET-TRN-14: guarded instead of reckless makes Scrap 1 + (-1 - 1) = -1."""
    guarded = dict(JUNO, live=dict(JUNO["live"], states={"stance": "guarded"}))
    state = state_of("ember-roads", guarded)
    check = assemble_check(EMBER, state, find_roller(state, None), "Scrap", None)
    assert check.number + check.adjust == -1


def test_bulk_level_narrows_to_sneak() -> None:
    """SHEET-COND-08: bulk_carried >= 10 is -1 on Sneak only (items feed it; a stand-in here)."""
    data = raw("ember")
    laden = next(lv for lv in data["combat"]["levels"] if lv.get("derived") == "bulk_carried")
    laden.update(derived="load", at=6)
    rules = ruleset("ember", data)
    state = state_of("ember-roads", {"name": "Pell"})
    sneak = assemble_check(rules, state, find_roller(state, None), "Sneak", None)
    scrap = assemble_check(rules, state, find_roller(state, None), "Scrap", None)
    assert (tuple(m.flat for m in sneak.modifiers), scrap.modifiers) == ((-1,), ())


@pytest.mark.parametrize(("level", "pb"), [(1, 2), (4, 2), (5, 3), (20, 6), (0, 2)])
def test_5e_step_table(level: int, pb: int) -> None:
    """SHEET-DRV-06 / SHEET-TIER-07: proficiency bonus by level; below the first row, 2."""
    build = blank_build(sheet_rules(FIVE)).model_copy(update={"fields": {"level": level}})
    assert pb == SheetView(sheet_rules(FIVE), build).proficiency_bonus()


def test_5e_tiers_at_level_5() -> None:
    """SHEET-TIER-07: PB 3; proficient 3, expertise 6, half 1, none 0 (Strength 10)."""
    view = SheetView(sheet_rules(FIVE), blank_build(sheet_rules(FIVE)).model_copy(update={
        "fields": {"level": 5},
        "skills": {"athletics": "proficient", "stealth": "expertise", "arcana": "half"}}))
    actual = [view.skill_number(s) for s in ("athletics", "stealth", "arcana", "history")]
    assert actual == [3, 6, 1, 0]


@pytest.mark.parametrize(("name", "kind", "id_"), [
    ("Dexterity save", "save", "dex_save"), ("dex_save", "save", "dex_save"),
    ("DEX saving throw", "save", "dex_save"), ("Stealth check", "skill", "stealth"),
    ("Strength", "ability", "str"), ("Strength ability check", "ability", "str"),
    ("Basket weaving", "unknown", None), ("Basket save", "unknown", None)])
def test_5e_check_names(name: str, kind: str, id_: str | None) -> None:
    """SHEET-SKL-07: what a check name means."""
    target = match_check(FIVE.sheet, name)
    assert (kind, id_) == (target.kind, target.id)


def test_save_hint_reads_an_ability_as_its_save() -> None:
    """SHEET-SKL-07 with a save hint: "Dexterity" asked as a save means dex_save."""
    assert match_check(FIVE.sheet, "Dexterity", is_save_hint=True).id == "dex_save"


@pytest.mark.parametrize(("conditions", "exhaustion", "save", "expected"), [
    (["poisoned"], 0, False, (("disadvantage", "Poisoned"),)),
    (["frightened"], 0, False, (("disadvantage", "Frightened"),)),
    (["restrained"], 0, True, (("disadvantage", "Restrained"),)),
    (["blinded"], 0, False, ()),
    ([], 1, False, (("disadvantage", "Exhaustion 1"),)),
    ([], 1, True, ()),
    ([], 3, True, (("disadvantage", "Exhaustion 3"),)),
])
def test_5e_condition_leans(conditions: list[str], exhaustion: int, save: bool,
                            expected: tuple[tuple[str, str], ...]) -> None:
    """SHEET-COND-08: 5e conditions and exhaustion levels on checks and saves."""
    member = {"name": "Ada", "live": {"conditions": conditions,
                                      "tracks": {"exhaustion": exhaustion} if exhaustion else {}}}
    state = state_of("5e-2014", member)
    check = assemble_check(FIVE, state, find_roller(state, None),
                           "Dexterity save" if save else "Stealth", None)
    assert expected == check.leans


def test_5e_restrained_only_narrows_dex_save() -> None:
    """SHEET-COND-02: restrained leans dex_save only."""
    state = state_of("5e-2014", {"name": "Ada", "live": {"conditions": ["restrained"]}})
    check = assemble_check(FIVE, state, find_roller(state, None), "Strength save", None)
    assert check.leans == ()


@pytest.mark.parametrize("condition", ["paralyzed", "petrified", "stunned", "unconscious"])
def test_5e_fails_saves(condition: str) -> None:
    """SHEET-COND-08 / SHEET-CHK-06: str and dex saves fail automatically; wis does not."""
    state = state_of("5e-2014", {"name": "Ada", "live": {"conditions": [condition]}})
    roller = find_roller(state, None)
    dex = assemble_check(FIVE, state, roller, "dex save", None)
    wis = assemble_check(FIVE, state, roller, "wis save", None)
    assert (condition.capitalize(), None) == (dex.fails_automatically, wis.fails_automatically)


BLANKS = {
    "gravewatch": {"abilities": {"sinew": 2, "nerve": 2, "warmth": 2}, "skills": {}, "saves": {},
                   "bonuses": {}, "fields": {"post": "", "watch": "night", "lantern": 3},
                   "lists": {}},
    "ember": {"abilities": {"brawn": 0, "wits": 0, "heart": 0}, "skills": {}, "saves": {},
              "bonuses": {}, "fields": {"calling": "", "toughness": 2}, "lists": {}},
}


@pytest.mark.parametrize("name", ["gravewatch", "ember"])
def test_blank_builds(name: str) -> None:
    """SHEET-BLANK-02."""
    assert BLANKS[name] == blank_build(sheet_rules(ruleset(name))).model_dump()


def test_blank_build_5e() -> None:
    """SHEET-BLANK-02 (5e)."""
    fields = {"level": 1, "class": "", "subclass": "", "race": "", "background": "",
              "alignment": "", "xp": 0, "ac": 10, "speed": 30, "initiative_misc": 0,
              "attacks_per_action": 1, "hp_max": 8, "hit_die": "d8",
              "spellcasting_ability": "none", "pact_slots_max": 0, "pact_slot_level": 1,
              **{f"slots_max_{n}": 0 for n in range(1, 10)}}
    build = blank_build(sheet_rules(FIVE))
    assert ({a: 10 for a in ("str", "dex", "con", "int", "wis", "cha")}, fields) == (
        build.abilities, build.fields)


def test_blank_evaluations() -> None:
    """SHEET-BLANK-03 for the three files, evaluated with no live state."""
    def derived(rules: object) -> dict[str, float]:
        view = SheetView(sheet_rules(rules), blank_build(sheet_rules(rules)))  # type: ignore[arg-type]
        return {d.id: view.derived(d.id) for d in view.rules.sheet.derived}

    grave, ember, five = ruleset("gravewatch"), EMBER, FIVE
    expected_grave = {"dawn_resolve": 0, "resolve_max": 4, "harm_left": 4, "light_nerve": 0}
    assert expected_grave == derived(grave)
    expected_ember = {"grit_max": 6, "guard": 6, "burden": 0, "burdened": 0, "load": 6,
                      "bulk_carried": 0, "strain_boxes": 2, "stance_brawn": 0}
    expected_five = {"proficiency_bonus": 2, "initiative": 0, "passive_perception": 10,
                     "spell_save_dc": 10, "spell_attack": 2}
    assert expected_ember == derived(ember)
    assert expected_five == derived(five)


@pytest.mark.parametrize(("name", "pools", "numbers"), [
    ("gravewatch", {"resolve": 4},
     {"Dig": 2, "Wrestle": 1, "Listen": 2, "Ward": 2, "Soothe": 2, "Barter": 2, "Steel": 2}),
    ("ember", {"grit": 6, "luck": 3}, {"Scrap": 0, "Sneak": 0, "Sway": 0, "Tinker": -2}),
    ("5e", {"hp": 8, "hit_dice": 1}, {"Stealth": 0, "Dexterity save": 0, "Strength": 0}),
])
def test_blank_party_member(name: str, pools: dict[str, int], numbers: dict[str, int]) -> None:
    """SHEET-BLANK-03/04: a member without a sheet rolls on the blank build."""
    rules = ruleset(name)
    state = state_of("x", {"name": "Ada"})
    roller = find_roller(state, "Ada")
    assert pools == pools_summary(rules, state.party[0])
    assert numbers == {s: assemble_check(rules, state, roller, s, None).number for s in numbers}
