"""gm-middleware: resolves the tags an AI Game Master writes against a tabletop ruleset.

The public surface: every name a user needs is importable from here and listed in ``__all__``.
The subpackages are the implementation and may move between releases (README, "Architecture").
Importing the package has no side effects and is cheap: each public name is imported from its
module when it is first used (PEP 562), and the grammar is built on first parse.
"""

import typing

import middleware.lazy as _lazy

if typing.TYPE_CHECKING:
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

_SOURCES: dict[str, str] = {
    "BranchRecord": "middleware.resolve.branch",
    "Character": "middleware.state",
    "CheckChance": "middleware.resolve.checks.chance",
    "CheckRecord": "middleware.resolve.checks.record",
    "Dice": "middleware.dice",
    "DiceError": "middleware.errors",
    "DiceRecord": "middleware.resolve.dice",
    "Engine": "middleware.engine",
    "ExpectationError": "middleware.errors",
    "GMError": "middleware.errors",
    "GameError": "middleware.errors",
    "GameState": "middleware.state",
    "Live": "middleware.state",
    "Marker": "middleware.segments",
    "MemoryStore": "middleware.stores",
    "Place": "middleware.state",
    "Problem": "middleware.errors",
    "Processed": "middleware.engine",
    "Record": "middleware.records",
    "ResolvedReply": "middleware.pipeline",
    "Ruleset": "middleware.rules",
    "RulesetError": "middleware.errors",
    "SQLiteStore": "middleware.stores",
    "Sheet": "middleware.state",
    "SheetRecord": "middleware.resolve.sheet",
    "Stack": "middleware.state",
    "Store": "middleware.stores.base",
    "StoreError": "middleware.errors",
    "SymbolRoll": "middleware.resolve.checks.symbol_pool.roll",
    "Tag": "middleware.segments",
    "TagStream": "middleware.parse",
    "Text": "middleware.segments",
    "TranscriptError": "middleware.errors",
    "bundled_ids": "middleware.rules.registry",
    "chance_after_sheet": "middleware.resolve.sheet",
    "check_chance": "middleware.resolve.checks.chance",
    "dice_instructions": "middleware.resolve.dice",
    "gm_item_line": "middleware.items.describe",
    "load_bundled": "middleware.rules.registry",
    "load_ruleset": "middleware.rules",
    "loot_instructions": "middleware.items.loot",
    "market_block": "middleware.resolve.market.block",
    "money_instructions": "middleware.items.money",
    "open_store": "middleware.stores",
    "parse": "middleware.parse",
    "parse_pieces": "middleware.parse",
    "propose_instructions": "middleware.items.propose",
    "purse_lines": "middleware.items.money",
    "read_party": "middleware.sheet.party",
    "read_peer_character": "middleware.sheet.peer",
    "read_peer_party": "middleware.sheet.peer",
    "resolve_reply": "middleware.pipeline",
    "roll_symbols": "middleware.resolve.checks.symbol_pool.roll",
    "ruleset_json_schema": "middleware.rules",
    "sheet_instructions": "middleware.resolve.sheet",
    "state_summary": "middleware.character.summary",
    "validate_ruleset": "middleware.rules",
}
"""Each public name imported on first use, and the module it comes from."""

_lazy.lazy_package(__name__, _SOURCES)
