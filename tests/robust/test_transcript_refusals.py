"""Transcripts and rulesets that must be refused are (issue 16 #7, SPEC §4, §5, §8).

A second ``game`` line was ignored; scripted dice outside the die gave an ``internal-error``
record and exit 0; duplicate catalog ids and duplicate entry ids in a catalog were accepted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from middleware.cli.app import app
from middleware.rules.load import validate_ruleset
from tests.conftest import ROOT
from tests.rulesets import bundled_json

runner = CliRunner()
DEMO = ROOT / "transcripts" / "lantern-demo.jsonl"


def demo_with(tmp_path: Path, at: int, line: str) -> Path:
    """The lantern demo with ``line`` put in at index ``at`` (0 is the game line)."""
    lines = DEMO.read_text().splitlines()
    lines.insert(at, line)
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines))
    return path


def test_a_second_game_line_is_refused(tmp_path: Path) -> None:
    """SPEC §4: the game line is the first line and the only one; a second stops the replay
    with its line number (exit 2) before anything is stored or printed."""
    game = DEMO.read_text().splitlines()[0]
    result = runner.invoke(app, ["replay", str(demo_with(tmp_path, 3, game)), "--json"])
    assert (2, "") == (result.exit_code, result.stdout)
    assert "line 4" in result.stderr and "second 'game' line" in result.stderr


@pytest.mark.parametrize(("dice", "said"), [([0, 99], "line 3 at $.dice[0]"),
                                            ([4, 99], "scripted throw 2 is 99, outside a d6")])
def test_scripted_dice_outside_the_die_are_refused(tmp_path: Path, dice: list[int],
                                                   said: str) -> None:
    """SPEC §5: a face below 1 is refused as the line is read; a face past the die it is
    thrown for (a d6 of Lantern and Ledger) stops the replay naming the throw; exit 2, and the
    JSON output shows no line of the replay."""
    gm = json.dumps({"type": "gm", "text": '[skill_check: skill="Climb" dc="7"]', "dice": dice})
    path = demo_with(tmp_path, 2, gm)
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert 2 == result.exit_code, result.output
    assert said in result.stderr


def test_a_scripted_face_past_its_die_is_named_without_a_traceback(tmp_path: Path) -> None:
    """SPEC §5, §8: a face past its die is the transcript's fault, not a bug of the engine: the
    replay names the throw, and the log says it in one line (it logged ``resolver-error`` with
    the Python traceback of the ``DiceError``, before the one line naming it)."""
    gm = json.dumps({"type": "gm", "text": '[skill_check: skill="Climb" dc="7"]', "dice": [7]})
    result = runner.invoke(app, ["replay", str(demo_with(tmp_path, 2, gm)), "--json"])
    assert 2 == result.exit_code, result.output
    assert "Traceback" not in result.stderr and '"event":"dice-error"' in result.stderr
    assert "line 3 at $.dice: scripted throw 1 is 7, outside a d6" in result.stderr


@pytest.mark.parametrize("at", [1, 2])
def test_a_select_past_64_bits_is_refused_naming_its_line(tmp_path: Path, at: int) -> None:
    """A ``select`` of candidate 10**30, before the first turn or after one, stops the replay at
    its line, exit 2 (SQLite's ``OverflowError`` escaped as a traceback, exit 1)."""
    select = json.dumps({"type": "select", "candidate": 10**30})
    result = runner.invoke(app, ["replay", str(demo_with(tmp_path, at + 1, select)), "--json"])
    assert (2, True) == (result.exit_code, isinstance(result.exception, SystemExit))
    assert f"line {at + 2}" in result.stderr and "candidate" in result.stderr


def test_an_inline_ruleset_with_a_price_past_64_bits_is_refused(tmp_path: Path) -> None:
    """SPEC §4, §8: a ruleset given inline whose flask of oil costs 2**64 is refused at its
    line, exit 2 (it loaded, and creating the game raised orjson's ``TypeError``: a traceback)."""
    lines = DEMO.read_text().splitlines()
    game = json.loads(lines[0])
    ruleset = bundled_json("lantern-and-ledger")
    ruleset["catalogs"][0]["entries"][0]["item"]["cost"]["amount"] = 2**64
    lines[0] = json.dumps({**game, "ruleset": ruleset})
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines))
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert (2, True) == (result.exit_code, isinstance(result.exception, SystemExit))
    assert "line 1 at $.ruleset" in result.stderr
    assert "$.catalogs[0].entries[0].item.cost.amount: a whole number must be within 64 bits" \
        in result.stderr


def test_duplicate_catalog_ids_are_refused_with_their_path() -> None:
    """A second catalog named like the first: refused at ``$.catalogs[N].id``."""
    data = bundled_json("brass-fair")
    data["catalogs"].append(dict(data["catalogs"][0]))
    last = len(data["catalogs"]) - 1
    assert [f"$.catalogs[{last}].id"] == [p.path for p in validate_ruleset(data)]


def test_duplicate_entry_ids_in_a_catalog_are_refused_with_their_path() -> None:
    """Two entries of one catalog with one id: refused at ``$.catalogs[C].entries[E].id``."""
    data = bundled_json("brass-fair")
    c, catalog = next((i, c) for i, c in enumerate(data["catalogs"]) if len(c["entries"]) > 1)
    catalog["entries"][1] = {**catalog["entries"][1], "id": catalog["entries"][0]["id"]}
    paths = [p.path for p in validate_ruleset(data)]
    assert f"$.catalogs[{c}].entries[1].id" in paths
