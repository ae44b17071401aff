"""``gm-middleware replay T.jsonl --json | head -1`` ends quietly; ``--version`` (issue 16 #10).

The reader of stdout going away used to end the replay with a traceback from the store gate's
context variable and exit 1 (the code of a failed expectation). Now the replay stops where it is,
keeps nothing, writes nothing to stderr and exits 0.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from middleware.cli.app import app
from tests.conftest import ROOT

DEMO = ROOT / "transcripts" / "lantern-demo.jsonl"
SCRIPT = Path(sys.executable).parent / "gm-middleware"


def long_transcript(tmp_path: Path, turns: int = 200) -> Path:
    """The demo's game and then ``turns`` turns of narration: far more output than a pipe holds."""
    game = DEMO.read_text().splitlines()[0]
    lines = [game]
    for turn in range(turns):
        lines += [json.dumps({"type": "user", "text": f"I walk on ({turn})."}),
                  json.dumps({"type": "gm", "text": "The road goes on. " * 20})]
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(lines))
    return path


@pytest.mark.parametrize("flags", [["--json"], []])
def test_a_reader_that_stops_reading_ends_the_replay_quietly(tmp_path: Path,
                                                             flags: list[str]) -> None:
    """Like ``| head -1``: one line read, the pipe closed; exit 0 and nothing on stderr."""
    path = long_transcript(tmp_path)
    with subprocess.Popen([str(SCRIPT), "replay", str(path), *flags], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as run:
        assert run.stdout is not None and run.stderr is not None
        first = run.stdout.readline()
        run.stdout.close()
        errors = run.stderr.read()
        code = run.wait(timeout=60)
    assert first
    assert (0, b"") == (code, errors)


def test_version_prints_the_installed_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    expected = f"gm-middleware {metadata.version('gm-middleware')}\n"
    assert (0, expected) == (result.exit_code, result.stdout)
