"""Issue 16: the reply of forty ``count="10000"`` tags, before and after the stack limits.

Run with ``.venv/bin/python -m pytest tests/benchmarks/test_robust_bench.py --benchmark-only``.
"Before" raises the limits past anything a reply can reach (a bag and a reply may start any number
of stacks), which is how the engine ran without them: forty 10,000-bell adds made 400,000 stacks.
"After" is the engine as it runs (``BAG_STACKS`` 500, ``REPLY_STACKS`` 200). No time is asserted;
``extra_info`` keeps the stacks made and the size of the stored state.
"""

from __future__ import annotations

from typing import Any

import pytest

from middleware.dice import Dice
from middleware.items import bag as bag_module
from middleware.items import stack_room
from middleware.pipeline import resolve_reply
from middleware.records import model_json
from middleware.resolve import Context
from middleware.rules.load import load_ruleset
from middleware.state import GameState
from tests.conftest import compat_path
from tests.items.inventory_helpers import bram, juno

REPLY = " ".join(['The bells ring. [inventory: action="add" item="Dawn bell" count="10000" '
                  'who="Bram the Quiet"]'] * 40)
UNBOUNDED = 10**9


@pytest.mark.benchmark(group="robust-forty-tags")
@pytest.mark.parametrize("limits", ["before", "after"])
def test_forty_tags_of_ten_thousand(benchmark: Any, limits: str,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """One reply of forty 10,000-piece adds of an item held one to a stack, resolved whole."""
    if limits == "before":
        for module in (bag_module, stack_room):
            monkeypatch.setattr(module, "BAG_STACKS", UNBOUNDED)
        monkeypatch.setattr(stack_room, "REPLY_STACKS", UNBOUNDED)
    ruleset = load_ruleset(compat_path("gravewatch.json"))
    start = GameState(ruleset=ruleset.id, party=(bram(), juno()))

    def run() -> GameState:
        ctx = Context(ruleset=ruleset, dice=Dice(1), new_stacks=stack_room.REPLY_STACKS)
        return resolve_reply(REPLY, start, ctx).state

    state = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["stacks"] = stack_room.stacks_in(state)
    benchmark.extra_info["state_bytes"] = len(model_json(state))
