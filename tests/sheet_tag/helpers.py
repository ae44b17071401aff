"""Shared pieces of the ``[sheet:]`` and ``[dice:]`` tests: real rulesets (bundled and the peer's),
real characters (the sheet digest's worked examples), replies resolved with scripted dice."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from middleware.dice import Dice
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.records import Record
from middleware.resolve import Context
from middleware.rules.load import load_ruleset
from middleware.rules.registry import load_bundled
from middleware.rules.ruleset import Ruleset
from middleware.sheet.party import read_party
from middleware.state import Character, GameState
from tests.conftest import compat_path
from tests.sheet.sheet_helpers import BRAM, JUNO

WREN: dict[str, Any] = {
    "name": "Wren Ashby", "player": True,
    "sheet": {"v": 1, "build": {"abilities": {"hand": 1, "eye": 2, "tongue": 0},
                                "skills": {"climb": "apprentice", "slip": "apprentice",
                                           "reckon": "master"},
                                "fields": {"trade": "Lamplighter", "standing": 2}}},
    "live": {"pools": {"pluck": {"value": 3}}, "wounds": {"harm": {"marks": ["cut", "bruise"]}},
             "states": {"lamp": "hooded"}},
    "bag": [{"item": "chandlery/lamp-oil", "count": 2}],
}
"""The lantern demo's lamplighter: Pluck 3, Harm marked cut and bruise (Hurt, -1), lamp hooded."""


@cache
def peer(name: str) -> Ruleset:
    return load_ruleset(compat_path(f"{name}.json"))


@cache
def bundled(name: str) -> Ruleset:
    return load_bundled(name)


def party_state(rules: Ruleset, *members: dict[str, Any]) -> GameState:
    return GameState(ruleset=rules.id, party=read_party(rules, copy.deepcopy(list(members))))


def gravewatch_state(**live: Any) -> tuple[Ruleset, GameState]:
    """Gravewatch with Bram the Quiet (sheet.md worked example 1), his live state replaced by
    ``live`` when given."""
    bram = copy.deepcopy(BRAM)
    if live:
        bram["live"] = live
    return peer("gravewatch"), party_state(peer("gravewatch"), bram)


def ember_state(**live: Any) -> tuple[Ruleset, GameState]:
    """Ember Roads with Juno the scout (sheet.md worked example 2) as the player."""
    juno = copy.deepcopy(JUNO) | {"player": True}
    if live:
        juno["live"] = live
    return peer("ember-roads"), party_state(peer("ember-roads"), juno)


def lantern_state(**live: Any) -> tuple[Ruleset, GameState]:
    wren = copy.deepcopy(WREN)
    if live:
        wren["live"] = live
    return bundled("lantern-and-ledger"), party_state(bundled("lantern-and-ledger"), wren)


def run(rules: Ruleset, state: GameState, text: str, *faces: int) -> ResolvedReply:
    """``text`` resolved with exactly ``faces`` thrown first (then a fixed seed)."""
    return resolve_reply(text, state, Context(rules, Dice(5, faces)))


def one(rules: Ruleset, state: GameState, text: str, *faces: int) -> tuple[Record, Character]:
    """The one record of a one-tag reply and the player after it."""
    done = run(rules, state, text, *faces)
    assert len(done.records) == 1
    return done.records[0], done.state.party[0]


def attrs(record: Record) -> dict[str, str]:
    return dict(record.tag_attrs())
