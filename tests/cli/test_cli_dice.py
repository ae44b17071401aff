"""``gm-middleware odds`` and ``gm-middleware roll`` as a user runs them (SPEC §5, §7, CHK-SYM-19)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from middleware.cli import app
from middleware.dice import Dice
from middleware.parse import parse
from middleware.resolve import Context
from middleware.resolve.checks import KINDS, resolve_check
from middleware.resolve.checks.chance import check_chance
from middleware.rules.load import load_ruleset
from middleware.rules.registry import load_bundled
from middleware.segments import Tag
from middleware.sheet.party import read_party
from middleware.state import GameState
from tests.conftest import compat_path
from tests.rulesets import ember, gravewatch
from tests.sheet.sheet_helpers import BRAM

runner = CliRunner()
GRAVEWATCH = str(compat_path("gravewatch.json"))
EMBER = str(compat_path("ember-roads.json"))


def party_file(tmp_path: Path) -> Path:
    path = tmp_path / "party.json"
    path.write_text(json.dumps({"party": [BRAM]}), encoding="utf-8")
    return path


def test_odds_json_gives_the_exact_chance_of_a_sum_check() -> None:
    """SPEC §5: 2d6 + 0 against 10 on Ember Roads succeeds 6 times in 36."""
    result = runner.invoke(app, ["odds", EMBER, "--check", '[skill_check: skill="Scrap" dc="10"]',
                                 "--json"])
    assert 0 == result.exit_code, result.output
    answer = json.loads(result.stdout)
    assert ("Scrap", "dice-sum", 6 / 36, []) == (
        answer["skill"], answer["kind"], answer["success"], answer["tiers"])


def test_odds_for_a_party_member_match_what_the_engine_writes(tmp_path: Path) -> None:
    """CHK-POOL, CHK-SPEND: Bram's Ward check with a point of Resolve, as the engine rolls it;
    the CLI prints the same chance the API gives."""
    ruleset = gravewatch()
    state = GameState(ruleset=str(ruleset.id), party=read_party(ruleset, [BRAM]))
    tag = '[skill_check: skill="Ward" dc="2" spend="resolve:1"]'
    odds = check_chance(ruleset, state, tag)
    result = runner.invoke(app, ["odds", GRAVEWATCH, "--check", tag,
                                 "--party", str(party_file(tmp_path)), "--json"])
    assert 0 == result.exit_code, result.output
    assert odds is not None
    assert float(odds.success) == json.loads(result.stdout)["success"]
    plain = check_chance(ruleset, state, '[skill_check: skill="Ward" dc="2"]')
    assert plain is not None and plain.success < odds.success


def test_odds_table_names_each_tier(tmp_path: Path) -> None:
    """CHK-OUT-13: the table lists the success chance and every tier by its label."""
    raw = json.loads(Path(EMBER).read_text(encoding="utf-8"))
    raw["resolution"]["outcomes"] = {"tiers": [
        {"id": "great", "label": "Great", "atLeast": 3, "success": True},
        {"id": "ok", "label": "Made it", "atLeast": 0, "success": True},
        {"id": "miss", "label": "Missed"}]}
    path = tmp_path / "tiered.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    result = runner.invoke(app, ["odds", str(path), "--check", 'skill="Scrap" dc="10"'])
    assert 0 == result.exit_code, result.output
    assert all(word in result.stdout for word in ("success", "Great", "Made it", "Missed",
                                                  "16.67%", "83.33%"))


def test_odds_who_option_rolls_for_that_character(tmp_path: Path) -> None:
    """SHEET-CHK-02: ``--who`` names the roller; a stranger rolls with no sheet number."""
    args = ["odds", GRAVEWATCH, "--check", 'skill="Ward" dc="2"', "--party",
            str(party_file(tmp_path)), "--json"]
    bram = json.loads(runner.invoke(app, [*args, "--who", "Bram the Quiet"]).stdout)
    stranger = json.loads(runner.invoke(app, [*args, "--who", "Nobody"]).stdout)
    assert ("Bram the Quiet", "Nobody") == (bram["who"], stranger["who"])
    assert bram["success"] > stranger["success"]


def test_odds_without_a_skill_is_an_error() -> None:
    """A check that names no skill cannot be worked out: exit 2, nothing on stdout."""
    result = runner.invoke(app, ["odds", EMBER, "--check", '[skill_check: dc="10"]'])
    assert (2, "") == (result.exit_code, result.stdout)


def test_check_chance_reads_attributes_too() -> None:
    """The API takes the tag's attributes as a mapping as well as its text."""
    ruleset = ember()
    odds = check_chance(ruleset, None, {"Skill": "Scrap", "dc": "10"})
    assert odds is not None and Fraction(6, 36) == odds.success


def test_roll_names_symbol_dice_and_is_repeatable_with_a_seed() -> None:
    """CHK-SYM-19: ``roll`` throws named dice; the same seed throws the same faces."""
    args = ["roll", "far-signal", "2 tuned 1 honed vs 2 static", "--seed", "7", "--json"]
    first, again = runner.invoke(app, args), runner.invoke(app, args)
    assert 0 == first.exit_code, first.output
    answer = json.loads(first.stdout)
    assert first.stdout == again.stdout
    assert (["tuned", "tuned", "honed", "static", "static"],
            ["roller", "roller", "roller", "opposing", "opposing"]) == (
        [d["die"] for d in answer["dice"]], [d["side"] for d in answer["dice"]])


def test_roll_refuses_unknown_dice_and_rulesets_without_symbols() -> None:
    """CHK-SYM-19: an unknown die or a ruleset with no symbol dice exits 1 with the reason."""
    unknown = runner.invoke(app, ["roll", "far-signal", "2 banana", "--seed", "1", "--json"])
    no_symbols = runner.invoke(app, ["roll", EMBER, "1 ability", "--seed", "1", "--json"])
    assert (1, "unknown-die") == (unknown.exit_code, json.loads(unknown.stdout)["error"])
    assert (1, "not-symbol-pool") == (no_symbols.exit_code,
                                      json.loads(no_symbols.stdout)["error"])


KIND_CHECKS = {
    "dice-sum": ("ember-roads.json", '[skill_check: skill="Scrap" dc="9"]'),
    "dice-pool": ("gravewatch.json", '[skill_check: skill="Ward" difficulty="Grim" '
                                     'reroll="careful"]'),
    "dice-highest": ("long-shadow", '[skill_check: skill="Scout" dc="4"]'),
    "roll-against": ("dim-archive", '[skill_check: skill="Catalogue Lore"]'),
    "symbol-pool": ("far-signal", '[skill_check: skill="Tune" dc="2"]'),
}


def test_every_kind_has_odds_equal_to_the_chance_the_engine_writes() -> None:
    """SPEC §5/§6: for each kind in ``KINDS``, ``check_chance`` is the record's ``chance``."""
    assert set(KINDS) == set(KIND_CHECKS)
    for kind, (name, text) in KIND_CHECKS.items():
        ruleset = load_ruleset(compat_path(name)) if name.endswith(".json") else \
            load_bundled(name)
        state = GameState(ruleset=str(ruleset.id))
        tag = next(s for s in parse(text) if isinstance(s, Tag))
        record = resolve_check(tag, state, Context(ruleset=ruleset, dice=Dice(3))).record
        odds = check_chance(ruleset, state, text)
        assert (kind, record.chance) == (kind, None if odds is None else float(odds.success))


def test_odds_shows_a_skill_and_a_ruleset_as_written_whatever_brackets_they_hold() -> None:
    """A check on a skill named ``[/red]`` gets its table, and a ruleset named ``[/red]`` its
    one-line refusal, exit 2 (both were read as rich markup: ``MarkupError``, a traceback)."""
    check = '[skill_check: skill="[/red]" dc="7"]'
    result = runner.invoke(app, ["odds", "lantern-and-ledger", "--check", check])
    assert (0, None) == (result.exit_code, result.exception)
    assert "[/red]" in result.stdout and "success" in result.stdout
    result = runner.invoke(app, ["odds", "[/red]", "--check", check])
    assert (2, True) == (result.exit_code, isinstance(result.exception, SystemExit))
    assert result.stderr.startswith("✗ ") and "[/red]" in result.stderr


def test_odds_with_a_party_file_without_a_party_says_so(tmp_path: Path) -> None:
    """A party file that is an object without ``party`` is refused in one line, exit 2 (it
    raised ``KeyError``: a traceback)."""
    path = tmp_path / "party.json"
    path.write_text(json.dumps({"members": [BRAM]}), encoding="utf-8")
    result = runner.invoke(app, ["odds", GRAVEWATCH, "--check", '[skill_check: skill="Ward"]',
                                 "--party", str(path)])
    assert (2, True) == (result.exit_code, isinstance(result.exception, SystemExit))
    assert "✗ " in result.stderr and "party must be a list" in result.stderr
