"""gm-middleware: resolves the tags an AI Game Master writes against a tabletop ruleset.

The public surface: every name a user needs is importable from here and listed in ``__all__``.
The subpackages are the implementation and may move between releases (README, "Architecture").
Importing the package has no side effects: the grammar is built on first use.
"""

from middleware.character.summary import state_summary
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
from middleware.items.describe import gm_item_line
from middleware.items.loot import loot_instructions
from middleware.items.money import money_instructions, purse_lines
from middleware.items.propose import propose_instructions
from middleware.parse import TagStream, parse, parse_pieces
from middleware.pipeline import ResolvedReply, resolve_reply
from middleware.records import Record
from middleware.resolve.branch import BranchRecord
from middleware.resolve.checks.chance import CheckChance, check_chance
from middleware.resolve.checks.record import CheckRecord
from middleware.resolve.checks.symbol_pool.roll import SymbolRoll, roll_symbols
from middleware.resolve.dice import DiceRecord, dice_instructions
from middleware.resolve.market.block import market_block
from middleware.resolve.sheet import SheetRecord, chance_after_sheet, sheet_instructions
from middleware.rules import Ruleset, load_ruleset, ruleset_json_schema, validate_ruleset
from middleware.rules.registry import bundled_ids, load_bundled
from middleware.segments import Marker, Tag, Text
from middleware.sheet.party import read_party
from middleware.sheet.peer import read_peer_character, read_peer_party
from middleware.state import Character, GameState, Live, Place, Sheet, Stack
from middleware.stores import MemoryStore, SQLiteStore, open_store
from middleware.stores.base import Store

__all__ = [
    "BranchRecord",
    "Character",
    "CheckChance",
    "CheckRecord",
    "Dice",
    "DiceError",
    "DiceRecord",
    "Engine",
    "ExpectationError",
    "GMError",
    "GameError",
    "GameState",
    "Live",
    "Marker",
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
    "SheetRecord",
    "Stack",
    "Store",
    "StoreError",
    "SymbolRoll",
    "Tag",
    "TagStream",
    "Text",
    "TranscriptError",
    "bundled_ids",
    "chance_after_sheet",
    "check_chance",
    "dice_instructions",
    "gm_item_line",
    "load_bundled",
    "load_ruleset",
    "loot_instructions",
    "market_block",
    "money_instructions",
    "open_store",
    "parse",
    "parse_pieces",
    "propose_instructions",
    "purse_lines",
    "read_party",
    "read_peer_character",
    "read_peer_party",
    "resolve_reply",
    "roll_symbols",
    "ruleset_json_schema",
    "sheet_instructions",
    "state_summary",
    "validate_ruleset",
]
