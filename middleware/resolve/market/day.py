"""Places and market days (ITM-MARKET-14..18, ITM-DAY-02/03, SPEC §3).

The place in force is ``GameState.place``: the last ``[place:]`` the engine answered in the selected
replies. Player text is never parsed and a regenerated reply starts again from the turn-start state,
so ITM-MARKET-16..18 need nothing here beyond storing the place with the state.

A day in a place lasts until the Game Master names another place; naming the place in force again
with ``day="new"`` starts its next day (ITM-DAY-02); arriving anywhere else, coming back included,
starts a new day there (items.md Ambiguity 12). Each place counts its own days in ``GameState.days``,
so "Millbrook, day 2" always draws the same stock from (game seed, place, day) (ITM-DAY-03, SPEC §5)
and only what was sold and paid out today is stored, in ``GameState.market``.

The buy's price reads the place in force at the end of the reply (ITM-MARKET-20, SPEC §3):
``place_at_end`` works it out before the first tag resolves and ``pricing_place`` gives it to the buy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from middleware.names import normalize_name
from middleware.state import GameState, MarketDay, Place

if TYPE_CHECKING:
    from middleware.resolve import Context
    from middleware.rules.items_money import Market, PlaceSize
    from middleware.rules.ruleset import Ruleset

MAX_NAME = 100
"""The longest place name kept; a longer one is cut (bad input is bounded, SPEC §8)."""

MAX_PLACES = 256
"""How many places' day counts are remembered; the least recently named are forgotten first."""


def place_key(name: str) -> str:
    """How place names are compared (SPEC §1b): no case, accents or punctuation."""
    return normalize_name(name)


def market_of(ruleset: Ruleset) -> Market | None:
    """ITM-MARKET-01: the ruleset's market, or None when it has none."""
    return ruleset.items.market if ruleset.items is not None else None


def find_size(ruleset: Ruleset, written: str) -> PlaceSize | None:
    """ITM-MARKET-14 / Ambiguity 27: a place size by id or label, without case or punctuation."""
    market = market_of(ruleset)
    wanted = normalize_name(written)
    for size in market.places if market else ():
        if wanted in (normalize_name(size.id), normalize_name(size.label)):
            return size
    return None


def size_of(ruleset: Ruleset, place: Place | None) -> PlaceSize | None:
    """The place size of ``place`` (None for no place, a place without a market, or a size the
    ruleset no longer has)."""
    market = market_of(ruleset)
    if place is None or place.size is None or market is None:
        return None
    return next((s for s in market.places if s.id == place.size), None)


def size_rank(ruleset: Ruleset, size_id: str | None) -> int | None:
    """ITM-MARKET-07: the position of a size, smallest first (0), or None if unknown."""
    market = market_of(ruleset)
    ids = [s.id for s in market.places] if market else []
    return ids.index(size_id) if size_id in ids else None


def next_place(state: GameState, name: str, size: str | None, new_day: bool) -> Place:
    """ITM-DAY-02: the place named in ``state``'s turn, with its day number.

    The place in force named again keeps its day unless ``new_day``; any other place starts its
    next day (its first on a first visit).
    """
    name = name.strip()[:MAX_NAME]
    key = place_key(name)
    here = state.place
    if here is not None and place_key(here.name) == key and not new_day:
        return Place(name=name, size=size, day=here.day)
    return Place(name=name, size=size, day=state.days.get(key, 0) + 1)


def arrive(state: GameState, place: Place, keep: Place | None = None) -> GameState:
    """``state`` with ``place`` in force, its day counted, and today's market kept only if it is
    the market of ``place``'s day (or of ``keep``'s: the place where this reply's buys are priced,
    so a sale priced there before the party reaches it is not forgotten)."""
    key = place_key(place.name)
    days = _remember(state.days, key, place.day)
    market = state.market
    if market is not None and not any(_is_day_of(market, p) for p in (place, keep)):
        market = None
    return state.model_copy(update={"place": place, "days": days, "market": market})


def today(state: GameState, place: Place) -> MarketDay:
    """What the market of ``place``'s day has sold and paid out so far (empty if nothing yet)."""
    if state.market is not None and _is_day_of(state.market, place):
        return state.market
    return MarketDay(place=place_key(place.name), day=place.day)


def with_today(state: GameState, market: MarketDay) -> GameState:
    """``state`` with ``market`` as today's market (a buy or a sale records what it took)."""
    return state.model_copy(update={"market": market})


def pricing_place(state: GameState, ctx: Context) -> Place | None:
    """ITM-MARKET-20 / SPEC §3: the place a buy or sale is priced at, the place in force at the end
    of the reply (``ctx.place_at_end``), else the place in force now; None when none was named."""
    return ctx.place_at_end if ctx.place_at_end is not None else state.place


def _is_day_of(market: MarketDay, place: Place | None) -> bool:
    return place is not None and market.place == place_key(place.name) \
        and market.day == place.day


def _remember(days: dict[str, int], key: str, day: int) -> dict[str, int]:
    """``days`` with ``key`` at ``day``, moved to the end; the oldest dropped past MAX_PLACES."""
    kept = {k: v for k, v in days.items() if k != key}
    kept[key] = max(day, days.get(key, 0))
    while len(kept) > MAX_PLACES:
        kept.pop(next(iter(kept)))
    return kept
