"""gm-middleware: resolves the tags an AI Game Master writes against a tabletop ruleset.

The public surface. Importing the package has no side effects: the grammar is built on first use.
"""

from middleware.dice import Dice
from middleware.engine import Engine, Processed
from middleware.errors import (
    DiceError,
    ExpectationError,
    GameError,
    GMError,
    Problem,
    RulesetError,
    StoreError,
    TranscriptError,
)
from middleware.parse import TagStream, parse
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.records import Record
from middleware.resolve.checks.record import CheckRecord
from middleware.rules import Ruleset, load_ruleset, ruleset_json_schema, validate_ruleset
from middleware.rules.registry import bundled_ids, load_bundled
from middleware.segments import Tag, Text
from middleware.sheet.party import read_party
from middleware.sheet.peer import read_peer_character, read_peer_party
from middleware.state import Character, GameState, Live, Place, Sheet, Stack
from middleware.stores import MemoryStore, SQLiteStore, open_store
from middleware.stores.base import Store

__all__ = [
    "Character",
    "CheckRecord",
    "Dice",
    "DiceError",
    "Engine",
    "ExpectationError",
    "GMError",
    "GameError",
    "GameState",
    "Live",
    "MemoryStore",
    "Place",
    "Problem",
    "Processed",
    "Record",
    "ResolvedReply",
    "Ruleset",
    "RulesetError",
    "SQLiteStore",
    "Sheet",
    "Stack",
    "Store",
    "StoreError",
    "Tag",
    "TagStream",
    "Text",
    "TranscriptError",
    "bundled_ids",
    "load_bundled",
    "load_ruleset",
    "open_store",
    "parse",
    "read_party",
    "read_peer_character",
    "read_peer_party",
    "resolve_reply",
    "ruleset_json_schema",
    "validate_ruleset",
]
