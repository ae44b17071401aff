"""Ruleset items as play reads them: the name index (ITM-BAG) and the Game Master's lines (ITM-ENTRY)."""

from middleware.items.index import Coin, ItemIndex, RulesetItem, item_index

__all__ = ["Coin", "ItemIndex", "RulesetItem", "item_index"]
