"""Ruleset items as play reads them: the name index (ITM-BAG) and the Game Master's lines (ITM-ENTRY).

The names below are loaded on first use: ``middleware.state`` imports ``middleware.items.invented``,
and an eager import of the index here would import the state back before it is defined.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from middleware.items.index import Coin, ItemIndex, RulesetItem, item_index

__all__ = ["Coin", "ItemIndex", "RulesetItem", "item_index"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from middleware.items import index
        return getattr(index, name)
    raise AttributeError(f"module 'middleware.items' has no attribute {name!r}")
