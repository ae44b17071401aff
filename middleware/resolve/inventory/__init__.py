"""``[inventory:]``: read the tag, run its action on each item in order, write one record.

The steps (SPEC §1b, §6, ITM-BAG):

1. An unreadable tag (parse problems) is refused ``unreadable`` and rewritten as
   ``[inventory: raw="…" result="refused" reason="unreadable"]``.
2. ``read_request`` finds the action (unknown words read as ``add``), the items (a comma list gives
   one ask per item), the count, ``who=`` and ``to=``.
3. Each ask goes to the action picked from ``ACTIONS`` (STYLE habit 5). Items resolve in order, each
   seeing what the ones before it did; each is all-or-nothing.
4. One ``InventoryRecord`` answers the tag; several items or bags become its ``parts``.

Actions other issues own answer ``refused`` / ``unsupported`` until they are registered here:
``use`` (issue 4 part I4: ``ACTIONS["use"] = use``), and ``pay``, ``earn``, ``buy``, ``sell``,
``inspect``, ``reveal`` (money, market and fakes).
"""

from __future__ import annotations

from collections.abc import Callable

from middleware.records import clean_value
from middleware.resolve import Context, Resolution
from middleware.resolve.inventory.buy import buy
from middleware.resolve.inventory.fakes.inspect import after_change, inspect, reveal
from middleware.resolve.inventory.goods import add, give, remove
from middleware.resolve.inventory.money import earn, pay
from middleware.resolve.inventory.read import ITEMLESS_ACTIONS, ItemAsk, Request, read_request
from middleware.resolve.inventory.record import InventoryRecord, combined, refused
from middleware.resolve.inventory.sell import sell
from middleware.resolve.inventory.use import use
from middleware.resolve.inventory.wear import bind, equip, unbind, unequip
from middleware.segments import Tag
from middleware.state import GameState

__all__ = ["ACTIONS", "Action", "InventoryRecord", "ItemAsk", "Request", "read_request",
           "resolve_inventory", "unsupported"]

Action = Callable[[ItemAsk, GameState, Context], Resolution]
"""One action on one item: the state after it and its record (an ``InventoryRecord``)."""


def unsupported(ask: ItemAsk, state: GameState, ctx: Context) -> Resolution:
    """An action another part of the engine answers; refused until it is registered."""
    return Resolution(state, refused(ask.action, "unsupported",
                                     f"The {ask.action} action is not resolved yet.",
                                     item=ask.item or None, who=ask.who))


ACTIONS: dict[str, Action] = {
    "add": add, "remove": remove, "give": give,
    "equip": equip, "unequip": unequip, "bind": bind, "unbind": unbind,
    "use": use,  # ITM-USE (issue 4 part I4)
    "pay": pay, "earn": earn, "buy": buy, "sell": sell,  # ITM-MARKET, ITM-DAY (issue 5 J4)
    "inspect": inspect, "reveal": reveal,  # ITM-FAKE (issue 5 part J5)
}
"""The action word -> its resolver (STYLE habit 5)."""


def resolve_inventory(tag: Tag, state: GameState, ctx: Context) -> Resolution:
    """The ``inventory`` resolver (SPEC §2, §6): every item of the tag, in order."""
    if tag.problems:
        return Resolution(state, unreadable(tag))
    request = read_request(tag)
    action = ACTIONS.get(request.action, unsupported)
    if not request.asks[0].item and action is not unsupported \
            and request.action not in ITEMLESS_ACTIONS:
        return Resolution(state, refused(
            request.action, "no-item", "Name the item with item= (or items=).",
            who=tag.get("who"), source=tag.raw))
    parts: list[InventoryRecord] = []
    for ask in request.asks:
        done = after_change(action(ask, state, ctx), ctx)  # ITM-FAKE-11: the sheet may tell
        state = done.state
        record = done.record
        if not isinstance(record, InventoryRecord):  # an action of another part: keep its record
            return Resolution(state, record.model_copy(update={"source": tag.raw}))
        parts.extend(record.parts or [record])
    return Resolution(state, combined(request.action, parts, tag.raw))


def unreadable(tag: Tag) -> InventoryRecord:
    """SPEC §6: ``[inventory: raw="…" result="refused" reason="unreadable"]``."""
    body = tag.raw[1:-1] if tag.raw.startswith("[") and tag.raw.endswith("]") else tag.raw
    return InventoryRecord(status="refused", reason="unreadable", action="",
                           raw=clean_value(body)[:500], source=tag.raw,
                           feedback=clean_value("; ".join(tag.problems)))
