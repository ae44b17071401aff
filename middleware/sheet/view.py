"""A character's build read alone: the sheet with no live state and no items (SHEET-REF-16).

What the bag's carry rule reads (ITM-BLOCK-11) and what a blank sheet is (SHEET-BLANK-01). The
character as they stand, live state and held items included, is ``character.check.view_for``.
"""

from __future__ import annotations

from middleware.cache import IdentityCache
from middleware.sheet.evaluate import SheetView, blank_build
from middleware.sheet.rules_view import RulesetLike, sheet_rules
from middleware.state import Build, Character

_BARE: IdentityCache[SheetView] = IdentityCache(512)


def bare_view(ruleset: RulesetLike, character: Character | None) -> SheetView:
    """SHEET-REF-16 / ITM-BLOCK-11: the build alone (blank without a sheet), no live state and no
    items: what ``view_for(...).static`` reads, without reading the bag."""
    sheet = character.sheet if character is not None else None
    return _BARE.get((ruleset, sheet), None, lambda: SheetView(
        sheet_rules(ruleset), sheet.build if sheet else blank_of(ruleset)))


def blank_of(ruleset: RulesetLike) -> Build:
    """SHEET-BLANK-01, built once per ruleset (a frozen value every blank view may share)."""
    return _BLANKS.get((ruleset,), None, lambda: blank_build(sheet_rules(ruleset)))


_BLANKS: IdentityCache[Build] = IdentityCache(64)
