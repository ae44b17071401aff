"""Rests applied (SHEET-REST-01..09) with item charges (ITM-USE-12..14, ITM-BAG-18), from the
worked examples of sheet.md §23, through the pure function, the ``rest`` event and a transcript."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from middleware.character.check import view_for
from middleware.character.events import apply_event, rest_event
from middleware.character.rest import Rested, find_rest, take_rest
from middleware.dice import Dice
from middleware.engine import Engine
from middleware.errors import GameError
from middleware.rules.load import load_ruleset
from middleware.rules.ruleset import Ruleset
from middleware.state import Character, GameState, Live, PoolValue, Wounds
from middleware.stores.memory import MemoryStore
from middleware.transcript import prepare, replay
from tests.conftest import compat_json, compat_path
from tests.rulesets import compat_ruleset as ruleset
from tests.rulesets import gravewatch, item_of
from tests.sheet.sheet_helpers import BRAM, JUNO


def rest(rules: Ruleset, character: Character, name: str, faces: tuple[int, ...] = ()) -> Rested:
    """Take rest ``name`` with exactly ``faces`` thrown."""
    found = find_rest(rules, name)
    assert found is not None
    dice = Dice(1, script=faces)
    rested = take_rest(rules, character, found, dice)
    assert dice.script_left == 0 and len(dice.thrown) == len(faces)
    return rested


def bram(**changes: Any) -> Character:
    data = copy.deepcopy(BRAM)
    data.update(changes)
    return Character.model_validate(data)


# --- SHEET-TRN-11: Bram the Quiet -------------------------------------------------------------


def test_vigil_from_bram_state() -> None:
    """SHEET-TRN-11, SHEET-REST-03/05/06/07/08/09, ITM-USE-12/14: Resolve to 6, Harm to min (no
    marks), light to lit, Rattled cleared (Marked stays), the Dawn bell full again. Every entry
    back at its default is dropped: the live state is ``{"conditions": ["marked"]}``."""
    rested = rest(gravewatch(), bram(), "vigil")
    assert Live(conditions=("marked",)) == rested.character.live
    assert None is rested.character.bag[0].charges  # full, stored as absent (ITM-USE-09)
    assert ("Stand down from the vigil: Resolve 6/6, Harm 0/5, Light Lit, Dawn bell 3/3 "
            "charges.") == rested.line
    assert ["Dawn bell 3/3 charges"] == [str(r) for r in rested.recharged]


def test_vigil_clears_rattled_but_not_marked() -> None:
    """SHEET-REST-07: ``clear.conditions`` removes only the listed ones, and the line says so."""
    live = copy.deepcopy(BRAM["live"])
    live["conditions"] = ["rattled", "marked"]
    rested = rest(gravewatch(), bram(live=live), "vigil")
    assert ("marked",) == rested.character.live.conditions
    assert "no longer Rattled" in rested.line


def test_breather_from_bram_state() -> None:
    """SHEET-TRN-11, SHEET-REST-05: only the knock clears → marks ``["tear"]``, penalty 0
    (Scuffed); nothing else moves and the bell keeps its 2 charges (vigil is its only rest)."""
    rested = rest(gravewatch(), bram(), "breather")
    live = rested.character.live
    assert Live(pools={"resolve": PoolValue(value=4)}, wounds={"harm": Wounds(marks=("tear",))},
                conditions=("marked",), states={"light": "shuttered"}) == live
    wound = view_for(gravewatch(), rested.character).live.wound("harm")
    assert wound is not None and 0 == wound.penalty
    assert 2 == rested.character.bag[0].charges
    assert "Catch your breath: Harm 1/5." == rested.line


def test_a_rest_is_found_by_label_too() -> None:
    """A rest named by its label (without case) is the same rest."""
    assert "vigil" == getattr(find_rest(gravewatch(), "stand down from the VIGIL"), "id", None)
    assert find_rest(gravewatch(), "nap") is None


# --- SHEET-TRN-15 and the 5e long rest ---------------------------------------------------------


def test_camp_from_juno_state() -> None:
    """SHEET-TRN-15, SHEET-REST-03/04: Grit to 8, Luck +1 → 3, Heat −1 → 1, tricks recharging at
    camp to max (Second Breath recharges at scene: stays 0), stance to steady, Shaken cleared."""
    rested = rest(ruleset("ember-roads.json"), Character.model_validate(JUNO), "camp")
    assert Live.model_validate({
        "pools": {"tricks:second breath": {"value": 0}}, "tracks": {"heat": 1},
        "wounds": {"strain": {"marks": ["strain"]}}}) == rested.character.live
    assert "Make camp: Grit 8/8, Luck 3/3, Heat 1/5, Stance Steady, no longer Shaken." == \
        rested.line


def test_long_rest_at_level_five() -> None:
    """SHEET-REST-02/03/04/07 (5e): hit dice ``by`` max(1, ⌊0.5 × 5⌋) = 2 (1 → 3); hit points and
    the slot group to max; exhaustion −1; death saves to 0; concentration text emptied."""
    rules = ruleset("ruleset-5e-2014.example.json")
    vess = Character.model_validate({
        "name": "Vess", "sheet": {"v": 1, "build": {"fields": {
            "level": 5, "hp_max": 40, "spellcasting_ability": "int", "slots_max_1": 4}}},
        "live": {"pools": {"hp": {"value": 10, "temp": 3}, "hit_dice": {"value": 1},
                           "slots_1": {"value": 0}},
                 "tracks": {"exhaustion": 2, "death_save_failures": 2},
                 "text": {"concentration": "Bless"}}})
    rested = rest(rules, vess, "long")
    assert Live.model_validate({"pools": {"hp": {"value": 40, "temp": 3},
                                          "hit_dice": {"value": 3}},
                                "tracks": {"exhaustion": 1}}) == rested.character.live


# --- wound-track steps and recharges (SHEET-REST-05, ITM-USE-12) -------------------------------


def with_rests(rests: list[dict[str, Any]], **item_changes: Any) -> Ruleset:
    """Gravewatch with its rests replaced (and the Dawn bell's ``charges`` changed)."""
    data = compat_json("gravewatch.json")
    data["rests"] = rests
    item_of(data, "kit/dawn-bell")["charges"].update(item_changes)
    return load_ruleset(data)


def test_a_negative_by_heals_overflow_first_and_a_positive_by_is_skipped() -> None:
    """SHEET-REST-05 / SHEET-WND-10: ``by −2`` clears the overflow point, then the lightest mark
    (the knock); ``by +1`` would add marks and is skipped silently."""
    rules = with_rests([{"id": "mend", "label": "Mend", "restore": [
        {"track": "harm", "by": {"const": -2}}, {"track": "harm", "by": {"const": 1}}]}])
    live = {"wounds": {"harm": {"marks": ["tear", "knock"], "overflow": 1}}}
    rested = rest(rules, bram(live=live), "mend")
    assert {"harm": Wounds(marks=("tear",))} == rested.character.live.wounds
    assert "Mend: Harm 1/5." == rested.line


def test_a_recharge_amount_is_thrown_and_never_above_max() -> None:
    """ITM-USE-12: ``{dice: 1d6}`` restores what it throws, held to ``max``: 1 → 2 on a 1, and a
    6 fills the bell (3 of 3, stored as full)."""
    rules = with_rests([{"id": "vigil", "label": "Vigil", "restore": []}],
                       recharge={"rests": ["vigil"], "amount": {"dice": "1d6"}})
    bag = copy.deepcopy(BRAM["bag"])
    bag[0]["charges"] = 1
    assert 2 == rest(rules, bram(bag=bag), "vigil", (1,)).character.bag[0].charges
    full = rest(rules, bram(bag=bag), "vigil", (6,))
    assert None is full.character.bag[0].charges
    assert "Vigil: Dawn bell 3/3 charges." == full.line


# --- the rest event, Engine.event and a transcript (SPEC §4) -----------------------------------


def test_the_rest_event_changes_only_the_resting_member() -> None:
    """SPEC §4: ``{"type": "rest", "who": ..., "rest": ...}`` rests one member; sheet and bag
    change together (ITM-BAG-18); the others are untouched."""
    other = Character(name="Ada")
    state = GameState(ruleset="gravewatch", party=(bram(), other))
    after = apply_event(gravewatch(), state, {"type": "rest", "who": "Bram the Quiet",
                                              "rest": "vigil"})
    assert Live(conditions=("marked",)) == after.party[0].live
    assert None is after.party[0].bag[0].charges
    assert other == after.party[1]


def test_a_rest_the_ruleset_lacks_or_a_stranger_is_an_error() -> None:
    """SPEC §4: an event that cannot apply is refused with a clear message."""
    state = GameState(ruleset="gravewatch", party=(bram(),))
    with pytest.raises(GameError, match="no rest 'nap'"):
        rest_event(gravewatch(), state, "Bram the Quiet", "nap")
    with pytest.raises(GameError, match="'Mira' is not exactly one party member"):
        rest_event(gravewatch(), state, "Mira", "vigil")


async def test_a_rest_between_turns_through_the_engine() -> None:
    """ITM-USE-13, SPEC §3/§4: a rest after turn 1 recharges once; the next turn starts from it,
    and reading the state again does not rest twice."""
    engine = Engine(MemoryStore())
    await engine.create_game("dawn", gravewatch(), [bram()], seed=5)
    await engine.process("dawn", 1, 'He rings it. [inventory: action="use" item="Dawn bell"]')
    after = await engine.event("dawn", 1, {"type": "rest", "who": "Bram the Quiet", "rest": "vigil"})
    assert None is after.party[0].bag[0].charges
    again = await engine.state("dawn", 1)
    assert after == again
    done = await engine.process("dawn", 2, '[inventory: action="use" item="Dawn bell"]')
    assert 2 == done.state.party[0].bag[0].charges


async def test_a_rest_in_a_transcript(tmp_path: Path) -> None:
    """SPEC §4: a transcript's ``rest`` line recharges the bell the next reply rings."""
    lines = [
        {"type": "game", "id": "vigil-demo", "ruleset": str(compat_path("gravewatch.json")),
         "seed": 1, "party": [BRAM]},
        {"type": "user", "text": "I ring the bell."},
        {"type": "gm", "text": '[inventory: action="use" item="Dawn bell"]',
         "expect": {"records": [{"tag": "inventory", "status": "resolved", "action": "use"}]}},
        {"type": "rest", "who": "Bram the Quiet", "rest": "vigil"},
        {"type": "user", "text": "Again, after the vigil."},
        {"type": "gm", "text": '[inventory: action="use" item="Dawn bell"]',
         "expect": {"records": [{"note": (
             "Bram the Quiet uses Dawn bell: it hits nobody outside a fight (use (Act): Steel 7 "
             "save negates it, Rattled, 1 of 3 charges). 2 of 3 charges left.")}]}},
    ]
    path = tmp_path / "vigil.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    prepared = prepare(path.read_text(encoding="utf-8").splitlines(), base=tmp_path)
    steps = [step async for step in replay(prepared, Engine(MemoryStore()))]
    gm = [step for step in steps if step.kind == "gm"]
    notes = [step.processed.records[0].model_dump()["note"] for step in gm if step.processed]
    assert notes[0].endswith("1 of 3 charges left.")
    assert notes[1].endswith("2 of 3 charges left.")
