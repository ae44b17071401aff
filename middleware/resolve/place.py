"""``[place: name="Millbrook" size="market town" day="new"]``: the scene's place, its market size and
market day (ITM-MARKET-14..18, ITM-DAY-02/03; SPEC §3, §6).

- The name is the place's (``name=``, or the bare words of ``[place: Millbrook]``); a tag without one
  is refused ``no-name`` (our code: the page names none).
- ``size=`` is a place size by id or label (Ambiguity 27); one the ruleset does not have is refused
  ``unknown-size`` and the place in force stays (ITM-MARKET-15, Ambiguity 9). Without ``size=`` the
  place is in force but has no market (a road, the wilds).
- ``day="new"`` on the place in force starts its next market day; any other place starts a new day
  by being named (``middleware.resolve.market.day``). Other ``day=`` values are ignored.

Answered as ``[place: name="…" size="<place id>" result="ok"]`` or
``[place: name="…" size="…" result="refused" reason="unknown-size"]``.
``place_at_end`` runs the reply's ``[place:]`` tags ahead of the rest, with no dice, so a buy is priced
where the reply ends (ITM-MARKET-20).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from middleware.records import Record, clean_value
from middleware.resolve import Context, Resolution
from middleware.resolve.market.day import arrive, find_size, market_of, next_place, place_key
from middleware.segments import Segment, Tag
from middleware.state import GameState, Place

if TYPE_CHECKING:
    from middleware.rules.items_money import PlaceSize


class PlaceRecord(Record):
    """SPEC §6: the place, size and day in force after a ``[place:]`` tag (or why it was refused).

    ``size`` is the place id; ``asked`` is the size as written (kept for a refusal); ``new_day`` is
    true when the tag began a market day (arriving, or ``day="new"``); ``market`` tells whether the
    place has a market.
    """

    tag: str = "place"
    name: str | None = None
    size: str | None = None
    size_label: str | None = None
    asked: str | None = None
    day: int | None = None
    new_day: bool = False
    market: bool = False

    def tag_attrs(self) -> list[tuple[str, str]]:
        """``name``, ``size`` (the place id, or as written on a refusal), ``result``, ``reason``."""
        size = self.size if self.status == "resolved" else self.asked
        attrs = [(k, v) for k, v in (("name", self.name), ("size", size)) if v]
        if self.status == "resolved":
            return [*attrs, ("result", "ok")]
        return [*attrs, ("result", "refused"), ("reason", self.reason or "refused")]


def resolve_place(tag: Tag, state: GameState, ctx: Context) -> Resolution:
    """The ``place`` resolver: the new place in force, or a refusal that changes nothing."""
    name = clean_value(tag.get("name") or " ".join(tag.words))
    asked = tag.get("size")
    if not name:
        return _refused(state, tag, "no-name", None, asked,
                        'Name the place: [place: name="…" size="…"].')
    size = find_size(ctx.ruleset, asked) if asked else None
    if asked and size is None:
        return _refused(state, tag, "unknown-size", name, asked, _sizes_line(ctx, asked))
    new_day = (tag.get("day") or "").strip().lower() == "new"
    place = next_place(state, name, size.id if size else None, new_day)
    began = place.day > state.days.get(place_key(place.name), 0)
    after = arrive(state, place, keep=ctx.place_at_end)
    return Resolution(after, PlaceRecord(
        status="resolved", name=place.name, size=place.size, size_label=size.label if size else None,
        asked=clean_value(asked) if asked else None, day=place.day, new_day=began,
        market=size is not None, source=tag.raw, feedback=_arrived_line(place, size, began)))


def place_at_end(segments: Iterable[Segment], state: GameState, ctx: Context) -> Place | None:
    """SPEC §3 / Ambiguity 11: the place in force once every readable ``[place:]`` of the reply is
    answered, in order, from ``state``; no dice are thrown and nothing else is read."""
    for segment in segments:
        if isinstance(segment, Tag) and segment.name == "place" and not segment.problems:
            try:
                state = resolve_place(segment, state, ctx).state
            except Exception:  # the tag's own resolution, later, records the error
                continue
    return state.place


def _refused(state: GameState, tag: Tag, reason: str, name: str | None, asked: str | None,
             feedback: str) -> Resolution:
    return Resolution(state, PlaceRecord(
        status="refused", reason=reason, name=name or None,
        asked=clean_value(asked) if asked else None, source=tag.raw, feedback=feedback))


def _arrived_line(place: Place, size: PlaceSize | None, began: bool) -> str:
    if size is None:
        return f"{place.name}: no market here."
    day = f"market day {place.day} begins" if began else f"market day {place.day} goes on"
    return f"{place.name} ({size.label}): {day}."


def _sizes_line(ctx: Context, asked: str) -> str:
    market = market_of(ctx.ruleset)
    if market is None:
        return f'No place size "{clean_value(asked)}": this ruleset has no market; omit size=.'
    known = ", ".join(f"{s.id} ({s.label})" for s in market.places)
    return f'No place size "{clean_value(asked)}"; sizes are {known}. The place in force stays.'
