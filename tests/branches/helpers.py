"""Shared pieces of the branch-block tests: the bundled demo games' parties on their rulesets
(and the peer's Ember Roads and Gravewatch), replies resolved with scripted dice, with branch
blocks on or off."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from middleware.dice import Dice
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.records import Record
from middleware.resolve import Context
from middleware.resolve.branch import BranchRecord
from middleware.rules.registry import load_bundled
from middleware.rules.ruleset import Ruleset
from middleware.sheet.party import read_party
from middleware.state import GameState
from tests.conftest import ROOT
from tests.sheet_tag.helpers import ember_state, gravewatch_state


@cache
def demo_game(name: str) -> dict[str, Any]:
    """The ``game`` line of ``transcripts/<name>.jsonl``."""
    path = ROOT / "transcripts" / f"{name}.jsonl"
    game: dict[str, Any] = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    return game


def demo(name: str, *, branches: bool = True) -> tuple[Ruleset, GameState]:
    """The ruleset and S(0) of a bundled demo game, with branch blocks on or off."""
    game = demo_game(name)
    rules = load_bundled(game["ruleset"])
    state = GameState(ruleset=rules.id, party=read_party(rules, game["party"]), branches=branches)
    return rules, state


def peer_game(name: str, *, branches: bool = True) -> tuple[Ruleset, GameState]:
    """The peer's Ember Roads (Juno the scout) or Gravewatch (Bram the Quiet)."""
    rules, state = ember_state() if name == "ember" else gravewatch_state()
    return rules, state.model_copy(update={"branches": branches})


def run(rules: Ruleset, state: GameState, text: str, faces: tuple[int, ...]) -> ResolvedReply:
    """``text`` resolved with exactly ``faces`` thrown first (then a fixed seed)."""
    return resolve_reply(text, state, Context(rules, Dice(5, faces)))


def block(sections: Mapping[str, str], end: str = " [/branch]") -> str:
    """``[on <label>] <text>`` for each section, then ``end``."""
    return "".join(f" [on {label}] {text}" for label, text in sections.items()) + end


def branch_records(done: ResolvedReply) -> list[BranchRecord]:
    return [r for r in done.records if isinstance(r, BranchRecord)]


def tag_records(done: ResolvedReply) -> list[Record]:
    return [r for r in done.records if not isinstance(r, BranchRecord)]


def same_play(kept: ResolvedReply, plain: ResolvedReply) -> None:
    """A reply with a branch block played exactly as the reply with only the kept section written:
    the same text, the same tag records, the same state after it."""
    assert plain.text == kept.text
    assert list(plain.records) == tag_records(kept)
    assert plain.state.model_dump(exclude={"branches"}) == \
        kept.state.model_dump(exclude={"branches"})
