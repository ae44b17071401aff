"""Market days: how days begin and end, today's stock and ``limited`` counts drawn from (game seed,
place, day), and what today's market keeps (ITM-DAY-02..07, SPEC §3, §5) on Gravewatch's market
with the items page's market-day keys."""

from __future__ import annotations

from typing import Any

import pytest

from middleware.dice import Dice, derive_seed
from middleware.engine import Engine
from middleware.pipeline import resolve_reply
from middleware.resolve import dispatch
from middleware.resolve.market.day import arrive, next_place, today, with_today
from middleware.resolve.market.stock import Stock, Ware, draw_stock, limit_of, todays_stock
from middleware.rules.item_entry import Item
from middleware.rules.load import load_ruleset
from middleware.state import GameState, MarketDay, Place
from middleware.stores.memory import MemoryStore
from tests.market.day_helpers import context, market_day, market_day_data, probe, start

RULESET = market_day()


def walk(*replies: str, state: GameState | None = None) -> GameState:
    """The state after each reply in turn (places only: no dice are thrown)."""
    state = start(RULESET) if state is None else state
    for reply in replies:
        state = resolve_reply(reply, state, context(RULESET)).state
    return state


MILLBROOK = '[place: name="Millbrook" size="market town"]'
ASHFORD = '[place: name="Ashford" size="hamlet"]'


def test_a_day_lasts_while_the_place_in_force_is_named_again() -> None:
    """ITM-DAY-02: naming the place in force again, even with another size, keeps its day."""
    state = walk(MILLBROOK, '[place: name="millbrook" size="city"]')
    assert (Place(name="millbrook", size="city", day=1), {"millbrook": 1}) == (state.place,
                                                                               state.days)


def test_day_new_starts_the_next_day_of_the_same_place() -> None:
    """ITM-DAY-02: ``day="new"`` on the place in force begins its next market day."""
    state = walk(MILLBROOK, '[place: name="Millbrook" size="market town" day="new"]')
    assert Place(name="Millbrook", size="town", day=2) == state.place
    feedback = resolve_reply(MILLBROOK[:-1] + ' day="NEW"]', state, context(RULESET)).records[0]
    assert "Millbrook (market town): market day 3 begins." == feedback.feedback


def test_naming_another_place_ends_the_day_and_coming_back_starts_a_new_one() -> None:
    """ITM-DAY-02, Ambiguity 12: each place counts its own days; leaving ends the day there and
    returning begins the next one."""
    state = walk(MILLBROOK, ASHFORD, MILLBROOK)
    assert (Place(name="Millbrook", size="town", day=2), {"ashford": 1, "millbrook": 2}) == (
        state.place, state.days)


def test_what_was_sold_today_is_kept_while_the_day_goes_on() -> None:
    """ITM-DAY-04/06/09: today's sales are kept for the day; naming the place again keeps them; a
    new day, or another place, starts from nothing."""
    state = walk(MILLBROOK)
    assert state.place is not None
    sold = today(state, state.place).model_copy(update={"limited": {"kit/silver-nail": 1},
                                                        "paid": {"coin": 48}})
    state = with_today(state, sold)
    assert sold == walk(MILLBROOK, state=state).market
    assert walk(ASHFORD, state=state).market is None
    new_day = walk(MILLBROOK[:-1] + ' day="new"]', state=state)
    assert MarketDay(place="millbrook", day=2) == today(new_day, new_day.place)  # type: ignore[arg-type]


def test_a_sale_priced_where_the_reply_ends_survives_the_walk_there() -> None:
    """ITM-MARKET-20: a buy early in a reply is recorded on the market where the reply ends; the
    ``[place:]`` tags resolved after it keep that record."""
    state = walk(MILLBROOK)
    end = Place(name="Ashford", size="hamlet", day=1)
    bought = MarketDay(place="ashford", day=1, limited={"kit/silver-nail": 1})
    moved = arrive(with_today(state, bought), next_place(state, "Ashford", "hamlet", False),
                   keep=end)
    assert bought == moved.market


def test_todays_stock_is_drawn_from_game_seed_place_and_day_only() -> None:
    """ITM-DAY-03, SPEC §5: the stock is the draw of a ``Dice`` seeded by (game seed, place, day);
    the place is compared without case or punctuation."""
    expected = draw_stock(RULESET, Dice(derive_seed(7, "millbrook", 2)))
    assert expected == todays_stock(RULESET, 7, "Millbrook", 2)
    assert expected == todays_stock(RULESET, 7, "MILLBROOK!", 2)


def test_a_new_day_or_another_place_draws_other_wares() -> None:
    """ITM-DAY-01/03: the wares change from day to day and from place to place."""
    days = {_fingerprint(todays_stock(RULESET, 7, "Millbrook", day)) for day in range(1, 9)}
    places = {_fingerprint(todays_stock(RULESET, 7, name, 1))
              for name in ("Millbrook", "Ashford", "Lantern Hill", "Cold Cross", "Stillwater")}
    assert (True, True) == (len(days) > 1, len(places) > 1)


def test_the_smiths_odd_lot_sums_repeats_and_only_the_smith_sells_it() -> None:
    """ITM-DAY-07: the smith draws ``smiths_odd_lot`` (2 draws, weights nail 1, spade 2, coins 1)
    once a day; the same item drawn twice is one ware. Faces: 1 (nail) with 1d4 = 3, 1 (nail)
    with 1d4 = 2; then the four rare wares' ``1d2`` limits."""
    stock = draw_stock(RULESET, Dice(0, script=[1, 3, 1, 2, 1, 1, 1, 1]))
    nail = Ware(seller="smith", ref="kit/silver-nail", count=5, shown="kit/silver-nail")
    assert ((nail,), ()) == (stock.of("smith"), stock.of("chandler"))


def test_a_stock_table_never_stocks_coins() -> None:
    """ITM-DAY-07 / ITM-LOOT-16: coins drawn by a stock table are dropped. Faces: 4 (shillings)
    with 1d6 = 5, then 2 (spade, one piece)."""
    stock = draw_stock(RULESET, Dice(0, script=[4, 5, 2, 1, 1, 1, 1]))
    spade = Ware(seller="smith", ref="kit/grave-spade", count=1, shown="kit/grave-spade")
    assert (spade,) == stock.wares


def test_limited_counts_follow_the_first_rule_or_the_items_own_sold() -> None:
    """ITM-DAY-04/05: rare wares get the rule's ``1d2`` a day; an item's own ``sold.limited``
    beats the rules; a rule may limit without naming a place; the first limit decides."""
    data = market_day_data()
    data["items"]["market"]["sold"].insert(0, {"filter": {"category": "tonic"}, "limited": 3})
    data["items"]["market"]["sold"].append({"filter": {"rarity": "rare"}, "limited": 9})
    market = load_ruleset(data).items.market  # type: ignore[union-attr]
    assert market is not None
    assert 3 == limit_of(market, Item(category="tonic"))
    assert "1d2" == limit_of(market, Item(category="page", rarity="rare"))
    assert 2 == limit_of(market, Item.model_validate({"category": "page", "rarity": "rare",
                                                      "sold": {"limited": 2}}))
    assert limit_of(market, Item(category="coat")) is None


def test_limited_dice_are_thrown_for_the_day_after_the_stock() -> None:
    """ITM-DAY-04: each rare ware's ``1d2`` is thrown once for the day, in catalog order (silver
    nail, watch pistol, litany page, widow's ring), after the smith's draws."""
    stock = draw_stock(RULESET, Dice(0, script=[2, 2, 1, 2, 1, 2]))
    rare = {"kit/silver-nail": 1, "kit/watch-pistol": 2, "kit/litany-page": 1,
            "kit/widows-ring": 2}
    assert rare == dict(stock.limited)


async def test_regenerate_and_fork_see_the_same_stock(monkeypatch: pytest.MonkeyPatch) -> None:
    """ITM-DAY-03, SPEC §3: every candidate of a turn and every branch reads the same stock for
    the same day, whatever their own dice; the candidate's dice are never thrown for it."""
    seen: list[tuple[Stock, int]] = []
    monkeypatch.setitem(dispatch.RESOLVERS, "loot", probe(seen, _stock_and_throws))
    engine = Engine(MemoryStore())
    await engine.create_game("chat", RULESET, seed=11)
    await engine.process("chat", 1, MILLBROOK)
    for _ in range(2):
        await engine.process("chat", 2, "[loot: look]")
    await engine.fork("chat", 1, "branch")
    await engine.process("branch", 2, "[loot: look]")
    await engine.process("branch", 3, MILLBROOK[:-1] + ' day="new"] [loot: look]')
    expected = todays_stock(RULESET, 11, "Millbrook", 1)
    assert [(expected, 0)] * 3 == seen[:3]
    assert todays_stock(RULESET, 11, "Millbrook", 2) == seen[3][0]


def _stock_and_throws(state: GameState, ctx: Any) -> tuple[Stock, int]:
    place = state.place
    assert place is not None
    return todays_stock(ctx.ruleset, ctx.seed, place.name, place.day), len(ctx.dice.thrown)


def _fingerprint(stock: Stock) -> tuple[object, ...]:
    return (stock.wares, tuple(sorted(stock.limited.items())))
