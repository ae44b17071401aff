"""The three compat rulesets load unchanged, and what they say is what the models hold.

SHEET-FILE-06 / SHEET-IMPORT-01 (strict keys), CHK-COMMON-01 (kinds), compat/README.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from middleware.errors import Problem, RulesetError
from middleware.rules import Ruleset, load_ruleset, ruleset_json_schema, validate_ruleset
from middleware.rules.common import FloorHalfMinusTen, PoolRung, StepTableModifier
from middleware.rules.kinds.dice_pool import DicePool
from middleware.rules.kinds.dice_sum import DiceSum
from middleware.rules.registry import bundled_ids, load_bundled
from tests.conftest import compat_json, compat_path

COMPAT = ["gravewatch.json", "ember-roads.json", "ruleset-5e-2014.example.json"]


@pytest.mark.parametrize("name", COMPAT)
def test_compat_file_loads_from_its_path_with_no_problem(name: str) -> None:
    """compat/README: loading each file succeeds and ``validate`` reports nothing."""
    assert [] == validate_ruleset(compat_path(name))
    assert isinstance(load_ruleset(compat_path(name)), Ruleset)


@pytest.mark.parametrize("name", COMPAT)
def test_compat_file_loads_the_same_from_text_bytes_and_object(name: str) -> None:
    """A path, JSON text, bytes and a parsed object give the same ruleset."""
    text = compat_path(name).read_text(encoding="utf-8")
    expected = load_ruleset(compat_path(name))
    assert expected == load_ruleset(text)
    assert expected == load_ruleset(text.encode())
    assert expected == load_ruleset(compat_json(name))


@pytest.mark.parametrize("name", COMPAT)
def test_blocks_kept_as_json_are_kept_whole(name: str) -> None:
    """Nothing is dropped: items, catalogs (as models), gm and layers come back as the file has
    them (``$comment`` aside, which the models keep out of their dump)."""
    raw = compat_json(name)
    ruleset = load_ruleset(raw)
    items = ruleset.items.model_dump(mode="json", by_alias=True, exclude_unset=True) \
        if ruleset.items else None
    catalogs = [c.model_dump(mode="json", by_alias=True, exclude_unset=True)
                for c in ruleset.catalogs]
    assert _uncommented(raw.get("items")) == _uncommented(items)
    assert _uncommented(raw["catalogs"]) == _uncommented(catalogs)
    assert raw["gm"] == ruleset.gm
    assert raw["layers"] == ruleset.layers


def test_gravewatch_pool_values() -> None:
    """CHK-POOL reference values of Gravewatch: d10, pool 1..15, target 7 (5..9), explode 10/8."""
    res = load_ruleset(compat_path("gravewatch.json")).resolution
    assert isinstance(res, DicePool)
    assert (10, 1, 15, True) == (res.die.sides, res.pool.min, res.pool.max,
                                 res.pool.ability_plus_ability)
    assert (7, 5, 9) == (res.target.default, res.target.min, res.target.max)
    assert res.explode is not None and (10, 8) == (res.explode.from_, res.explode.min)
    assert ("careful", 6, "once") == (res.reroll[0].id, res.reroll[0].up_to, res.reroll[0].mode)
    assert ("resolve", 1, 1, 2) == (res.spend[0].pool, res.spend[0].amount,
                                    res.spend[0].successes, res.spend[0].per_check)
    assert "harm" == res.penalty_from


def test_gravewatch_ladder_rung_by_label() -> None:
    """CHK-COMMON-08: ``difficulty="grim"`` names the Grim rung, whatever the case."""
    ruleset = load_ruleset(compat_path("gravewatch.json"))
    assert PoolRung(label="Grim", successes=3, target=8) == ruleset.ladder_rung("grim")
    assert ruleset.ladder_rung("Impossible") is None


def test_ladder_rung_shared_by_two_rungs_names_none() -> None:
    """CHK-COMMON-08: a label two rungs share is ignored."""
    raw = compat_json("ember-roads.json")
    raw["resolution"]["difficultyLadder"][1]["label"] = "Hard"
    assert load_ruleset(raw).ladder_rung("Hard") is None


def test_ember_roads_dice_sum_values() -> None:
    """CHK-SUM: Ember Roads rolls 2d6 + identity, three flat tiers, no advantage, four rungs."""
    ruleset = load_ruleset(compat_path("ember-roads.json"))
    res = ruleset.resolution
    assert isinstance(res, DiceSum)
    assert (2, 6, None) == (res.dice.count, res.dice.sides, res.dice.faces)
    assert [0, 1, 2] == [t.flat for t in res.proficiency_tiers]
    assert (False, 4) == (res.advantage, len(res.difficulty_ladder))
    assert "none" == ruleset.naturals_for("check")
    assert 10 == getattr(ruleset.ladder_rung("hard"), "dc", None)


def test_5e_values() -> None:
    """SPEC §10 naturals object, CHK-COMMON-03 modifier, SHEET-TIER multipliers of the 5e file."""
    ruleset = load_ruleset(compat_path("ruleset-5e-2014.example.json"))
    res = ruleset.resolution
    assert isinstance(res, DiceSum)
    assert isinstance(res.ability_modifier, FloorHalfMinusTen)
    assert [0, 0.5, 1, 2] == [t.multiplier for t in res.proficiency_tiers]
    assert res.proficiency is not None and "proficiency_bonus" == res.proficiency.bonus.derived
    assert ("none", "none", True) == (ruleset.naturals_for("check"),
                                      ruleset.naturals_for("save"), res.advantage)
    assert 30 == getattr(ruleset.ladder_rung("Nearly impossible"), "dc", None)


def test_bare_string_naturals_sets_checks_and_saves() -> None:
    """SPEC §10: ``"naturals": "both"`` sets both checks and saves."""
    raw = compat_json("ruleset-5e-2014.example.json")
    raw["resolution"]["naturals"] = "both"
    ruleset = load_ruleset(raw)
    assert ("both", "both") == (ruleset.naturals_for("check"), ruleset.naturals_for("save"))


def test_step_table_modifier_loads() -> None:
    """CHK-COMMON-04: a stepTable ability modifier with ascending thresholds loads."""
    raw = compat_json("ember-roads.json")
    raw["resolution"]["abilityModifier"] = {"op": "stepTable", "table": [[-1, -2], [1, 0], [3, 1]]}
    modifier = load_ruleset(raw).resolution.ability_modifier
    assert StepTableModifier(op="stepTable", table=((-1, -2), (1, 0), (3, 1))) == modifier


def test_typo_key_is_refused_with_its_path() -> None:
    """SHEET-IMPORT-01: an unknown key anywhere refuses the whole file, naming where it is."""
    raw = compat_json("gravewatch.json")
    raw["resolution"]["target"]["defualt"] = 7
    with pytest.raises(RulesetError) as caught:
        load_ruleset(raw)
    assert ["$.resolution.target.defualt"] == [p.path for p in caught.value.problems]


def test_wrong_type_is_refused_with_its_path_and_value() -> None:
    """SHEET-IMPORT-01: a number written as text is a wrong type, not quietly converted."""
    raw = compat_json("ember-roads.json")
    raw["resolution"]["dice"]["count"] = "2"
    problems = validate_ruleset(raw)
    assert ["$.resolution.dice.count"] == [p.path for p in problems]
    assert '(got "2")' in problems[0].message


def test_comment_is_allowed_anywhere_and_schema_at_the_root() -> None:
    """SHEET-FILE-06: ``$comment`` on any object and ``$schema`` at the root are accepted."""
    raw = compat_json("ember-roads.json")
    raw["$schema"] = "https://example.org/ruleset.schema.json"
    raw["resolution"]["dice"]["$comment"] = "two six-sided dice"
    assert [] == validate_ruleset(raw)


def test_file_over_256_kb_is_refused() -> None:
    """SHEET-FILE-06: the whole ruleset file is at most 256 KB."""
    raw = compat_json("ember-roads.json")
    raw["$comment"] = "x" * (256 * 1024)
    assert ["$"] == [p.path for p in validate_ruleset(raw)]


def test_not_json_is_refused_with_line_and_column() -> None:
    """SPEC §8: an unreadable file is one problem at ``$`` that says where the JSON broke."""
    assert [Problem("$", "not valid JSON: Expecting value at line 1 column 8")] == \
        validate_ruleset('{"id": }')


def test_missing_file_is_refused(tmp_path: Path) -> None:
    """SPEC §8: a path that cannot be read is a problem, not a crash."""
    assert ["$"] == [p.path for p in validate_ruleset(f"{tmp_path}/nope.json")]


def test_json_schema_names_every_top_level_key() -> None:
    """``gm-middleware schema``: the generated schema lists the file's keys by their JSON names."""
    schema = ruleset_json_schema()
    keys = set(compat_json("gravewatch.json")) | set(compat_json("ember-roads.json"))
    assert keys <= set(schema["properties"])
    json.dumps(schema)


def test_bundled_rulesets_load() -> None:
    """Every ruleset bundled with the package loads, once (cached)."""
    for ruleset_id in bundled_ids():
        assert load_bundled(ruleset_id) is load_bundled(ruleset_id)


def test_unknown_bundled_id_is_refused() -> None:
    """A transcript naming a ruleset that is not bundled gets a RulesetError naming it."""
    with pytest.raises(RulesetError, match="no bundled ruleset 'nowhere'"):
        load_bundled("nowhere")


def test_source_is_the_file_as_loaded() -> None:
    """A loaded ruleset keeps the file's JSON, so a stored game can load the same rules again."""
    raw = compat_json("gravewatch.json")
    ruleset = load_ruleset(raw)
    assert raw == ruleset.source
    assert ruleset == load_ruleset(ruleset.source)


def _uncommented(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _uncommented(v) for k, v in value.items() if k != "$comment"}
    if isinstance(value, list):
        return [_uncommented(v) for v in value]
    return value
