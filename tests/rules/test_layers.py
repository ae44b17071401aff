"""Ruleset layers a game turns on (``rules/layers.py``): what they remove, the ladder they bring,
and which choices are refused (ITM-LOOT-08, ITM-MARKET-13, ITM-MONEY-08, CHK-COMMON-08)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from middleware.engine import Engine
from middleware.errors import GameError, TranscriptError
from middleware.rules.layers import Removed, ladder_of, removed
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState, Stack
from middleware.stores.memory import MemoryStore
from middleware.transcript.replay import prepare, replay
from tests.checks.pool_helpers import WARDEN, member
from tests.conftest import compat_json, compat_path
from tests.rulesets import by_id, five_e, row_path
from tests.rulesets import compat_ruleset as ruleset


def crown_loot() -> Ruleset:
    """Gravewatch whose ``grave_goods`` is one draw of exactly 2 crowns."""
    data = compat_json("gravewatch.json")
    by_id(data["items"]["lootTables"], "grave_goods").update(
        rolls=1, entries=[{"coins": "crown", "weight": 1, "count": 2}])
    return load_ruleset(data)


async def played(rules: Ruleset, reply: str, party: tuple[Character, ...],
                 layers: tuple[str, ...] = ()) -> Any:
    """``reply`` processed as turn 1 of a fresh game with ``layers`` on, faces all 1."""
    engine = Engine(MemoryStore())
    await engine.create_game("c", rules, party, layers=layers)
    return await engine.process("c", 1, reply, seed=1, dice=[1] * 10)


def test_long_night_removes_the_crown() -> None:
    """ITM-LOOT-08 / ITM-GEAR-10: ``currencies.removeUnits`` takes the crown out; no item hidden."""
    assert Removed(coins=frozenset({"crown"})) == removed(ruleset("gravewatch.json"),
                                                           ("long_night",))


def test_hard_winter_hides_the_knacks_that_cost_grit() -> None:
    """ITM-BAG-02: ``hide {filter: grit, above: 0}`` hides exactly the knacks whose Grit is 1."""
    expected = frozenset({"knacks/last-ember", "knacks/coldfire-toss"})
    assert expected == removed(ruleset("ember-roads.json"), ("hard_winter",)).items


def test_no_layer_removes_nothing() -> None:
    assert Removed() == removed(ruleset("gravewatch.json"), ())


async def test_loot_drops_no_crowns_in_the_long_night() -> None:
    """ITM-LOOT-08: a table entry of crowns yields nothing with long_night on; without it, 2."""
    party = (member(WARDEN),)
    reply = '[loot: table="grave_goods"]'
    plain = await played(crown_loot(), reply, party)
    night = await played(crown_loot(), reply, party, ("long_night",))
    assert [Stack(coins="crown", count=2)] == list(plain.state.party[0].bag)
    assert () == night.state.party[0].bag
    assert "nothing dropped" in night.records[0].feedback


async def test_paying_in_crowns_is_refused_in_the_long_night() -> None:
    """ITM-MONEY-08: a coin a layer removed is no coin here (``unknown-coin``); shillings pay."""
    party = (member(WARDEN, bag=[{"coins": "crown", "count": 1}, {"coins": "shilling",
                                                                     "count": 5}]),)
    crowns = await played(ruleset("gravewatch.json"), '[inventory: action="pay" '
                          'amount="1 crown"]', party, ("long_night",))
    shillings = await played(ruleset("gravewatch.json"), '[inventory: action="pay" '
                             'amount="2 shillings"]', party, ("long_night",))
    assert ("refused", "unknown-coin") == (crowns.records[0].status, crowns.records[0].reason)
    assert "resolved" == shillings.records[0].status


async def test_long_night_ladder_sets_a_gravewatch_check() -> None:
    """CHK-COMMON-08, CHK-POOL-16: ``difficulty="Grim"`` needs 4 successes at 9 with long_night
    on (the file's Grim: 3 at 8)."""
    party = (member(WARDEN),)
    reply = '[skill_check: skill="Ward" difficulty="Grim" who="Wren"]'
    plain = await played(ruleset("gravewatch.json"), reply, party)
    night = await played(ruleset("gravewatch.json"), reply, party, ("long_night",))
    assert (3, 8) == (plain.records[0].dc, plain.records[0].threshold)
    assert (4, 9) == (night.records[0].dc, night.records[0].threshold)


def test_hard_winter_ladder_replaces_the_dice_sum_ladder() -> None:
    """CHK-COMMON-08: the layer's ladder is read in the kind's own rung shape."""
    rules = ruleset("ember-roads.json")
    state = GameState(ruleset=rules.id, layers=("hard_winter",))
    assert [7, 9, 11, 13] == [r.dc for r in ladder_of(rules, state.layers)]
    assert rules.resolution.difficulty_ladder == ladder_of(rules, GameState(ruleset=rules.id).layers)


@pytest.mark.parametrize(("layers", "message"), [
    (("midwinter",), "no layer 'midwinter'"),
    (("low_magic", "high_magic"), "conflicts with layer 'low_magic'"),
    (("high_magic", "low_magic"), "conflicts with layer 'high_magic'"),
])
async def test_unknown_and_conflicting_layers_are_refused(layers: tuple[str, ...],
                                                          message: str) -> None:
    """A layer the ruleset lacks, or two that conflict (either side's list), refuse the game."""
    engine = Engine(MemoryStore())
    with pytest.raises(GameError, match=message):
        await engine.create_game("c", ruleset("ruleset-5e-2014.example.json"), layers=layers)


def game_line(layers: list[str]) -> str:
    return json.dumps({"type": "game", "id": "t", "ruleset": str(compat_path("gravewatch.json")),
                       "party": [WARDEN], "options": {"layers": layers}})


async def test_transcript_game_line_turns_layers_on() -> None:
    """``options.layers`` on the game line: the game state carries the layers chosen."""
    lines = [game_line(["long_night"]), json.dumps({"type": "user", "text": "I pay."}),
             json.dumps({"type": "gm", "text": '[inventory: action="pay" amount="1 crown"]'})]
    steps = [step async for step in replay(prepare(lines), Engine(MemoryStore()))]
    done = steps[-1].processed
    assert done is not None
    assert ("long_night",) == done.state.layers
    assert "unknown-coin" == done.records[0].reason


def test_transcript_unknown_layer_names_its_path() -> None:
    with pytest.raises(TranscriptError) as refused:
        prepare([game_line(["long_night", "dawn"])])
    assert (1, "$.options.layers[1]") == (refused.value.line, refused.value.path)


def test_a_layer_takes_an_enum_value_out_of_a_field_while_it_is_on() -> None:
    """SHEET-FLD-06: 5e's low_magic removes ``int`` from ``spellcasting_ability``: a wizard's
    stored value is kept but reads as the field's default (``none``) while the layer is on, so the
    spell save DC loses the Intelligence modifier; without the layer it is 8 + 2 + 3."""
    from middleware.character.check import view_for
    from middleware.state import Character, GameState, Sheet

    rules = five_e()
    wizard = Character(name="Vell", player=True, sheet=Sheet.model_validate(
        {"v": 1, "build": {"abilities": {"int": 16}, "fields": {"spellcasting_ability": "int"}}}))
    plain = GameState(ruleset=rules.id, party=(wizard,))
    low = plain.model_copy(update={"layers": ("low_magic",)})
    assert 13 == view_for(rules, wizard, state=plain).derived("spell_save_dc")
    assert 10 == view_for(rules, wizard, state=low).derived("spell_save_dc")
    assert "none" == view_for(rules, wizard, state=low).enum_value("spellcasting_ability")
    assert "int" == wizard.sheet.build.fields["spellcasting_ability"]


def test_a_layer_may_not_remove_a_value_a_hide_when_compares_with() -> None:
    """SHEET-IMPORT-19: 5e's slots are hidden when ``spellcasting_ability`` is ``none``; a layer
    that removes ``none`` is refused at import, at the value's JSON path."""
    from middleware.rules.load import validate_ruleset
    from tests.conftest import compat_json

    data = compat_json("ruleset-5e-2014.example.json")
    low_magic = by_id(data["layers"], "low_magic")
    by_id(low_magic["fields"], "spellcasting_ability")["removeValues"] = ["int", "none"]
    paths = [p.path for p in validate_ruleset(data)]
    assert [row_path(data, "$.layers[low_magic].fields[spellcasting_ability].removeValues[1]")
            ] == paths
