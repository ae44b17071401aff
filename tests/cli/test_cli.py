"""The ``gm-middleware`` command as a user runs it: replay, validate, schema (SPEC §7)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from middleware.cli import app
from middleware.cli import replay as replay_command
from tests.conftest import ROOT, compat_json, compat_path
from tests.rulesets import bundled_json, by_id, row_path

runner = CliRunner()
DEMO = ROOT / "transcripts" / "lantern-demo.jsonl"


def gm_lines(path: Path) -> int:
    return sum(1 for line in path.read_text().splitlines()
               if line.strip() and json.loads(line)["type"] == "gm")


def test_replay_json_prints_one_object_per_gm_line_and_nothing_else() -> None:
    """SPEC §7: ``--json`` is JSON Lines with exactly turn, candidate, text, records, state."""
    result = runner.invoke(app, ["replay", str(DEMO), "--json"])
    assert 0 == result.exit_code, result.output
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert gm_lines(DEMO) == len(objects)
    assert all({"turn", "candidate", "text", "records", "state"} == set(o) for o in objects)
    assert {"place", "party"} == set(objects[0]["state"])


def test_replay_prints_the_chat_with_a_card_per_tag() -> None:
    """The human output shows the player's lines, the rewritten replies and the check cards."""
    result = runner.invoke(app, ["replay", str(DEMO)])
    assert 0 == result.exit_code, result.output
    assert "Player:" in result.stdout and "[skill_check: skill=" in result.stdout
    assert "to succeed" in result.stdout


def test_a_check_all_but_sure_to_fail_is_shown_without_a_false_zero(tmp_path: Path) -> None:
    """A one-die Cinder Watch pool needing 12 successes (the tag says ``chance="<0.0001"``): its
    card shows the chance as under 0.1%, neither a false 0% nor a crash on the tag's text."""
    transcript = tmp_path / "pool.jsonl"
    transcript.write_text("\n".join(json.dumps(line) for line in [
        {"type": "game", "id": "g", "ruleset": "cinder-watch", "seed": 5,
         "party": [{"name": "Ada", "player": True}]},
        {"type": "user", "text": "I look."},
        {"type": "gm", "text": 'She looks. [skill_check: skill="Reckon" dc="12"]'}]))
    result = runner.invoke(app, ["replay", str(transcript)])
    assert 0 == result.exit_code, result.output
    assert 'chance="<0.0001"' in result.stdout
    assert "<0.1% to succeed" in result.stdout


def test_a_failed_expectation_exits_non_zero_with_a_readable_diff(tmp_path: Path) -> None:
    """SPEC §4: a transcript whose ``expect`` fails names the line and the difference."""
    lines = DEMO.read_text().splitlines()
    for number, line in enumerate(lines):
        data = json.loads(line)
        if data["type"] == "gm":
            data["expect"] = {"records": [{"status": "resolved", "total": 99}]}
            lines[number] = json.dumps(data)
            break
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines))
    result = runner.invoke(app, ["replay", str(broken)])
    assert 1 == result.exit_code
    assert f"line {number + 1}" in result.stderr
    assert "$.records[0].total: want 99, got" in result.stderr


def test_a_malformed_line_stops_with_its_number(tmp_path: Path) -> None:
    """SPEC §4: an unknown key is an error naming the line and the JSON path."""
    lines = DEMO.read_text().splitlines()
    lines.insert(2, json.dumps({"type": "user", "text": "hi", "mood": "grim"}))
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines))
    result = runner.invoke(app, ["replay", str(bad), "--json"])
    assert 2 == result.exit_code
    assert "line 3 at $.mood" in result.stderr
    assert "" == result.stdout


def test_validate_accepts_a_good_ruleset() -> None:
    """``validate`` says a compat file is valid and exits 0."""
    result = runner.invoke(app, ["validate", str(compat_path("gravewatch.json"))])
    assert 0 == result.exit_code
    assert "valid" in result.stdout


def test_validate_lists_every_problem_with_its_json_path(tmp_path: Path) -> None:
    """SPEC §8: a bad ruleset is refused whole with every problem and its JSON path."""
    data = compat_json("ember-roads.json")
    data["resolution"]["dice"]["sidez"] = 6
    by_id(data["sheet"]["abilities"], "brawn")["default"] = "high"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = runner.invoke(app, ["validate", str(bad)])
    assert 1 == result.exit_code
    assert "$.resolution.dice.sidez" in result.stdout
    assert row_path(data, "$.sheet.abilities[brawn].default") in result.stdout


def test_schema_prints_the_json_schema_of_the_ruleset_models() -> None:
    """``schema`` prints a JSON Schema whose properties are the file's own keys."""
    result = runner.invoke(app, ["schema"])
    assert 0 == result.exit_code
    schema = json.loads(result.stdout)
    assert {"resolution", "sheet", "schemaVersion"} <= set(schema["properties"])


def test_a_long_replay_shows_a_progress_bar_and_keeps_stdout_clean(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long transcript draws a progress bar on the terminal's stderr, while ``--json`` still
    prints exactly one object per ``gm`` line on stdout (nothing of the bar mixed in)."""
    from tests.benchmarks.test_replay_bench import transcript_lines

    long = tmp_path / "long.jsonl"
    long.write_text("\n".join(transcript_lines(150)))
    screen = io.StringIO()
    monkeypatch.setattr(replay_command, "err", Console(file=screen, force_terminal=True, width=80))
    result = runner.invoke(app, ["replay", str(long), "--json"])
    assert 0 == result.exit_code, result.output
    assert 150 == len([json.loads(line) for line in result.stdout.splitlines()])
    assert "replaying" in screen.getvalue()


def test_a_failed_expectation_on_a_branch_block_shows_its_markers_as_written(
        tmp_path: Path) -> None:
    """An ``expect`` that fails on a reply with a branch block prints the diff with the block's
    ``[/branch]`` as the reply has it, exit 1 (the marker was read as rich markup: a closing
    tag with nothing open, and the replay died with ``MarkupError``)."""
    transcript = tmp_path / "branch.jsonl"
    transcript.write_text("\n".join(json.dumps(line) for line in [
        {"type": "game", "id": "g", "ruleset": "lantern-and-ledger", "seed": 5,
         "options": {"branches": True}, "party": [{"name": "Wren", "player": True}]},
        {"type": "user", "text": "I climb."},
        {"type": "gm", "text": "Up [on success] she goes [/branch] and on.",
         "expect": {"text": "Down [on success] she goes [/branch] and on."}}]))
    result = runner.invoke(app, ["replay", str(transcript)])
    assert (1, None) == (result.exit_code, _escaped(result))
    assert "line 3: expectation failed" in result.stderr
    assert "want …'Down [on success] she goes [/branch] and on.'" in result.stderr


def test_a_malformed_line_is_named_as_written_whatever_brackets_it_holds(tmp_path: Path) -> None:
    """A ``ruleset`` named ``[/red]`` is refused with its name as written, exit 2 (it was read
    as rich markup and the replay died with ``MarkupError``)."""
    lines = DEMO.read_text().splitlines()
    game = json.loads(lines[0])
    lines[0] = json.dumps({**game, "ruleset": "[/red]"})
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines))
    result = runner.invoke(app, ["replay", str(bad)])
    assert (2, None) == (result.exit_code, _escaped(result))
    assert "line 1 at $.ruleset: ruleset '[/red]' is neither bundled" in result.stderr


def test_could_not_read_is_one_plain_line(tmp_path: Path) -> None:
    """Exit 3's message is the line as a person reads it, without rich's style tags spelled out
    (it printed ``[red]✗ …[/red]`` literally)."""
    bad = tmp_path / "bad.jsonl"
    bad.write_text(DEMO.read_text().splitlines()[0] + "\n{not json\n")
    result = runner.invoke(app, ["replay", str(bad)])
    assert 3 == result.exit_code
    assert f"✗ {bad}: could not read: line 2: not JSON" in result.stderr
    assert "[red]" not in result.stderr and "[/red]" not in result.stderr


def _escaped(result: Result) -> BaseException | None:
    """The exception that escaped the command, if any but the exit."""
    return None if isinstance(result.exception, SystemExit) else result.exception


@pytest.mark.parametrize("source", ["lantern-and-ledger", "bad"])
def test_validate_names_a_file_whose_path_holds_brackets(tmp_path: Path, source: str) -> None:
    """A ruleset in a folder named ``[`` (its path holds ``[/x]``) is judged and named as
    written (the path was read as rich markup: ``MarkupError``, exit 1 for a valid file)."""
    path = tmp_path / "[" / "x].json"
    path.parent.mkdir()
    data = bundled_json(source) if source != "bad" else {"id": "x"}
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["validate", str(path)])
    assert None is _escaped(result)
    if source == "bad":
        assert (1, f"✗ {path}: ") == (result.exit_code, result.stderr[:len(str(path)) + 4])
    else:
        assert (0, f"✓ {path} is a valid ruleset\n") == (result.exit_code, result.stdout)


ACCENTED = [
    {"type": "game", "id": "été", "ruleset": "lantern-and-ledger", "seed": 1,
     "party": [{"name": "Ada", "player": True}]},
    {"type": "user", "text": "Où est-il ?"},
    {"type": "gm", "text": "Été\u2028il pleut.\u0085 [skill_check: skill=\"Reckon\" dc=\"6\"]"}]


@pytest.mark.parametrize("as_json", [False, True], ids=["cards", "json"])
def test_replay_prints_a_game_in_any_language_on_an_ascii_console(tmp_path: Path,
                                                                  as_json: bool) -> None:
    """The installed command on a console that only takes ASCII (``PYTHONIOENCODING=ascii``, as a
    Windows or ``C``-locale terminal can be): a reply in French replays with exit 0 and no
    traceback. ``--json`` is ASCII and one line per reply, even with U+2028 and U+0085 in the
    text, which ``str.splitlines`` takes for line breaks; its text decodes back exactly."""
    transcript = tmp_path / "fr.jsonl"
    transcript.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in ACCENTED),
                          encoding="utf-8")
    done = subprocess.run([str(Path(sys.executable).parent / "gm-middleware"), "replay",
                           str(transcript), *(["--json"] if as_json else [])],
                          capture_output=True, env={**os.environ, "PYTHONIOENCODING": "ascii"},
                          timeout=120, check=False)
    assert 0 == done.returncode, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr and b"Error" not in done.stdout
    if as_json:
        lines = done.stdout.decode("ascii").splitlines()
        assert 1 == len(lines)
        assert json.loads(lines[0])["text"].startswith(ACCENTED[2]["text"][:-1].rsplit(" [", 1)[0])
    else:
        assert b"Reckon" in done.stdout and b"\\xc9t\\xe9" in done.stdout
