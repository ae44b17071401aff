"""``gm-middleware serve`` (SPEC §7): its game configuration and its refusals, without serving."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from middleware.cli import app
from middleware.cli.serve import game_config
from tests.rulesets import bundled_path

runner = CliRunner()


def test_a_bundled_ruleset_and_a_party_file_make_the_new_games_config(tmp_path: Path) -> None:
    """The ruleset by bundled id, the party as a transcript's ``party`` (SHEET-TRN), fair dice."""
    party = tmp_path / "party.json"
    party.write_text(json.dumps({"party": [{"name": "Wren", "player": True}]}))
    games = game_config("lantern-and-ledger", party, seed=9, fair_dice=True)
    assert ("lantern-and-ledger", ["Wren"], 9, "turn") == (
        games.ruleset.id, [c.name for c in games.party], games.seed, games.dice)


def test_a_ruleset_file_without_a_party_is_a_game_with_no_one_yet() -> None:
    """A ruleset path works too; no ``--party`` is an empty party."""
    games = game_config(str(bundled_path("hearth-and-haul")), None)
    assert ((), "candidate") == (games.party, games.dice)


def test_a_bad_party_stops_serve_before_it_listens(tmp_path: Path) -> None:
    """A party that fails SHEET-TRN validation is reported and ``serve`` exits 2."""
    party = tmp_path / "party.json"
    party.write_text(json.dumps([{"name": "Wren", "colour": "red"}]))
    result = runner.invoke(app, ["serve", "--ruleset", "lantern-and-ledger", "--party", str(party),
                                 "--upstream", "http://127.0.0.1:9"])
    assert 2 == result.exit_code
    assert "colour" in result.output
