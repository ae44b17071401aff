"""The GM's view teaches branch blocks only in a game that reads them (issue 15): a BRANCH BLOCKS
part in the rules block with this ruleset's outcome labels, and never a word of it when they are
off. The sizes are the README's."""

from __future__ import annotations

import re

import pytest

from middleware.gm_view import build_view
from middleware.rules.load import load_ruleset
from middleware.rules.registry import bundled_ids, load_bundled
from middleware.rules.ruleset import Ruleset
from tests.conftest import compat_path
from tests.gm_view.helpers import start
from tests.gm_view.test_readme_sizes import PEERS, README


def _rulesets() -> list[Ruleset]:
    return [*(load_bundled(i) for i in bundled_ids()), *(load_ruleset(compat_path(p))
                                                         for p in PEERS)]


def _blocks(ruleset: Ruleset, branches: bool) -> tuple[str, str]:
    state = start(ruleset, [{"name": "Wren", "player": True}])
    view = build_view(ruleset, state.model_copy(update={"branches": branches}))
    return view.rules, view.state


@pytest.mark.parametrize("ruleset", _rulesets(), ids=lambda r: r.id)
def test_branch_blocks_are_taught_only_when_on(ruleset: Ruleset) -> None:
    """On: the BRANCH BLOCKS part, with ``[on <tier>]`` for each outcome tier the ruleset has.
    Off: no marker and no word of the part; the state block is the same either way."""
    on, off = _blocks(ruleset, True), _blocks(ruleset, False)
    assert "BRANCH BLOCKS" in on[0] and "[/branch]" in on[0]
    assert "BRANCH" not in off[0] and "[on " not in off[0] and "[/branch]" not in off[0]
    assert on[1] == off[1]
    tiers = ruleset.resolution.outcomes.tiers if ruleset.resolution.outcomes else ()
    assert all(f"[on {t.label}]" in on[0] for t in tiers)
    assert off[0] == on[0].replace(_part(on[0]), "")


def _part(rules: str) -> str:
    start = rules.index("\n\nBRANCH BLOCKS")
    end = rules.find("\n\n", start + 2)
    return rules[start:end if end >= 0 else len(rules)]


def test_the_readme_gives_the_rules_block_sizes_with_branches_on_and_off() -> None:
    """The README's table of rules block sizes, off and on, is what is built today."""
    rows = re.findall(r"^\| `([^`]+)` \| ([\d,]+) \| ([\d,]+) \| \+[\d,]+ \|$",
                      README.read_text(encoding="utf-8"), re.MULTILINE)
    shown = {name: (int(a.replace(",", "")), int(b.replace(",", ""))) for name, a, b in rows}
    built = {r.id: (len(_blocks(r, False)[0]), len(_blocks(r, True)[0]))
             for r in _rulesets() if r.id in ("lantern-and-ledger", "brass-fair", "dim-archive")}
    assert built == shown
