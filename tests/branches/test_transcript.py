"""A transcript with ``"options": {"branches": true}`` replayed by the command (issue 15): the
branch demo (Lantern and Ledger) keeps the sections its scripted dice choose and meets its
expectations; the same lines without the option read the markers as prose and do not."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from middleware.cli import app
from tests.conftest import ROOT

DEMO = ROOT / "transcripts" / "branch-demo.jsonl"
runner = CliRunner()


def test_the_branch_demo_replays_with_its_expectations() -> None:
    """Exit 0; turn 1's two candidates keep "at a cost" (3+3) and "Miss" (1+2, a cut); turn 2
    pays one groat, not three; turn 3's check-less block stays as written."""
    result = runner.invoke(app, ["replay", str(DEMO), "--json"])
    assert 0 == result.exit_code, result.output
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    texts = [r["text"] for r in replies]
    assert "the rung snaps" in texts[0] and "Her boot skids" not in texts[0]
    assert "Her boot skids" in texts[1] and '[sheet: op="damage"' in texts[1]
    assert "for a groat" in texts[2] and "wants three" not in texts[2]
    assert texts[3].endswith("[on success] A stray section with no check before it. [/branch]")
    groats = replies[2]["state"]["party"]["Wren Ashby"]["bag"]["groats"]
    assert 2 == groats
    assert [["kept", "Success at a cost"], ["kept", "Miss"], ["kept", "success"]] == [
        ["kept", next(r["kept"] for r in reply["records"] if r["tag"] == "branch")]
        for reply in replies[:3]]


def test_the_same_lines_without_the_option_read_the_markers_as_prose(tmp_path: Path) -> None:
    """Without ``options.branches`` every section stays and every tag in it resolves, so the
    demo's expectations fail on its first reply, and the command says where."""
    lines = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]
    del lines[0]["options"]
    plain = tmp_path / "plain.jsonl"
    plain.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(plain)])
    assert 1 == result.exit_code
    assert "line 3: expectation failed" in result.output
