"""The README's table of block sizes is what ``build_view`` builds today, for every bundled and
peer ruleset (a game of one new character at its start)."""

from __future__ import annotations

import re
from pathlib import Path

from middleware.gm_view import build_view
from middleware.rules.load import load_ruleset
from middleware.rules.registry import bundled_ids, load_bundled
from middleware.rules.ruleset import Ruleset
from tests.conftest import compat_path
from tests.gm_view.helpers import start

README = Path(__file__).parents[2] / "README.md"
PEERS = ("ember-roads.json", "gravewatch.json", "ruleset-5e-2014.example.json")


def table() -> dict[str, tuple[int, int]]:
    rows = re.findall(r"^\| (?:peer )?`([^`]+)` \| ([\d,]+) \| ([\d,]+) \|$",
                      README.read_text(encoding="utf-8"), re.MULTILINE)
    return {name: (int(a.replace(",", "")), int(b.replace(",", ""))) for name, a, b in rows}


def sizes(ruleset: Ruleset) -> tuple[int, int]:
    view = build_view(ruleset, start(ruleset, [{"name": "Wren", "player": True}]))
    return len(view.rules), len(view.state)


def test_the_readme_sizes_are_the_blocks_built_today() -> None:
    shown = table()
    built = {rid: sizes(load_bundled(rid)) for rid in bundled_ids()}
    built |= {name: sizes(load_ruleset(compat_path(name))) for name in PEERS}
    assert built == {name: shown.get(name) for name in built}
