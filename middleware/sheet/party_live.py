"""Strict checks of a transcript entry's ``live`` state and ``bag`` (SHEET-TRN-04/05)."""

from __future__ import annotations

from typing import Any, TypeGuard

from pydantic import JsonValue, ValidationError

from middleware.json_input import JsonObject
from middleware.rules.item_entry import Item
from middleware.sheet.evaluate import SheetView, blank_build
from middleware.sheet.party_build import Ctx
from middleware.sheet.rules_view import sheet_rules
from middleware.state import Build

LIVE_KEYS = {"pools", "tracks", "wounds", "text", "conditions", "states"}
STACK_KEYS = {"item", "coins", "plain", "count", "nickname", "equipped", "bound", "charges",
              "loaded", "on"}


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _view(ctx: Ctx, build: JsonObject) -> SheetView:
    rules = sheet_rules(ctx.ruleset)
    try:
        parsed = Build.model_validate(build) if build else blank_build(rules)
    except ValidationError:  # already reported against the build; read maxima off the blank
        parsed = blank_build(rules)
    return SheetView(rules, parsed)


def check_live(ctx: Ctx, live: Any, build: JsonObject) -> None:
    """Pool keys and values, tracks, wound marks, conditions, states and text."""
    if not isinstance(live, dict):
        ctx.add("", "live must be an object")
        return
    for key in live.keys() - LIVE_KEYS:
        ctx.add(key, "unknown key")
    view = _view(ctx, build)
    _check_pools(ctx.at("pools"), _object(ctx, live, "pools"), view)
    _check_tracks(ctx.at("tracks"), _object(ctx, live, "tracks"), view)
    _check_wounds(ctx.at("wounds"), _object(ctx, live, "wounds"), view)
    ix = view.ix
    for i, condition in enumerate(_list(ctx, live, "conditions")):
        if not isinstance(condition, str) or condition not in ix.conditions:
            ctx.at("conditions").add(i, f"no condition {condition!r}")
    for state_id, value in _object(ctx, live, "states").items():
        state = ix.states.get(state_id)
        if state is None or value not in state.values:
            ctx.at("states").add(state_id, "no such state or value")
    for text_id, value in _object(ctx, live, "text").items():
        text = ix.text.get(text_id)
        if text is None or not isinstance(value, str) or len(value) > text.max_length:
            ctx.at("text").add(text_id, "no such live text, or too long")


def _object(ctx: Ctx, live: JsonObject, key: str) -> JsonObject:
    """``live[key]`` when it is an object (absent: empty); else refused, and read as empty."""
    value = live.get(key, {})
    if isinstance(value, dict):
        return value
    ctx.add(key, "must be an object")
    return {}


def _list(ctx: Ctx, live: JsonObject, key: str) -> list[JsonValue]:
    """``live[key]`` when it is a list (absent: empty); else refused, and read as empty."""
    value = live.get(key, [])
    if isinstance(value, list):
        return value
    ctx.add(key, "must be a list")
    return []


def _check_pools(ctx: Ctx, pools: JsonObject, view: SheetView) -> None:
    have = view.live.pools()
    for key, stored in pools.items():
        here = ctx.at(key)
        declared = view.ix.pools.get(key)
        if declared is None and key not in view.live.row_pools():
            here.add("", "neither a declared pool nor a row pool of this build")
            continue
        if not isinstance(stored, dict) or stored.keys() - {"value", "temp"}:
            here.add("", "must be {value, temp?}")
            continue
        top = have.get(key, (0, 0))[1]
        value, temp = stored.get("value"), stored.get("temp", 0)
        if not _whole(value) or not 0 <= value <= top:
            here.add("value", f"must be a whole number in 0..{top}")
        if "temp" in stored and not (declared and declared.allow_temp and _whole(temp)
                                     and temp >= 0):
            here.add("temp", "temp is allowed only on a pool with allowTemp")


def _check_tracks(ctx: Ctx, tracks: JsonObject, view: SheetView) -> None:
    for track_id, value in tracks.items():
        track = view.ix.tracks.get(track_id)
        if track is None or track.wound:
            ctx.add(track_id, "no such plain track")
            continue
        low, high = view.live.track_range(track)
        if not _whole(value) or not low <= value <= high:
            ctx.add(track_id, f"must be a whole number in {low}..{high}")


def _check_wounds(ctx: Ctx, wounds: JsonObject, view: SheetView) -> None:
    for track_id, stored in wounds.items():
        here = ctx.at(track_id)
        track = view.ix.tracks.get(track_id)
        wound = view.live.wound(track_id)
        if track is None or wound is None or not isinstance(stored, dict):
            here.add("", "no such wound track")
            continue
        severity = {k.id: k.severity for k in track.kinds or ()}
        marks: list[str] = []  # the marks that are names: any other value is refused here
        for i, mark in enumerate(_list(here, stored, "marks")):
            known = isinstance(mark, str) and (mark in severity or (track.indexed and mark == ""))
            if not known:
                here.at("marks").add(i, f"no kind {mark!r}")
            if isinstance(mark, str):
                marks.append(mark)
        if len(marks) > wound.length:
            here.add("marks", f"more marks than the track's {wound.length} boxes (use overflow)")
        ranks = [severity.get(m, 0) for m in marks]
        if not track.indexed and ranks != sorted(ranks, reverse=True):
            here.add("marks", "marks must be sorted most severe first")


def _items(ctx: Ctx) -> dict[str, Item]:
    """Every catalog item by ``catalog/entry`` ref and by label."""
    out: dict[str, Item] = {}
    for catalog in ctx.ruleset.catalogs:
        for entry in catalog.entries:
            if entry.item is not None:
                out[f"{catalog.id}/{entry.id}"] = entry.item
                out.setdefault(entry.label.lower(), entry.item)
    return out


def check_bag(ctx: Ctx, bag: JsonValue) -> None:
    """SHEET-TRN-04/05: each stack is an item, coins or a plain item, within its limits."""
    if not isinstance(bag, list):
        ctx.add("", "bag must be a list")
        return
    items = _items(ctx)
    block = ctx.ruleset.items
    coins = {u.id for c in block.currencies for u in c.units} if block is not None else set()
    for i, stack in enumerate(bag):
        here = ctx.at(i)
        if not isinstance(stack, dict):
            here.add("", "a stack must be an object")
            continue
        for key in stack.keys() - STACK_KEYS:
            here.add(key, "unknown key")
        kinds = [k for k in ("item", "coins", "plain") if k in stack]
        if len(kinds) != 1:
            here.add("", "a stack is exactly one of item, coins, plain")
            continue
        count = stack.get("count", 1)
        if not _whole(count) or count < 1:
            here.add("count", "must be a whole number >= 1")
        if kinds[0] == "coins" and (not isinstance(stack["coins"], str)
                                    or stack["coins"] not in coins):
            here.add("coins", f"no coin {stack['coins']!r}")
        if kinds[0] == "plain" and block is not None and block.freeform == "refuse":
            here.add("plain", "this ruleset refuses plain items")
        if kinds[0] == "item":
            _check_item(here, stack, items)


def _check_item(ctx: Ctx, stack: JsonObject, items: dict[str, Item]) -> None:
    ref = stack["item"]
    item = items.get(ref) if isinstance(ref, str) and "/" in ref else \
        items.get(str(ref).lower())
    if item is None:
        ctx.add("item", f"no item {ref!r}")
        return
    if stack.get("bound") and item.binds is None:
        ctx.add("bound", "this item does not bind")
    if stack.get("equipped") and not item.slots:
        ctx.add("equipped", "this item takes no slot")
    charges = _charges(item)
    if "charges" in stack and (charges is None or not _whole(stack["charges"])
                               or not 0 <= stack["charges"] <= charges):
        ctx.add("charges", f"must be a whole number in 0..{charges}")
    limit = item.stack if item.stack is not None else 1
    count = stack.get("count", 1)
    if _whole(count) and count > limit:
        ctx.add("count", f"at most {limit} in one stack")


def _charges(item: Item) -> int | None:
    """ITM-USE-08: the capacity, written literally or read off one of the item's stats."""
    if item.charges is None:
        return None
    if isinstance(item.charges.max, int):
        return item.charges.max
    value = item.stats.get(item.charges.max.stat)
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
