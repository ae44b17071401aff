"""Ruleset items as play reads them: the name index (ITM-BAG), bags and carry, money and loot, the
items the Game Master invents and the Game Master's lines about them (ITM-ENTRY)."""

from __future__ import annotations

from middleware.items.index import Coin, ItemIndex, RulesetItem, item_index

__all__ = ["Coin", "ItemIndex", "RulesetItem", "item_index"]
