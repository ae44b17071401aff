"""Tags resolve in reading order (SPEC §3, SHEET-CHK-08): a check after ``[sheet: op="damage"]``
in the same reply reads the new wound penalty, in the reply, in ``gm-middleware odds``, in the
replay's check cards and in the ``--json`` state summary."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from middleware.character.summary import state_summary
from middleware.cli import app
from middleware.resolve.checks.chance import check_chance
from middleware.resolve.sheet import chance_after_sheet
from tests.conftest import compat_path
from tests.sheet.sheet_helpers import BRAM
from tests.sheet_tag.helpers import WREN, gravewatch_state, lantern_state, run

runner = CliRunner()
CLIMB = '[skill_check: skill="Climb" dc="7"]'
CUT = '[sheet: op="damage" track="harm" kind="cut" amount="1"]'


def test_a_check_after_damage_reads_the_new_penalty() -> None:
    """SHEET-PEN-01/05, SHEET-CHK-08: Wren's Climb before a cut carries penalty -1 (Hurt), after it
    -2 (Badly hurt): the same faces (3, 3 + Hand 1 + Apprentice 1) make 7 and then 6."""
    rules, state = lantern_state()
    done = run(rules, state, f"{CLIMB} She slips. {CUT} {CLIMB}", 3, 3, 3, 3)
    before, _, after = (r.model_dump() for r in done.records)
    assert (-1, 7, True) == (before["penalty"], before["total"], before["success"])
    assert (-2, 6, False) == (after["penalty"], after["total"], after["success"])


def test_a_check_before_damage_is_not_changed_by_it() -> None:
    """SPEC §3: a tag sees only what the earlier ones did."""
    rules, state = gravewatch_state()
    done = run(rules, state, '[skill_check: skill="Ward" dc="2"] '
               '[sheet: op="damage" track="harm" kind="tear" amount="2"]', *[8] * 10)
    assert -1 == done.records[0].model_dump()["penalty"]


def test_a_rest_before_a_check_lifts_the_penalty() -> None:
    """SHEET-REST-05: after the vigil (Harm cleared) Bram's Ward has no penalty."""
    rules, state = gravewatch_state()
    done = run(rules, state, '[sheet: op="rest" rest="vigil"] [skill_check: skill="Ward" dc="2"]',
               *[8] * 10)
    assert done.records[1].model_dump()["penalty"] is None


def test_odds_after_damage_use_the_new_penalty() -> None:
    """SPEC §6 chance: the odds of Wren's Climb with the cut written before it are the odds at
    -2: 2d6 + 2 - 2 >= 7 is 21/36; without it (-1) 26/36."""
    rules, state = lantern_state()
    assert 26 / 36 == float(check_chance(rules, state, CLIMB).success)  # type: ignore[union-attr]
    after = chance_after_sheet(rules, state, f"{CUT} {CLIMB}").odds
    assert after is not None and 21 / 36 == float(after.success)


def test_odds_command_after_damage(tmp_path: Path) -> None:
    """``gm-middleware odds`` with a [sheet:] tag before the check: Bram's Ward after three tears
    reads Down (-99) and throws the one die pool.min leaves: the chance printed is the chance of
    a Bram whose live state already holds those marks, far below the unhurt chance."""
    party = tmp_path / "party.json"
    party.write_text(json.dumps({"party": [BRAM]}), encoding="utf-8")
    rules, marked = gravewatch_state(**(BRAM["live"] | {"wounds": {"harm": {
        "marks": ["tear", "tear", "tear", "tear", "knock"]}}}))
    ward = '[skill_check: skill="Ward" dc="2"]'
    plain = runner.invoke(app, ["odds", str(compat_path("gravewatch.json")), "--check", ward,
                                "--party", str(party), "--json"])
    hurt = runner.invoke(app, ["odds", str(compat_path("gravewatch.json")), "--check",
                               f'[sheet: op="damage" track="harm" kind="tear" amount="3"] {ward}',
                               "--party", str(party), "--json"])
    assert (0, 0) == (plain.exit_code, hurt.exit_code), plain.output + hurt.output
    down = check_chance(rules, marked, ward)
    assert down is not None and float(down.success) == json.loads(hurt.stdout)["success"]
    assert json.loads(hurt.stdout)["success"] < 0.1 < json.loads(plain.stdout)["success"]


def _transcript(tmp_path: Path) -> Path:
    lines = [
        {"type": "game", "id": "cut", "ruleset": "lantern-and-ledger", "seed": 1, "party": [WREN]},
        {"type": "user", "text": "I climb."},
        {"type": "gm", "text": f"{CLIMB} The rope burns. {CUT} {CLIMB} [dice: 1d6]",
         "dice": [3, 3, 3, 3, 5],
         "expect": {"records": [{"penalty": -1}, {"tag": "sheet", "status": "resolved"},
                                {"penalty": -2}, {"tag": "dice", "total": 5}],
                    "state": {"party": {"Wren Ashby": {
                        "tracks": {"harm": 3},
                        "wounds": {"harm": {"marks": ["cut", "cut", "bruise"], "penalty": -2}},
                        "states": {"lamp": "hooded"}, "conditions": []}}}}},
    ]
    path = tmp_path / "cut.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_replay_cards_show_the_check_after_damage_with_its_penalty(tmp_path: Path) -> None:
    """The replay's check cards: the first Climb card shows penalty=-1, the one after the cut
    penalty=-2; the sheet and dice tags get cards of their own."""
    result = runner.invoke(app, ["replay", str(_transcript(tmp_path))])
    assert 0 == result.exit_code, result.output
    out = result.stdout
    assert out.index("penalty=-1") < out.index("sheet · damage") < out.index("penalty=-2")
    assert "dice · 1d6" in out


def test_replay_json_state_shows_tracks_conditions_and_states(tmp_path: Path) -> None:
    """SPEC §7 --json: the state summary after the candidate carries tracks, wounds, conditions
    and states beside pools (the transcript's own expect checks them too)."""
    result = runner.invoke(app, ["replay", str(_transcript(tmp_path)), "--json"])
    assert 0 == result.exit_code, result.output
    wren = json.loads(result.stdout.splitlines()[0])["state"]["party"]["Wren Ashby"]
    assert {"tracks": {"harm": 3}, "conditions": [], "states": {"lamp": "hooded"},
            "wounds": {"harm": {"marks": ["cut", "cut", "bruise"], "overflow": 0,
                                "penalty": -2}}}.items() <= wren.items()


def test_summary_of_a_peer_character() -> None:
    """SHEET-LIVE-08/10/12: Juno's summary reads Heat 2, Strain one box, Shaken, stance reckless."""
    from tests.sheet_tag.helpers import ember_state

    rules, state = ember_state()
    juno = state_summary(rules, state)["party"]["Juno"]
    assert ({"heat": 2, "strain": 1}, ["shaken"], {"stance": "reckless"}) == (
        juno["tracks"], juno["conditions"], juno["states"])
