"""The game between checks: a reply of five ``[sheet:]`` ops and one of five ``[dice:]`` rolls,
each against a reply of five checks on the same character (Bram on Gravewatch), side by side in
one run. Compare the ratios, never the times across runs."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sheet_tag.helpers import gravewatch_state, run

REPLIES = {
    "checks": '[skill_check: skill="Ward" dc="2"] ' * 5,
    "sheet-damage": '[sheet: op="damage" track="harm" kind="knock" amount="1"] ' * 5,
    "sheet-heal-pool": '[sheet: op="heal" pool="resolve" amount="1"] ' * 5,
    "sheet-rest": '[sheet: op="rest" rest="vigil"] ' * 5,
    "dice": "[dice: 4d6kh3+2] " * 5,
    "place": '[place: name="Millbrook"] ' * 5,
}


@pytest.mark.parametrize("name", list(REPLIES))
def test_reply_of_five_tags(benchmark: Any, name: str) -> None:
    """Five tags of one kind resolved in one reply (parse, resolve, rewrite)."""
    rules, state = gravewatch_state()
    text = REPLIES[name]
    done = benchmark(lambda: run(rules, state, text))
    assert 5 == len(done.records)
