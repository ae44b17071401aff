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


async def test_the_readme_shows_the_blocks_brass_fair_really_builds() -> None:
    """The README's two example blocks are this turn's blocks, byte for byte."""
    from middleware.engine import Engine
    from middleware.sheet.party import read_party
    from middleware.stores.memory import MemoryStore

    ruleset = load_bundled("brass-fair")
    party = read_party(ruleset, [
        {"name": "Ada", "player": True,
         "sheet": {"v": 1, "build": {"abilities": {"wits": 3}, "skills": {"haggle": "trained"}}},
         "bag": [{"coins": "ring", "count": 30}, {"item": "wares/hand-axe", "count": 1}]},
        {"name": "Bram", "bag": [{"item": "wares/lantern"}]}])
    engine = Engine(MemoryStore())
    await engine.create_game("c", ruleset, party, seed=7)
    done = await engine.process("c", 1, (
        '[place: name="Brassford" size="fair town"] The stalls are loud. '
        '[inventory: action="buy" item="Belt knife"] [skill_check: skill="Haggle" '
        'difficulty="Risky"]'), dice=[5, 4])
    view = build_view(ruleset, done.state, done.records, seed=7)
    readme = README.read_text(encoding="utf-8")
    assert f"```text\n{view.rules}\n```" in readme
    assert f"```text\n{view.state}\n```" in readme
