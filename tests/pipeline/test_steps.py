"""A reply resolved item by item (``resolve_item``), each step from the reading the last one left,
is the reply resolved whole: the steps a streamed reply takes are the whole-reply resolve's own."""

from __future__ import annotations

import json
from dataclasses import replace

from middleware.dice import Dice
from middleware.parse import parse_pieces
from middleware.pipeline import Reading, Step, resolve_item, resolve_reply
from middleware.records import model_json
from middleware.resolve import Context
from middleware.resolve.branch import read_blocks
from middleware.resolve.branch.blocks import Block
from middleware.resolve.place import place_at_end
from tests.branches.helpers import demo, demo_game
from tests.conftest import ROOT

SEED = 99


def _texts(name: str) -> list[str]:
    """The Game Master's replies of ``transcripts/<name>.jsonl``."""
    lines = (ROOT / "transcripts" / f"{name}.jsonl").read_text("utf-8").splitlines()
    return [line["text"] for line in map(json.loads, lines) if line.get("type") == "gm"]


def _one_by_one(reply: str, game: str) -> tuple[str, list[str], str]:
    rules, state = demo(game, branches=bool(demo_game(game).get("options")))
    items = read_blocks(parse_pieces(reply, branches=state.branches))
    ctx = Context(rules, Dice(SEED))
    ctx = replace(ctx, place_at_end=place_at_end(
        [i for i in items if not isinstance(i, Block)], state, ctx))
    steps, reading = [], Reading.at(state)
    for item in items:
        step: Step = resolve_item(reading, item, ctx)
        steps.append(step)
        reading = step.reading
    text = "".join(step.resolved().text for step in steps)
    return text, [model_json(r) for step in steps for r in step.records], model_json(reading.state)


def test_each_item_in_turn_is_the_whole_reply() -> None:
    """For every Game Master reply of the market and branch-block demos, and all of them in one
    reply: the text, records and state of the items resolved one call at a time are those of
    ``resolve_reply``, byte for byte (checks' dice, buys priced where the reply ends, blocks)."""
    for game in ("market-day", "branch-demo"):
        texts = _texts(game)
        for reply in [*texts, " ".join(texts)]:
            rules, state = demo(game, branches=bool(demo_game(game).get("options")))
            whole = resolve_reply(reply, state, Context(rules, Dice(SEED)))
            expected = (whole.text, [model_json(r) for r in whole.records],
                        model_json(whole.state))
            assert expected == _one_by_one(reply, game)
